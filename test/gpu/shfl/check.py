#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compares the GPU's shfl.sync lane predicates (the output of probe.cu) with
the PTX ISA definition that passes/ShflPredicate.h implements, written here
once more from the ISA text:
    maxLane = (lane & segmask) | (c[4:0] & ~segmask),  segmask = c[12:8]
    up: lane - b >= maxLane; down: lane + b <= maxLane; bfly: (lane ^ b) <= maxLane;
    idx: ((lane & segmask) | (b & ~segmask)) <= maxLane         (b = b[4:0])
Prints the number of (mode, b, c, lane) cases that agree and differ, and each
differing line; exit status 1 if any differ or the file has no cases.

  check.py PROBE_OUTPUT
"""
import re
import sys


def predicate(mode, b, c, lane):
    b5, seg = b & 31, (c >> 8) & 31
    not_seg = seg ^ 31
    min_lane = lane & seg
    max_lane = min_lane | (c & 31 & not_seg)
    if mode == "up":
        return lane - b5 >= max_lane
    if mode == "down":
        return lane + b5 <= max_lane
    if mode == "bfly":
        return (lane ^ b5) <= max_lane
    return (min_lane | (b5 & not_seg)) <= max_lane


def main():
    same = differ = 0
    with open(sys.argv[1]) as f:
        for line in f:
            m = re.match(r"(up|down|bfly|idx) c=0x([0-9a-f]+) b=(-?\d+) p=([01]{32})", line)
            if not m:
                continue
            mode, c, b, bits = m.group(1), int(m.group(2), 16), int(m.group(3)), m.group(4)
            want = "".join("1" if predicate(mode, b, c, lane) else "0" for lane in range(32))
            for got_bit, want_bit in zip(bits, want):
                same += got_bit == want_bit
                differ += got_bit != want_bit
            if bits != want:
                print(f"differs: {line.strip()[:60]} model p={want}")
    print(f"lanes: {same} agree, {differ} differ")
    return 0 if same and not differ else 1


if __name__ == "__main__":
    sys.exit(main())

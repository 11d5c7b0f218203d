#!/usr/bin/env python3
"""Checks the static model of Inputs/shift-loops.cu against the loops run
here, for seeded random a, b and block sizes: every kernel must be exact and
its f32 FLOPs (one add per iteration, per thread) equal to the loop's.
Usage: shift_bruteforce.py HROOF MODEL.json CASES
Prints one line per mismatch and 'OK N' at the end (N cases x kernels)."""
import sys

from model_bruteforce import check

M32 = 0xFFFFFFFF


def iters(kernel, a, b, tid):
    n = 0
    if kernel == "rshift_gt":
        s = a
        while s > b:
            n, s = n + 1, s >> 1
    elif kernel == "rshift2_ge":
        s = a
        while s >= (b | 1):
            n, s = n + 1, s >> 2
    elif kernel == "sdiv_ne0":
        s = a & 0x7FFFFFFF
        while s != 0:
            n, s = n + 1, s // 2
    elif kernel == "lshift_lt":
        s = (a & 0xFFFF) | 1
        while s < (b & 0xFFFFFFF):
            n, s = n + 1, (s << 1) & M32
    elif kernel == "mul4_le":
        s = (a & 0xFFFF) | 1
        while s <= (b & 0xFFFFFFF):
            n, s = n + 1, (s * 4) & M32
    elif kernel == "tid_below":
        s = a
        while s > 0:
            n, s = n + (tid < s), s >> 1
    elif kernel == "tid_from":
        s = a
        while s > b:
            n, s = n + (tid >= s), s >> 1
    elif kernel == "rshift64_ne0":
        s = (a << 24) | b
        while s != 0:
            n, s = n + 1, s >> 1
    return n


def main():
    hroof, model, cases = sys.argv[1], sys.argv[2], int(sys.argv[3])
    # Small and large values, powers of two and their neighbours.
    picks = lambda rng: rng.choice([rng.randrange(0, 64), rng.randrange(0, 1 << 20),
                                    rng.randrange(0, 1 << 32), 1 << rng.randrange(0, 32),
                                    (1 << rng.randrange(1, 32)) - 1])
    want = lambda name, a, b, block: 2 * sum(iters(name, a, b, t) for t in range(block))
    return check(hroof, model, cases, 20261125, want, picks)


if __name__ == "__main__":
    sys.exit(main())

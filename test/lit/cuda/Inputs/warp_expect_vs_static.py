#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""warp_expect_vs_static.py HROOF MODEL.json PROGRAM-OUTPUT

For each LAUNCH line of test/gpu/warp/warp_traffic.cu's output and the
EXPECT line after it (the warp-level counts the program derives by hand),
evaluates the static warp model of that launch (`hroof static MODEL.json`)
and checks every quantity: equal where the model is exact, inside [lo, hi]
where it gives bounds. Prints each disagreement and a summary line."""
import json
import subprocess
import sys


def flat(counts, prefix=""):
    out = {}
    for k, v in counts.items():
        if isinstance(v, dict) and not ("lo" in v and "hi" in v):
            out.update(flat(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def main():
    hroof, model, output = sys.argv[1:4]
    lines = open(output).read().splitlines()
    launches = exact = bounded = bad = 0
    for i, l in enumerate(lines):
        if not l.startswith("LAUNCH "):
            continue
        launches += 1
        kernel, grid, block, *args = l.split()[1:]
        if i + 1 >= len(lines) or not lines[i + 1].startswith("EXPECT "):
            print("launch %d (%s): no EXPECT line" % (launches, kernel))
            bad += 1
            continue
        expect = dict(kv.split("=") for kv in lines[i + 1].split()[1:])
        cmd = [hroof, "static", model, "--kernel", "^" + kernel + r"\(", "--grid",
               grid.split("=")[1], "--block", block.split("=")[1], "--json"]
        for a in args:
            cmd += ["--arg", a]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            print("launch %d (%s): %s" % (launches, kernel, run.stderr.strip()))
            bad += 1
            continue
        pred = flat(json.loads(run.stdout)["kernels"][0]["warp"]["counts"])
        for key, e in expect.items():
            e, p = int(e), pred.get(key, 0)
            if isinstance(p, dict):
                ok = p["lo"] <= e <= p["hi"]
                bounded += ok
            else:
                ok = p == e
                exact += ok
            if not ok:
                bad += 1
                print("launch %d (%s) %s: expected %d, static %s" % (launches, kernel, key, e, p))
    print("launches %d, exact quantities agree %d, bounded contain %d, disagree %d" %
          (launches, exact, bounded, bad))
    return 1 if bad or not launches else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The static warp-level model of this checkout against dynamic warp-level
counts measured on a GPU: reads the profiles of warp builds (NAME.warp.1.json,
written by overhead-run.sh or corpus-run.sh), re-evaluates each distinct
instrumented launch with `hroof static` on the program's source at the
recorded grid, block and integer arguments, and classifies every nonzero
(launch, quantity) pair: equal, in bounds, DIFFERENT, OUTSIDE bounds, or no
static numbers (the reason printed). No GPU needed.

  python3 test/gpu/warp/static-vs-dynamic.py PROFILE_DIR HECBENCH_SRC [--hroof build/bin/hroof]

HECBENCH_SRC holds NAME-cuda/ (the program's .cu file is compiled with its
directory on the include path). Pointers are taken as 256-byte aligned, as
the runtime records no pointer values here."""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

QUANTITIES = ("warp_bytes", "sectors", "wavefronts")


def static_warp(hroof, src, launch):
    cmd = [hroof, "static", src, "--kernel", "^" + launch["mangled"] + "$", "--json",
           "--grid", ",".join(map(str, launch["grid"])),
           "--block", ",".join(map(str, launch["block"]))]
    for name, value in launch["args"].items():
        cmd += ["--arg", f"{name}={value}"]
    cmd += ["--", "-I" + os.path.dirname(src)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(r.stdout)["kernels"][0].get("warp", {})
    except (ValueError, KeyError, IndexError):
        return {"problem": "hroof static failed: " + r.stderr.strip()[-300:]}


def classify(static, measured):
    if static is None:
        return "no static"
    if isinstance(static, dict):
        return "in bounds" if static["lo"] <= measured <= static["hi"] else "OUTSIDE bounds"
    return "equal" if static == measured else "DIFFERENT"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("profiles")
    ap.add_argument("src")
    ap.add_argument("--hroof", default=os.path.join(os.path.dirname(__file__), "../../../build/bin/hroof"))
    a = ap.parse_args()
    total = collections.Counter()
    wrong = []
    for f in sorted(glob.glob(os.path.join(a.profiles, "*.warp.1.json"))):
        prog = os.path.basename(f).split(".warp")[0]
        srcs = sorted(glob.glob(os.path.join(a.src, prog + "-cuda", "*.cu")))
        if not srcs:
            print(f"{prog}: no source under {a.src}/{prog}-cuda", file=sys.stderr)
            continue
        seen = set()
        for l in json.load(open(f))["launches"]:
            # model-counted launches have no measured warp counts
            if l.get("dynamic_problem") or "warp_bytes" not in l.get("dynamic", {}):
                continue
            key = (l["mangled"], tuple(l["grid"]), tuple(l["block"]), json.dumps(l["args"], sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            w = static_warp(a.hroof, srcs[0], l)
            verdict = collections.Counter()
            for q in QUANTITIES:
                for space, dirs in l["dynamic"].get(q, {}).items():
                    for d, measured in dirs.items():
                        s = w.get("counts", {}).get(q, {}).get(space, {}).get(d)
                        if s is None and not measured:
                            continue
                        c = classify(s, measured)
                        verdict[c] += 1
                        total[c] += 1
                        if c in ("DIFFERENT", "OUTSIDE bounds"):
                            wrong.append(f"  {prog} {l['kernel']} {q}.{space}.{d} static={s} measured={measured}")
            print(f"{prog} | {l['kernel'][:70]} | grid {l['grid']} block {l['block']} args {l['args']} | "
                  f"exact={w.get('exact')} | " + ", ".join(f"{k} {n}" for k, n in sorted(verdict.items())) +
                  (f" | problem: {w['problem'][:160]}" if "problem" in w else ""))
    print("pairs: " + ", ".join(f"{k} {n}" for k, n in sorted(total.items())))
    print("\n".join(wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Build-time step (needs the hroof CLI, no GPU): for one suite program, run
`PROG --list-launches` (touches no CUDA API), evaluate the static model at
each launch's grid/block/arguments with `hroof static MODEL.json ... --json`,
and write OUT.json: [{"kernel", "launch", "grid", "block", "args",
"analytic": {...}, "static": {...nonzero totals...}, "exact": bool,
"unknown": [...]}]. Prints a preview: analytic vs static per launch."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpulib  # noqa: E402


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: static_totals.py PROG MODEL.json HROOF OUT.json")
    prog, model, hroof, out = sys.argv[1:]
    text = subprocess.run([prog, "--list-launches"], check=True,
                          capture_output=True, text=True).stdout
    launches = gpulib.parse_tagged(text, "HROOF_LAUNCH")
    if not launches:
        sys.exit("static_totals: %s --list-launches printed no launches" % prog)
    cache = {}
    rows = []
    bad = 0
    for L in launches:
        key = (L["kernel"], tuple(L["grid"]), tuple(L["block"]),
               tuple(sorted(L["args"].items())))
        if key not in cache:
            cmd = [hroof, "static", model, "--json",
                   "--kernel", "^(%s)($|\\()" % re.escape(gpulib.base_name(L["kernel"])),
                   "--grid", ",".join(map(str, L["grid"])),
                   "--block", ",".join(map(str, L["block"]))]
            for k, v in L["args"].items():
                cmd += ["--arg", "%s=%s" % (k, v)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("static_totals: %s failed:\n%s" % (" ".join(cmd), r.stderr))
            cache[key] = json.loads(r.stdout)
        doc = cache[key]
        want = L["kernel"]
        match = [k for k in doc["kernels"]
                 if gpulib.base_name(k.get("mangled") or k["name"]) == gpulib.base_name(want)
                 or k.get("mangled") == want]
        if len(match) != 1:
            sys.exit("static_totals: kernel %s: %d matches in %s" % (want, len(match), model))
        K = match[0]
        st = gpulib.nonzero(gpulib.flatten(K.get("total") or {}))
        st = {k: v for k, v in st.items() if not k.startswith("bytes.generic")} if not any(
            k.startswith("bytes.generic") and v for k, v in st.items()) else st
        row = dict(L)
        row["analytic"] = row.pop("counts")
        row["static"] = st
        row["exact"] = K.get("exact")
        row["unknown"] = K.get("unknown", [])
        row["mangled"] = K.get("mangled")
        rows.append(row)
        diff = sorted(set(row["analytic"]) | set(st))
        mism = [(k, row["analytic"].get(k, 0), st.get(k, 0)) for k in diff
                if row["analytic"].get(k, 0) != st.get(k, 0)]
        tag = "static==analytic" if not mism else "static!=analytic"
        if mism:
            bad += 1
        print("  %-16s #%d exact=%s %s%s" % (want, L["launch"], K.get("exact"), tag,
              "".join("\n      %s: analytic %s static %s" % m for m in mism)))
    with open(out, "w") as f:
        json.dump(rows, f, indent=1)
    return 0


sys.exit(main())

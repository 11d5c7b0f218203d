#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Build-time (no GPU): for one case-study program, run `PROG --list-launches`
(no CUDA), evaluate the plugin's static model (MODEL.json, written by the
device compile with HROOF_STATIC_JSON) at each launch with
`hroof static MODEL.json --kernel ... --grid ... --block ... --arg ... --json`,
and write OUT.json: [{kernel, size, grid, block, args, hand_flops, tensor,
static: {nonzero totals}, static_flops, exact, unknown, ai_global}].
Prints one line per launch: hand-derived FLOPs vs the static model's.
Usage: static_totals.py PROG MODEL.json HROOF OUT.json"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import base  # noqa: E402  (one kernel-name rule for both)


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[key] = v
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    prog, model, hroof, out = sys.argv[1:]
    text = subprocess.run([prog, "--list-launches"], check=True,
                          capture_output=True, text=True).stdout
    launches = [json.loads(l[len("LAUNCH "):]) for l in text.splitlines()
                if l.startswith("LAUNCH ")]
    if not launches:
        sys.exit("static_totals: %s --list-launches printed nothing" % prog)
    rows = []
    for L in launches:
        cmd = [hroof, "static", model, "--json",
               "--kernel", "^(void )?%s\\(" % re.escape(L["kernel"]),
               "--grid", ",".join(map(str, L["grid"])),
               "--block", ",".join(map(str, L["block"]))]
        for k, v in L["args"].items():
            cmd += ["--arg", "%s=%s" % (k, v)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("static_totals: %s failed:\n%s" % (" ".join(cmd), r.stderr))
        doc = json.loads(r.stdout)
        match = [k for k in doc["kernels"] if base(k["name"]) == L["kernel"]]
        if len(match) != 1:
            sys.exit("static_totals: %s: %d matches" % (L["kernel"], len(match)))
        K = match[0]
        tot = flatten(K.get("total") or {})
        st = {k: v for k, v in tot.items() if v}
        sflops = sum(v for k, v in tot.items()
                     if k.startswith("flops.") or k.startswith("tensor_flops."))
        row = dict(L)
        row["hand_flops"] = row.pop("flops")
        row.update(static=st, static_flops=sflops, exact=K.get("exact"),
                   unknown=K.get("unknown", []), mangled=K.get("mangled"),
                   ai_global=(K.get("ai") or {}).get("global"))
        rows.append(row)
        same = abs(sflops - row["hand_flops"]) <= 1e-9 * max(1, row["hand_flops"])
        note = "static==hand" if same else "static/hand=%.3f" % (
            sflops / row["hand_flops"] if row["hand_flops"] else float("nan"))
        spec = sum(v for k, v in tot.items() if k.startswith("special."))
        print("  %-36s %-34s hand %.4g  static %.4g  %s  exact=%s%s  AI(global req.)=%s" % (
            L["kernel"], L["size"], row["hand_flops"], sflops, note, K.get("exact"),
            "  special=%.4g" % spec if spec else "",
            "%.2f" % row["ai_global"] if row["ai_global"] else "-"))
    with open(out, "w") as f:
        json.dump(rows, f, indent=1)


sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reads `hroof static --json` (with a launch) on stdin and prints, per kernel,
the warp-level traffic as stable lines for FileCheck:

    kernel <demangled name>
    warp.exact=true|false
    <quantity>.<space>.<dir>=<N>        or =<lo>..<hi> for bounds
    inexact=<reason>                    (one line per reason)
    end

Every quantity the model produced is printed, so a chain of CHECK-NEXT lines
from `warp.exact=` to `end` also proves that nothing else was counted."""
import json
import sys


def main():
    doc = json.load(sys.stdin)
    for k in doc["kernels"]:
        print("kernel " + k["name"])
        w = k.get("warp") or {}
        if "problem" in w:
            print("warp.problem=" + w["problem"])
            print("end")
            continue
        print("warp.exact=" + ("true" if w.get("exact") else "false"))
        flat = {}
        for q, spaces in w.get("counts", {}).items():
            for s, dirs in spaces.items():
                for d, v in dirs.items():
                    flat["%s.%s.%s" % (q, s, d)] = (
                        "%d..%d" % (v["lo"], v["hi"]) if isinstance(v, dict) else str(v))
        for path in sorted(flat):
            print("%s=%s" % (path, flat[path]))
        for r in w.get("inexact", []):
            print("inexact=" + r)
        print("end")


main()

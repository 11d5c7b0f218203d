#!/usr/bin/env python3
"""Reads `hroof static --json` on stdin and prints, per kernel, a stable
key=value summary for FileCheck:

    kernel <demangled name>
    exact=true|false
    unknown=<reason>            (one line per unknown reason)
    <path>=<value>              (every NONZERO total, sorted by path; a kernel
                                 that is not exact has its upper bounds there,
                                 and [lo, no bound] where a counter has none
                                 and its lower bound is not 0)
    end

Only nonzero totals are printed, so a chain of CHECK-NEXT lines from
`exact=` to `end` also proves that every other counter is zero."""
import json
import sys


def flatten(prefix, obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            flatten(prefix + "." + k if prefix else k, v, out)
    else:
        out[prefix] = obj


def main():
    doc = json.load(sys.stdin)
    for k in doc["kernels"]:
        print("kernel " + k["name"])
        print("exact=" + ("true" if k["exact"] else "false"))
        for u in k.get("unknown", []):
            print("unknown=" + (u if isinstance(u, str) else json.dumps(u)))
        flat, lo = {}, {}
        flatten("", k.get("total") or {}, flat)
        flatten("", (k.get("bounds") or {}).get("lo") or {}, lo)
        for path in sorted(flat):
            v = flat[path]
            if v is None and lo.get(path):  # no upper bound (total is hi)
                print("%s=[%s, no bound]" % (path, lo.get(path)))
            elif v:
                print("%s=%s" % (path, v))
        print("end")


main()

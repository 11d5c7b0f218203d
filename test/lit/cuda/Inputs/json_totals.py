#!/usr/bin/env python3
"""Reads `hroof static --json` on stdin and prints, per kernel, its "total"
(every counter that is not 0, null included, sorted by path), then
"flops_total" and "ai.global" as JSON (keys sorted), for FileCheck."""
import json
import sys


def flatten(prefix, obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            flatten(prefix + "." + k, v, out)
    else:
        out[prefix] = obj


doc = json.load(sys.stdin)
for k in doc["kernels"]:
    print("kernel " + k["name"])
    print("exact " + ("true" if k["exact"] else "false"))
    flat = {}
    flatten("total", k.get("total") or {}, flat)
    for path in sorted(flat):
        if flat[path] != 0:
            print(path, json.dumps(flat[path]))
    print("flops_total", json.dumps(k.get("flops_total"), sort_keys=True))
    print("ai.global", json.dumps(k.get("ai", {}).get("global"), sort_keys=True))

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes a copy of a hroof profile that keeps only the kernels whose
demangled or mangled name matches REGEX (Python re.search), in `kernels`
and `launches`, so one chart can show a chosen set (before/after).
Usage: filter_profile.py IN.json OUT.json REGEX"""
import json
import re
import sys

if len(sys.argv) != 4:
    sys.exit(__doc__)
src, dst, rx = sys.argv[1:]
pat = re.compile(rx)
p = json.load(open(src))


def keep(r):
    return bool(pat.search(r.get("kernel") or "") or pat.search(r.get("mangled") or ""))


p["kernels"] = [k for k in p.get("kernels", []) if keep(k)]
p["launches"] = [l for l in p.get("launches", []) if keep(l)]
p.setdefault("notes", []).append("filtered by case-studies/filter_profile.py: %s" % rx)
json.dump(p, open(dst, "w"))
print("filter_profile: %s -> %s: %d kernels" % (src, dst, len(p["kernels"])))

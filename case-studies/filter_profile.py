#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes a copy of a hroof profile that keeps only the kernels whose
demangled or mangled name matches REGEX (Python re.search), in `kernels`
and `launches`, so one chart can show a chosen set (before/after).
Usage: filter_profile.py IN.json OUT.json REGEX"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import profile_schema  # noqa: E402  (the keys of common/include/hroof/ProfileKeys.h)

if len(sys.argv) != 4:
    sys.exit(__doc__)
src, dst, rx = sys.argv[1:]
pat = re.compile(rx)
p = json.load(open(src))
K = profile_schema.keys()


def keep(r):
    return bool(pat.search(r.get(K.kernel) or "") or pat.search(r.get(K.mangled) or ""))


p[K.kernels] = [k for k in p.get(K.kernels, []) if keep(k)]
p[K.launches] = [l for l in p.get(K.launches, []) if keep(l)]
p.setdefault(K.notes, []).append("filtered by case-studies/filter_profile.py: %s" % rx)
json.dump(p, open(dst, "w"))
print("filter_profile: %s -> %s: %d kernels" % (src, dst, len(p[K.kernels])))

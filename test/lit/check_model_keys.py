#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks a static-model JSON written by the plugin against the key table of
common/include/hroof/StaticModelKeys.h: every key of every object (module,
kernel, param, term, access, base, loop) must be in the table for that object.
Prints "keys: N checked, M objects" and the table's keys the file did not
use; exits 1 on a key the table lacks.

  check_model_keys.py MODEL.json StaticModelKeys.h
"""
import json
import re
import sys


def table(header):
    text = open(header).read()
    names = dict(re.findall(r'inline constexpr const char \*(\w+) = "([^"]+)";', text))
    rows = re.findall(r'\{"(\w+)", (\w+), "', text)
    allowed = {}
    for obj, const in rows:
        if const not in names:
            sys.exit(f"check_model_keys: table names {const}, which the header does not define")
        allowed.setdefault(obj, set()).add(names[const])
    return allowed


def walk(model):
    """Yields (object kind, key) for every key in the model."""
    for k in model:
        yield "module", k
    for kern in model.get("kernels", []):
        for k in kern:
            yield "kernel", k
        for kind, items in (("param", kern.get("params", [])), ("term", kern.get("terms", [])),
                            ("access", kern.get("accesses", []))):
            for it in items:
                for k in it:
                    yield kind, k
                if kind == "access":
                    for k in it.get("base", {}):
                        yield "base", k
                    for lp in it.get("loops", []):
                        for k in lp:
                            yield "loop", k


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    allowed = table(sys.argv[2])
    seen, bad, n = set(), [], 0
    for kind, key in walk(json.load(open(sys.argv[1]))):
        n += 1
        seen.add((kind, key))
        if key not in allowed.get(kind, set()):
            bad.append(f"{kind}.{key}")
    for b in sorted(set(bad)):
        print(f"check_model_keys: {b} is not in the key table")
    unused = sorted(f"{o}.{k}" for o, ks in allowed.items() for k in ks if (o, k) not in seen)
    print(f"keys: {n} checked, {len(bad)} not in the table; unused here: {', '.join(unused)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

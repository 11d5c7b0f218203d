# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Helpers shared by test/gpu/static_totals.py (run here, at build time) and
test/gpu/compare.py (run on the machine with the GPU). Standard library only."""
import json
import re

PRECS = ("f64", "f32", "f16", "bf16")
SPACES = ("global", "shared", "local", "constant")
DIRS = ("load", "store", "atomic")


def flatten(obj, prefix="", out=None):
    """{"flops": {"f32": 3}} -> {"flops.f32": 3}."""
    if out is None:
        out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            flatten(v, prefix + "." + k if prefix else k, out)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out[prefix] = obj
    return out


def nonzero(d):
    return {k: v for k, v in d.items() if v}


def _demangle_simple(m):
    """Base name of an Itanium-mangled function: _Z13poly_noinlineiPKfPf ->
    poly_noinline; nested _ZN2ns3fooE... -> foo. Good enough for the suite."""
    if not m.startswith("_Z"):
        return m
    s = m[2:]
    parts = []
    nested = s.startswith("N")
    if nested:
        s = s[1:]
    while s and s[0].isdigit():
        mm = re.match(r"(\d+)", s)
        n = int(mm.group(1))
        s = s[len(mm.group(1)):]
        parts.append(s[:n])
        s = s[n:]
        if not nested:
            break
        while s and s[0] in "KVr":
            s = s[1:]
    return parts[-1] if parts else m


def base_name(name):
    """Normalizes a kernel name as printed by any of the tools (mangled,
    demangled with parameters, 'void f<int>(...)') to its bare function
    name."""
    if not name:
        return ""
    name = name.strip()
    if name.startswith("_Z"):
        return _demangle_simple(name)
    # cut the parameter list and template arguments
    depth = 0
    out = ""
    for ch in name:
        if ch == "(" and depth == 0:
            break
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out += ch
    out = out.strip().split(" ")[-1]  # drop a leading return type
    return out.split("::")[-1]


def parse_tagged(text, tag):
    """All JSON objects printed as lines 'TAG {...}'."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(tag + " "):
            try:
                out.append(json.loads(line[len(tag) + 1:]))
            except ValueError:
                pass
    return out

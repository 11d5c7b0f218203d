#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The profile JSON's keys for Python: share/hroof/profile-schema.json, which
the build writes from common/include/hroof/ProfileKeys.h (the table the
runtime's writer and `hroof report` use), read here.

    import profile_schema as ps
    K = ps.keys()                 # K.kernels == "kernels"; K.kernelz raises
    problems = ps.check(profile)  # keys the table lacks, values of another type

The schema is found at $HROOF_PROFILE_SCHEMA, else in the build tree
($HROOF_BUILD or <repo>/build)/share/hroof/, else next to an installed hroof
(<prefix>/share/hroof/).

As a script: profile_schema.py [--schema S] [--keys-only] PROFILE.json...
prints each problem and "PATH: N keys checked, M problem(s)"; exits 1 on any.
"""
import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def schema_path():
    env = os.environ.get("HROOF_PROFILE_SCHEMA")
    if env:
        return env
    tried = []
    build = os.environ.get("HROOF_BUILD") or os.path.join(os.path.dirname(HERE), "build")
    tried.append(os.path.join(build, "share", "hroof", "profile-schema.json"))
    exe = shutil.which("hroof")
    if exe:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(exe)))
        tried.append(os.path.join(prefix, "share", "hroof", "profile-schema.json"))
    for p in tried:
        if os.path.exists(p):
            return p
    sys.exit("profile_schema: no profile-schema.json (build hroof, or set HROOF_PROFILE_SCHEMA); "
             "looked in " + ", ".join(tried))


_cache = {}


def load(path=None):
    path = path or schema_path()
    if path not in _cache:
        s = json.load(open(path))
        if s.get("schema") != "hroof-profile-schema/1":
            sys.exit(f"profile_schema: '{path}' is not a profile schema")
        _cache[path] = s
    return _cache[path]


class Keys:
    """Every key of the table as an attribute of the same name."""

    def __init__(self, schema):
        self._all = {k for obj in schema["objects"].values() for k in obj}

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._all:
            raise AttributeError(f"'{name}' is not a profile key (common/include/hroof/ProfileKeys.h)")
        return name


def keys(path=None):
    return Keys(load(path))


# Where each object of a profile sits: (object kind, nested objects by key).
KERNEL_PARTS = {"duration_ns": "duration", "counters": "sum", "dynamic": "sum",
                "static": "static_sum", "static_warp": "static_warp_sum"}


def _walk(kind, obj, ptr, out):
    """Yields (object kind, key, value, JSON pointer) of every key below obj."""
    if not isinstance(obj, dict):
        return
    for k, v in obj.items():
        out.append((kind, k, v, f"{ptr}/{k}"))
    sub = []
    if kind == "profile":
        sub = [("settings", obj.get("settings")), ("launch_records", obj.get("launch_records")),
               ("transfers", obj.get("transfers")), ("timing", obj.get("timing"))]
        sub += [("device", d) for d in obj.get("devices") or []]
        sub += [("launch", l) for l in obj.get("launches") or []]
        sub += [("kernel", k) for k in obj.get("kernels") or []]
        sub += [("range", r) for r in obj.get("ranges") or []]
        names = {"settings": "/settings", "launch_records": "/launch_records",
                 "transfers": "/transfers", "timing": "/timing"}
        counters = {"device": 0, "launch": 0, "kernel": 0, "range": 0}
        for sk, sv in sub:
            if sk in names:
                _walk(sk, sv, ptr + names[sk], out)
            else:
                key = {"device": "devices", "launch": "launches", "kernel": "kernels",
                       "range": "ranges"}[sk]
                _walk(sk, sv, f"{ptr}/{key}/{counters[sk]}", out)
                counters[sk] += 1
        return
    if kind == "launch":
        c = obj.get("counters")
        _walk("counters", c, ptr + "/counters", out)
        if isinstance(c, dict):
            _walk("peak", c.get("peak"), ptr + "/counters/peak", out)
        _walk("bounds", obj.get("static_bounds"), ptr + "/static_bounds", out)
        w = obj.get("static_warp")
        if isinstance(w, dict) and "problem" in w:  # else the static model's warp object
            _walk("static_warp", w, ptr + "/static_warp", out)
        _walk("collective", obj.get("collective"), ptr + "/collective", out)
    elif kind in ("kernel", "by_device"):
        for k, part in KERNEL_PARTS.items():
            if kind == "by_device" and part.startswith("static"):
                continue
            _walk(part, obj.get(k), f"{ptr}/{k}", out)
        if isinstance(obj.get("static"), dict):
            _walk("bounds", obj["static"].get("bounds"), ptr + "/static/bounds", out)
        for i, e in enumerate(obj.get("by_device") or []):
            _walk("by_device", e, f"{ptr}/by_device/{i}", out)
    elif kind == "range":
        for i, k in enumerate(obj.get("kernels") or []):
            _walk("kernel", k, f"{ptr}/kernels/{i}", out)
        for i, t in enumerate(obj.get("transfers") or []):
            _walk("transfer_sum", t, f"{ptr}/transfers/{i}", out)
    elif kind == "transfers":
        for i, t in enumerate(obj.get("by_kind") or []):
            _walk("transfer_sum", t, f"{ptr}/by_kind/{i}", out)
        for i, t in enumerate(obj.get("records") or []):
            _walk("transfer", t, f"{ptr}/records/{i}", out)
    elif kind == "timing":
        for i, e in enumerate(obj.get("entries") or []):
            _walk("timing_entry", e, f"{ptr}/entries/{i}", out)


def flatten_into(obj, prefix, out):
    """Adds the dotted keys of the numbers in nested \p obj to the set \p out."""
    for k, v in (obj or {}).items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            flatten_into(v, key, out)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.add(key)


def _type_ok(t, v):
    for one in t.split("|"):
        if one == "null" and v is None:
            return True
        if one == "int" and isinstance(v, int) and not isinstance(v, bool):
            return True
        if one == "number" and isinstance(v, (int, float)) and not isinstance(v, bool):
            return True
        if one == "string" and isinstance(v, str):
            return True
        if one == "bool" and isinstance(v, bool):
            return True
        if one in ("object", "counts") and isinstance(v, dict):
            return True
        if one == "array" and isinstance(v, list):
            return True
    return False


def check(profile, schema=None, types=True):
    """Problems of \\p profile against the table: a key that its object does
    not have, a value of another type (with types). Returns (keys checked,
    problems)."""
    s = schema or load()
    found = []
    _walk("profile", profile, "", found)
    problems = []
    for kind, k, v, ptr in found:
        spec = s["objects"].get(kind, {}).get(k)
        if spec is None:
            problems.append(f"{ptr}: '{k}' is not a key of a {kind} object in the table")
        elif types and not _type_ok(spec["type"], v):
            problems.append(f"{ptr}: {json.dumps(v)[:40]} is not of type {spec['type']}")
    return len(found), problems


def unknown_keys_note(profile, path):
    """For readers that run where there may be no build (the case studies' GPU
    scripts): one line naming the keys of \p profile that the table lacks
    (a profile of another hroof version, or a misspelled key), "" when there
    are none or no schema is at hand."""
    try:
        s = load()
    except (OSError, ValueError, SystemExit):
        return ""
    _, problems = check(profile, s, types=False)
    if not problems:
        return ""
    keys = sorted({p.split(": '")[1].split("'")[0] for p in problems})
    return f"{path}: keys not in the profile key table (another hroof version?): {', '.join(keys)}"


def main():
    ap = argparse.ArgumentParser(description="checks profiles against the key table")
    ap.add_argument("--schema")
    ap.add_argument("--keys-only", action="store_true", help="do not check the values' types")
    ap.add_argument("profiles", nargs="+")
    a = ap.parse_args()
    s = load(a.schema)
    bad = 0
    for p in a.profiles:
        n, problems = check(json.load(open(p)), s, types=not a.keys_only)
        for pr in problems:
            print(f"{p}:{pr}")
        print(f"{p}: {n} keys checked, {len(problems)} problem(s)")
        bad += len(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

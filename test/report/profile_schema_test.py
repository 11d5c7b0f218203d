#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctest profile-schema: share/hroof/profile-schema.json (generated from
common/include/hroof/ProfileKeys.h) against profiles the runtime's writer
wrote: a fresh one (hroof-gen-runtime-profile) and the committed fixture
runtime-writer.json. Every key of every object is in the table for that
object, with a value of the table's type; the fresh profile covers the
objects it can hold; a profile with a misspelled key is caught.

  profile_schema_test.py --schema S --gen hroof-gen-runtime-profile
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import profile_schema as ps  # noqa: E402

# The objects a single-device run with counters, ranges and a copy writes
# (no by_device, no --timing-range, no collective, no inexact model).
COVERED = {"profile", "settings", "launch_records", "device", "launch", "counters", "peak",
           "kernel", "duration", "sum", "static_sum", "range", "transfers", "transfer_sum",
           "transfer"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--gen", required=True)
    a = ap.parse_args()
    schema = ps.load(a.schema)
    K = ps.Keys(schema)
    fail = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, "fresh.json")
        subprocess.run([a.gen, fresh], check=True)
        p = json.load(open(fresh))
    for name, prof in (("fresh", p),
                       ("runtime-writer.json",
                        json.load(open(os.path.join(HERE, "Inputs", "runtime-writer.json"))))):
        n, problems = ps.check(prof, schema)
        print(f"{name}: {n} keys checked, {len(problems)} problem(s)")
        fail += [f"{name}: {x}" for x in problems]
    found = []
    ps._walk("profile", p, "", found)
    kinds = {kind for kind, _, _, _ in found}
    if not COVERED <= kinds:
        fail.append(f"fresh: objects not written: {sorted(COVERED - kinds)}")
    # The count objects use the counter layout's keys.
    counts = set()
    ps.flatten_into(p[K.kernels][0][K.dynamic][K.total], "", counts)
    if counts != set(schema["count_keys"]):
        fail.append(f"fresh: dynamic.total keys differ from count_keys: {sorted(counts ^ set(schema['count_keys']))[:5]}")
    # A misspelled key must be caught.
    bad = copy.deepcopy(p)
    bad[K.kernels][0]["launchez"] = bad[K.kernels][0].pop(K.launches)
    if not any("launchez" in x for x in ps.check(bad, schema)[1]):
        fail.append("a misspelled kernel key was not caught")
    for f in fail:
        print("FAIL:", f)
    print("PASS" if not fail else f"{len(fail)} failure(s)")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ctest ert.gpu_quick: runs `hroof-ert --quick` when a GPU is present; exits 77 (skipped) when not.
bin=$1; out=$2
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU: skipped"; exit 77
fi
"$bin" --quick --out "$out" || exit 1
python3 - "$out/machine.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))
assert m["all_checks_passed"], "self-checks failed"
for k in ["f64", "f32", "f16", "bf16"]:
    assert m["ceilings"]["flops"][k]["value"] > 0, k
for k in ["l1", "shared", "l2", "hbm"]:
    assert m["ceilings"]["bandwidth"][k]["value"] > 0, k
# the L2 ceiling is the larger of the slice sweep's best verified L1-bypassing
# point (recomputed here from l2_sweep.csv) and the grid-stride plateau
import csv, os
assert "l2_sweep.csv" in m["files"], "no l2_sweep.csv"
rows = list(csv.DictReader(open(os.path.join(os.path.dirname(sys.argv[1]), "l2_sweep.csv"))))
best = max([float(r["gbs"]) for r in rows if r["l1_bypass"] == "1" and r["verified"] == "1"],
           default=0)
assert best > 0, "no verified L1-bypassing point in l2_sweep.csv"
g = m["references"].get("l2_grid_stride", {}).get("value", 0)
l2 = m["ceilings"]["bandwidth"]["l2"]["value"]
assert abs(l2 - max(best, g)) <= 0.2, "l2 ceiling %s is not max(sweep best %s, grid-stride %s)" % (l2, best, g)
print("ok")
PY

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
# the L2 ceiling is the slice sweep's best point, at least the grid-stride plateau
assert "l2_sweep.csv" in m["files"], "no l2_sweep.csv"
g = m["references"].get("l2_grid_stride", {}).get("value", 0)
assert m["ceilings"]["bandwidth"]["l2"]["value"] >= g, "l2 ceiling below l2_grid_stride"
print("ok")
PY

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Pass replay against the plain run and kernel replay on the PyTorch example
# (machine with the GPU; builds nothing: inputs build/bin/hroof, build/lib and
# build/share). FP32 then AMP, each: plain, pass, plain, pass, shape (kernel
# replay, whose records replay_compare.py compares with pass replay's).
# Writes $OUT/pass-fp32.tar.gz and $OUT/pass-amp.tar.gz (exit-check.sh's
# directories) after each half, so a timeout keeps what ran.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for V in fp32 amp; do
  A=0; [ $V = amp ] && A=1
  OUT=$OUT/$V AMP=$A CONFIGS=${CONFIGS:-"plain pass plain pass shape"} \
    bash test/gpu/deep-learning/exit-check.sh
  python3 test/gpu/deep-learning/replay_compare.py "$OUT/$V/exit/shape.json" \
    "$OUT/$V/exit/pass-0.json" >"$OUT/$V/exit/compare.txt" 2>&1 || true
  tail -3 "$OUT/$V/exit/compare.txt"
  tar czf "$OUT/pass-$V.tar.gz" -C "$OUT" $V && rm -rf "${OUT:?}/$V"
done

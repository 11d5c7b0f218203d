#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Tests the case study's tooling HERE, without a GPU: builds (build.sh, unless
# SKIP_BUILD=1), runs every program's --list-launches, exercises run.sh's
# no-GPU path, then fabricates FAKE profiles (selftest_fake_profiles.py: made-up
# numbers, marked FAKE in the profiles) and runs report.sh + summarize.py on
# them, checking that every expected output exists. Nothing here is a result.
# Usage: bash case-studies/selftest.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
T=$(mktemp -d /tmp/hroof-case-selftest.XXXXXX)
[ "${SKIP_BUILD:-0}" = 1 ] || bash case-studies/build.sh >"$T/build.log" 2>&1 || { tail -20 "$T/build.log"; exit 1; }
for p in conv2d lstm lstm_fused; do
  n=$(.gpu-inputs/case/bin/$p.plain --list-launches | grep -c '^LAUNCH')
  echo "selftest: $p: $n launch shapes"
done
if ! nvidia-smi >/dev/null 2>&1; then   # run.sh's no-GPU path (SKIP + tarball)
  OUT=$T/norun bash case-studies/run.sh | tail -1
  OUT=$T/norun bash case-studies/run-addendum.sh | tail -1
  for f in case.tgz addendum.tgz addendum-summary.md; do
    [ -s "$T/norun/$f" ] || { echo "selftest: no-GPU path left no $f"; exit 1; }
  done
fi
python3 case-studies/selftest_fake_profiles.py "$T/fake"
bash case-studies/report.sh "$T/fake" >"$T/report.log" 2>&1
fail=0
for f in conv2d lstm opt-conv2d-direct-vs-tiled opt-lstm-unfused-vs-fused conv2d-f32-vs-tensor \
         kernels-dynamic torch-lstm-fp32 torch-conv-bf16 torch-lstm-bf16w; do
  for ext in txt csv html; do
    [ -s "$T/fake/report/$f.$ext" ] || { echo "selftest: missing report/$f.$ext"; fail=1; }
  done
done
for p in conv2d lstm lstm_fused; do
  [ -s "$T/fake/report/compare-$p.txt" ] || { echo "selftest: missing compare-$p.txt"; fail=1; }
done
grep -q '^| `conv2d_tiled_f32<2>`' "$T/fake/summary.md" || { echo "selftest: summary lacks the kernel table"; fail=1; }
grep -q '^| lstm-fp32 ' "$T/fake/summary.md" || { echo "selftest: summary lacks the PyTorch table"; fail=1; }
grep -q '^| lstm-bf16w ' "$T/fake/summary.md" || { echo "selftest: summary lacks the bf16w row"; fail=1; }
grep -q 'launches after 1 untimed warm-up launch' "$T/fake/summary.md" || { echo "selftest: summary does not say the warm-up"; fail=1; }
# run-addendum.sh's table (addendum_table.py) on the fake timing lines, as 2 repetitions
for r in 1 2; do for p in lstm lstm_fused; do cp "$T/fake/kernels/$p.time.stdout" "$T/fake/kernels/$p.time.r$r.stdout"; done; done
python3 case-studies/addendum_table.py "$T/fake" >"$T/addendum-table.txt" 2>&1 || { echo "selftest: addendum_table.py failed"; fail=1; }
grep -q '^B=64 H=512 .* r2 .*x$' "$T/addendum-table.txt" && grep -q "^-- lstm-bf16w: params \['torch.bfloat16'\]" "$T/addendum-table.txt" ||
  { echo "selftest: addendum table incomplete"; cat "$T/addendum-table.txt"; fail=1; }
[ -s "$T/fake/report/problems.txt" ] && { echo "selftest: report problems:"; cat "$T/fake/report/problems.txt"; fail=1; }
if [ $fail = 0 ]; then echo "selftest: 1 passed, 0 failed (outputs in $T)"; else echo "selftest: 0 passed, 1 failed (see $T)"; exit 1; fi

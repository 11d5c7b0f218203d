#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Reports of the case study from the profiles in DIR (run.sh's working
# directory, or an unpacked case.tgz): hroof report (table, CSV, HTML, SVG
# where node + vega are available), hroof compare, summarize.py.
# Writes DIR/report/*. Runs on the machine with the GPU (called by run.sh) and here.
# Usage: bash case-studies/report.sh DIR
# Env: HROOF (default .gpu-inputs/case/build/bin/hroof, else build/bin/hroof),
#      MACHINE (default docs/machines/h100-80gb-hbm3.json),
#      HROOF_REPORT_JS (vega node_modules; default build/report-js/node_modules)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
D=${1:?usage: report.sh DIR}
D=$(cd "$D" && pwd)
cd "$ROOT"
HROOF=${HROOF:-}
if [ -z "$HROOF" ]; then
  if [ -x .gpu-inputs/case/build/bin/hroof ]; then HROOF=$PWD/.gpu-inputs/case/build/bin/hroof; else HROOF=$PWD/build/bin/hroof; fi
fi
MACHINE=${MACHINE:-$ROOT/docs/machines/h100-80gb-hbm3.json}
export HROOF_REPORT_ASSETS=${HROOF_REPORT_ASSETS:-$ROOT/tools/report}
export HROOF_MACHINES_DIR=${HROOF_MACHINES_DIR:-$ROOT/docs/machines}
[ -n "${HROOF_REPORT_JS:-}" ] || { [ -d "$ROOT/build/report-js/node_modules" ] && export HROOF_REPORT_JS=$ROOT/build/report-js/node_modules; }
R=$D/report
mkdir -p "$R" "$D/filtered"
SVG_OK=0
command -v node >/dev/null 2>&1 && [ -n "${HROOF_REPORT_JS:-}" ] && SVG_OK=1

# rep NAME [report options] -- PROFILES...
rep() {
  local name=$1; shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  local files=()
  for f in "$@"; do [ -s "$f" ] && files+=("$f"); done
  if [ ${#files[@]} = 0 ]; then echo "report.sh: $name: no profiles" | tee -a "$R/problems.txt"; return; fi
  local out=(--machine "$MACHINE" --csv "$R/$name.csv" --html "$R/$name.html")
  [ $SVG_OK = 1 ] && out+=(--svg "$R/$name.svg")
  if ! "$HROOF" report "${opts[@]}" "${out[@]}" "${files[@]}" >"$R/$name.txt" 2>"$R/$name.err"; then
    # retry without the optional outputs so the table at least exists
    "$HROOF" report "${opts[@]}" --machine "$MACHINE" --csv "$R/$name.csv" "${files[@]}" \
      >"$R/$name.txt" 2>>"$R/$name.err" || echo "report.sh: $name: hroof report failed (see $name.err)" | tee -a "$R/problems.txt"
  fi
  [ -s "$R/$name.err" ] || rm -f "$R/$name.err"
}
filt() { # filt IN OUTNAME REGEX
  [ -s "$1" ] && python3 "$ROOT/case-studies/filter_profile.py" "$1" "$D/filtered/$2.json" "$3" >/dev/null
}

K=$D/kernels
# custom kernels: hardware view (plain binaries), one chart per program
rep conv2d -- "$K/conv2d.plain.json"
rep lstm -- "$K/lstm.plain.json" "$K/lstm_fused.plain.json"
# the optimizations, before/after on one chart
filt "$K/conv2d.plain.json" conv2d-opt 'conv2d_(direct|tiled)_f32'
rep opt-conv2d-direct-vs-tiled -- "$D/filtered/conv2d-opt.json"
filt "$K/lstm.plain.json" lstm-unfused 'lstm_gemm_wmma<__half|lstm_pointwise_f32'
rep opt-lstm-unfused-vs-fused -- "$D/filtered/lstm-unfused.json" "$K/lstm_fused.plain.json"
# Tensor Cores vs CUDA cores for the same convolution
filt "$K/conv2d.plain.json" conv2d-tc 'conv2d_(tiled_f32|igemm_wmma)'
rep conv2d-f32-vs-tensor -- "$D/filtered/conv2d-tc.json"
# dynamic view (instrumented binaries: exact counts, requested bytes)
rep kernels-dynamic -- "$K/conv2d.inst.json" "$K/lstm.inst.json" "$K/lstm_fused.inst.json"
# static vs dynamic vs counters, per kernel
for p in conv2d lstm lstm_fused; do
  [ -s "$K/$p.plain.json" ] || [ -s "$K/$p.inst.json" ] || continue
  files=(); for f in "$K/$p.plain.json" "$K/$p.inst.json"; do [ -s "$f" ] && files+=("$f"); done
  "$HROOF" compare "${files[@]}" >"$R/compare-$p.txt" 2>&1 || echo "report.sh: compare $p failed" | tee -a "$R/problems.txt"
  "$HROOF" compare --json "${files[@]}" >"$R/compare-$p.json" 2>/dev/null || true
done
# PyTorch: one chart per run (top kernels by time), all runs' CSV
for f in "$D"/torch/*.json; do
  [ -s "$f" ] || continue
  n=$(basename "$f" .json)
  rep "torch-$n" --top 20 -- "$f"
done
python3 "$ROOT/case-studies/summarize.py" "$D" "$MACHINE" >/dev/null || echo "report.sh: summarize.py failed" | tee -a "$R/problems.txt"
ls "$R" | sed 's/^/  report\//' | head -80

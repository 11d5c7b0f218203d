#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# programs.sh - multi-GPU CUDA programs nobody here wrote, under hroof run on the
# machine with the GPU (docs/multi-gpu.md), beside the DDP check (run.sh):
#   simpleMultiGPU  one process driving every GPU (a kernel aggregate per device)
#   simpleP2P       peer-to-peer copies between two GPUs (P2P transfers)
#   simpleIPC       one process per GPU, forked, sharing memory by CUDA IPC
# Each NAME.inst (built with the plugin) runs under hroof run with counters, each
# NAME.plain without hroof; then hroof report --by rank and --json on the profiles.
# Builds nothing: the binaries come built here (clang 22, cuda-samples' Common/,
# simpleIPC with helper_multiprocess.cpp) in .gpu-inputs/mgpu, with build/bin/hroof and
# build/lib/libhroof_rt.so. Outputs under $OUT (default ./mgp-out): summary.txt,
# NAME/{plain,profiled,report}.{stdout,stderr}, NAME/profiles/, NAME/report.json;
# $OUT/multi-gpu-programs.tgz rewritten after each step. BUDGET_S (default 240).
# Exit: 0, 1 when a step fails, 77 without a GPU or the copied binaries.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT=${OUT:-$ROOT/mgp-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUDGET_S=${BUDGET_S:-240}
HROOF=${HROOF:-$ROOT/build/bin/hroof}
BIN=${BIN:-$ROOT/.gpu-inputs/mgpu}
T0=$(date +%s)
CHECK=multi-gpu-programs
. "$ROOT/test/gpu/torch-check-lib.sh"
nvidia-smi >/dev/null 2>&1 || { log "SKIP: no GPU"; exit 77; }
[ -x "$HROOF" ] && [ -d "$BIN" ] || { log "SKIP: build/bin/hroof or $BIN not copied here"; exit 77; }
log "GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)"
failed=0
step() { # step DIR NAME CMD...: runs CMD with the time left; logs rc and wall time
  local dir=$1 name=$2; shift 2
  local t=$(left)
  [ "$t" -gt 20 ] || { log "$dir/$name: skipped (budget)"; return; }
  local s=$(date +%s.%N)
  timeout "$t" "$@" >"$dir/$name.stdout" 2>"$dir/$name.stderr"
  local rc=$?
  local f; for f in "$dir/$name.stdout" "$dir/$name.stderr"; do # a runaway printer
    [ "$(stat -c %s "$f")" -le 1000000 ] || { log "$f: $(stat -c %s "$f") bytes, cut to 1 MB"; truncate -s 1000000 "$f"; }
  done
  log "${dir##*/}/$name: rc $rc, wall $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s"
  [ $rc -eq 0 ] || failed=1
  pack
}
for prog in simpleMultiGPU simpleP2P simpleIPC; do
  [ -x "$BIN/$prog.inst" ] || { log "$prog: not copied here"; failed=1; continue; }
  D=$OUT/$prog; mkdir -p "$D/profiles"
  step "$D" plain "$BIN/$prog.plain"
  step "$D" profiled "$HROOF" run --output "$D/profiles" -- "$BIN/$prog.inst"
  mapfile -t P < <(ls "$D"/profiles/hroof-*.json 2>/dev/null)
  log "$prog: ${#P[@]} profiles"
  [ ${#P[@]} -gt 0 ] || { failed=1; continue; }
  step "$D" report "$HROOF" report "${P[@]}" --any-machine --by rank:2 \
    --rank-json "$D/by-rank.json" --json "$D/report.json"
done
pack
exit $failed

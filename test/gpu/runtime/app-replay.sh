#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test/gpu/runtime/app-replay.sh [BUILD_DIR] - kernel replay and application
# replay (HROOF_REPLAY=application, docs/runtime.md "Application replay") give
# the same counters for a deterministic program: hroof-rt-fake repeat (two
# kernels, one shape each, 32 launches each: a group change may make a launch
# wait, docs/runtime.md) under both modes with --counters-per-shape 1 and
# --cache-control all (DRAM bytes of a cold L2 in both), then
# app_replay_compare.py: FLOPs and requested bytes equal, L1/L2 within 5 %,
# DRAM within 25 %, the application record assembled from several one-pass
# groups, every record's metrics evaluated, no one-pass group at more than
# one pass, none incomplete; its VERDICT lines say which of these hold.
# REPLAY=passes compares pass replay (HROOF_REPLAY=passes) instead: the same
# values, every record's range in every pass (its finish note).
# Also times both runs (wall seconds). Builds nothing (inputs
# build/bin/hroof, build/bin/hroof-rt-fake, build/lib/libhroof_rt.so).
# Logs and profiles in $OUT (default: a temporary directory). Exit 77 without
# a GPU or the binaries.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
B=${1:-$HERE/../../../build}
HROOF=$B/bin/hroof
LIB=$B/lib/libhroof_rt.so
FAKE=${HROOF_RT_FAKE:-$B/bin/hroof-rt-fake}
nvidia-smi -L >/dev/null 2>&1 || { echo "app-replay: no NVIDIA GPU here: skipped"; exit 77; }
for f in "$HROOF" "$LIB" "$FAKE"; do
  [ -f "$f" ] || { echo "app-replay: $f missing: skipped"; exit 77; }
done
W=${OUT:-$(mktemp -d)}
OTHER=${REPLAY:-application}
mkdir -p "$W/kernel" "$W/$OTHER"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rc=0
for mode in kernel $OTHER; do
  # Each mode learns the tensor types on its own (first launch: every type).
  a=$(date +%s.%N)
  timeout 120 "$HROOF" run --runtime-lib "$LIB" --output "$W/$mode" --type-cache none --verbose 1 \
    --counters-per-shape 1 --cache-control all --replay $mode --no-summary -- "$FAKE" repeat 32 \
    >"$W/$mode.out" 2>"$W/$mode.err"
  r=$?
  b=$(date +%s.%N)
  echo "$mode replay: exit $r, wall $(python3 -c "print(round($b - $a, 2))") s"
  grep -h "hardware counters\|application replay\|pass replay" "$W/$mode.err" | sed 's/^/  /'
  [ $r = 0 ] || rc=1
done
python3 "$HERE/app_replay_compare.py" "$W/kernel" "$W/$OTHER" || rc=1
echo "app-replay: $([ $rc = 0 ] && echo PASS || echo FAIL) (logs in $W)"
exit $rc

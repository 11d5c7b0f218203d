#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# One pass-replay run of the PyTorch example (FP32, 20 steps) with the
# runtime's launch and pass log (--verbose 2), Python's fault handler and,
# where the machine has gdb, a native backtrace of a crash. On the machine with the GPU;
# builds nothing. Writes $OUT/pass-debug.txt.gz.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
O=$OUT/pass-debug.txt
cmd=(build/bin/hroof run --verbose 2 --type-cache none --range 'step 10(/|$)' --counters-per-shape 1
     --replay passes --output "$OUT/dbg.json" -- python3 examples/pytorch_nvtx.py --steps "${STEPS:-20}")
# SEGV=path.so: a preloaded handler that prints the native backtrace.
if [ -n "${SEGV:-}" ]; then
  LD_PRELOAD=$SEGV timeout 120 "${cmd[@]}" >"$O" 2>&1; echo "exit $?" >>"$O"
else
  PYTHONFAULTHANDLER=1 timeout 120 "${cmd[@]}" >"$O" 2>&1; echo "exit $?" >>"$O"
fi
if command -v gdb >/dev/null; then
  PYTHONFAULTHANDLER=1 timeout 200 gdb -batch -ex 'set follow-fork-mode child' \
    -ex 'set detach-on-fork on' -ex run -ex 'thread apply all bt 12' --args "${cmd[@]}" \
    >"$OUT/gdb.txt" 2>&1
  tail -c 30000 "$OUT/gdb.txt" >>"$O"
else
  echo "no gdb" >>"$O"
fi
grep -n -A40 "SEGV backtrace" "$O" | head -60
grep -n "pass replay: round\|Fatal\|Segmentation\|File \"" "$O" | tail -40
gzip -f "$O"; rm -f "$OUT/gdb.txt"

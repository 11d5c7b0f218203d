# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# torch-check-lib.sh - what the PyTorch checks (deep-learning, multi-gpu) share;
# sourced after they set ROOT, OUT, BUDGET_S, T0, HROOF and CHECK (the check's
# name: its tarball is $OUT/$CHECK.tgz).
#   log LINE...     to stdout and $OUT/summary.txt
#   left            seconds of the budget left
#   pack            $OUT/$CHECK.tgz rewritten with everything so far
#   require_torch   exits 77 (skip) without a GPU, the copied binaries, or torch with CUDA
S=$OUT/summary.txt
: >"$S"
log() { echo "$*" | tee -a "$S"; }
left() { echo $((BUDGET_S - ($(date +%s) - T0))); }
PART=${TMPDIR:-/tmp}/$CHECK-$$.tgz # outside $OUT: tar must not see it grow
pack() { tar czf "$PART" -C "$OUT" --exclude="$CHECK.tgz" . && mv -f "$PART" "$OUT/$CHECK.tgz"; }
# The checks start hroof run themselves: no injection inherited from outside.
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH
export HROOF_MACHINES_DIR=$ROOT/docs/machines
require_torch() {
  nvidia-smi >/dev/null 2>&1 || { log "SKIP: no GPU"; exit 77; }
  [ -x "$HROOF" ] && [ -f "$ROOT/build/lib/libhroof_rt.so" ] ||
    { log "SKIP: build/bin/hroof or build/lib/libhroof_rt.so not copied here"; exit 77; }
  timeout 60 python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null ||
    { log "SKIP: python3 has no torch with CUDA"; exit 77; }
}

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The PTX the runtime embeds for HROOF_CACHE_CONTROL=all assembles for sm_90.
# usage: l2flush_ptxas.sh PRINT_PROGRAM PTXAS
# Exit 77 (skipped) when ptxas is missing: this machine has no CUDA toolkit.
set -eu
PRINT=$1
PTXAS=$2
if [ ! -x "$PTXAS" ]; then
  echo "skipped: ptxas not found at $PTXAS (the CUDA toolkit is needed to assemble the L2 flush PTX)"
  exit 77
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$PRINT" > "$DIR/l2flush.ptx"
"$PTXAS" -arch=sm_90 -v "$DIR/l2flush.ptx" -o "$DIR/l2flush.cubin" 2>&1
# The kernel the runtime looks up by name is in the assembled object.
grep -q hroof_l2_flush "$DIR/l2flush.cubin"
echo "ok: hroof_l2_flush assembles for sm_90"

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A PTX kernel the runtime embeds (the L2 flush of HROOF_CACHE_CONTROL=all,
# the counter sum of every counted launch) assembles for sm_80 and sm_90.
# usage: runtime_ptxas.sh PRINT_PROGRAM PTXAS WHICH KERNEL
# Exit 77 (skipped) when ptxas is missing: this machine has no CUDA toolkit.
set -eu
PRINT=$1
PTXAS=$2
WHICH=$3
KERNEL=$4
if [ ! -x "$PTXAS" ]; then
  echo "skipped: ptxas not found at $PTXAS (the CUDA toolkit is needed to assemble the $WHICH PTX)"
  exit 77
fi
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$PRINT" "$WHICH" > "$DIR/$WHICH.ptx"
for ARCH in sm_80 sm_90; do
  "$PTXAS" -arch=$ARCH -v "$DIR/$WHICH.ptx" -o "$DIR/$WHICH-$ARCH.cubin" 2>&1
  # The kernel the runtime looks up by name is in the assembled object.
  grep -q "$KERNEL" "$DIR/$WHICH-$ARCH.cubin"
  echo "ok: $KERNEL assembles for $ARCH"
done

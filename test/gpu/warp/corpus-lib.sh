# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sourced by corpus-run.sh and overhead-run.sh (machine with the GPU, repository root):
# skips without a GPU (exit 77: run-check.sh's SKIP, never a pass), checks the
# copied inputs, sets ROOT, C (.gpu-inputs/warpcorpus), HROOF, LD_LIBRARY_PATH,
# BASE ($OUT) and O ($BASE/$1, created). Usage: . corpus-lib.sh NAME
# CORPUS_DIR (default .gpu-inputs/warpcorpus; relative: to ROOT): the corpus C points to.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU (nvidia-smi failed)"; exit 77; fi
C=${CORPUS_DIR:-$ROOT/.gpu-inputs/warpcorpus}; [[ $C = /* ]] || C=$ROOT/$C
HROOF=$ROOT/.gpu-inputs/gpu/bin/hroof
for f in "$HROOF" "$C/programs.txt"; do
  [ -e "$f" ] || { echo "$(basename "$0"): $f missing (see its header)" >&2; exit 1; }
done
export LD_LIBRARY_PATH="$ROOT/.gpu-inputs/gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The warp-level static model of the launches these checks compare, as
# measured before the runtime's default became 1M lane evaluations.
export HROOF_WARP_EVAL_LIMIT=${HROOF_WARP_EVAL_LIMIT:-16777216}
BASE=${OUT:-$ROOT/gpu-out}
O=$BASE/$1
mkdir -p "$O"

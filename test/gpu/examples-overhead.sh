#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Instrumentation overhead on the bundled examples (machine with the GPU; builds
# nothing): each example's plain and instrumented binary (build/examples/,
# built by CMake) times its kernels with CUDA events (HROOF_EXAMPLE_TIME=N
# launches, median), without the runtime attached. Prints a table and the
# geomean of instrumented/plain.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${NTIME:-100}
E=build/examples
declare -A PLAIN INST
for b in $E/*.plain; do
  name=$(basename "$b" .plain)
  while read -r k ms; do PLAIN[$k]=$ms; done < <(HROOF_EXAMPLE_TIME=$N "$b" | sed -n 's/^HROOF_TIME {"kernel": "\([^"]*\)", "median_ms": \([0-9.]*\).*/\1 \2/p')
  while read -r k ms; do INST[$k]=$ms; done < <(HROOF_EXAMPLE_TIME=$N "$E/$name" | sed -n 's/^HROOF_TIME {"kernel": "\([^"]*\)", "median_ms": \([0-9.]*\).*/\1 \2/p')
done
printf '| kernel | plain ms | instrumented ms | ratio |\n|---|---:|---:|---:|\n'
logsum=0; n=0
for k in $(printf '%s\n' "${!PLAIN[@]}" | sort); do
  p=${PLAIN[$k]}; i=${INST[$k]:-}
  [[ -z $i ]] && { echo "| $k | $p | missing | |"; continue; }
  r=$(python3 -c "print(f'{$i/$p:.3f}')")
  printf '| %s | %.4f | %.4f | %s |\n' "$k" "$p" "$i" "$r"
  logsum=$(python3 -c "import math; print($logsum + math.log($i/$p))"); n=$((n+1))
done
python3 -c "import math; print(f'| **geomean** | | | **{math.exp($logsum/$n):.3f}** |')"
echo "runs per kernel: $N (median), $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"

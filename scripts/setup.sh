#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs every dependency of hroof with apt and builds into build/.
# Idempotent: a second run skips installed packages and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(clang-22 llvm-22-dev llvm-22-tools libclang-22-dev lld-22
      cmake ninja-build libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev
      python3 chromium)
# node + npm for the report's charting libraries (any node >= 18 will do)
command -v npm >/dev/null 2>&1 || PKGS+=(nodejs npm)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
else
  echo "setup: all apt dependencies present"
fi

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [[ ! -x $CUDA_HOME/bin/nvcc && ! -f $CUDA_HOME/include/cuda.h ]]; then
  echo "setup: the CUDA toolkit (12.x or 13.x) is required at \$CUDA_HOME=$CUDA_HOME" >&2
  exit 1
fi

if [[ ! -f build/build.ninja ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
        -DCUDAToolkit_ROOT="$CUDA_HOME"
fi
# hroof report: Vega, Vega-Lite and vega-embed (BSD-3-Clause), pinned by
# tools/report/package-lock.json, inlined into the HTML and run by node for the SVG.
mkdir -p build/report-js
if ! cmp -s tools/report/package-lock.json build/report-js/package-lock.json ||
   [[ ! -f build/report-js/node_modules/vega/build/vega.min.js ]]; then
  cp tools/report/package.json tools/report/package-lock.json build/report-js/
  (cd build/report-js && npm ci --no-audit --no-fund --loglevel=error)
fi
cmake --build build -j"$(nproc)"
echo "setup: built build/lib/hroof.so and build/bin/hroof"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs every test this machine can run: ctest runs the unit tests and the lit suites.
# GPU tests report UNSUPPORTED (lit) or are skipped (ctest) without a GPU; skips never count as passes.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/build.ninja ]] || { echo "test: build/ is missing; run scripts/setup.sh first" >&2; exit 1; }
cmake --build build -j"$(nproc)"
cd build && ctest --output-on-failure -j"$(nproc)" "$@"

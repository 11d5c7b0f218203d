# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# build-gpu-inputs.sh - sourced by test/gpu/build.sh and case-studies/build.sh (machine with
# clang): builds GPU test inputs, the programs and files built here for the machine with the
# GPU (hroof-gpu-inputs-* targets, cmake/GpuTestInputs.cmake), of the CMake build directory
# $BUILD, whose source tree must be $ROOT, into $ROOT/.gpu-inputs.
#   gpu_inputs_build LOG TARGET...  builds the targets (output in LOG, its tail on failure);
#                                   ARCH (environment), if set, becomes HROOF_GPU_INPUTS_ARCH first
#   gpu_inputs_setting NAME         a cache entry of $BUILD (HROOF_CLANG, HROOF_GPU_INPUTS_ARCH...)
gpu_inputs_setting() { sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt"; }

gpu_inputs_build() {
  local log=$1; shift
  [ -f "$BUILD/CMakeCache.txt" ] || { echo "gpu inputs: $BUILD is not a CMake build directory" >&2; return 1; }
  local src
  src=$(gpu_inputs_setting CMAKE_HOME_DIRECTORY)
  if [ "$(cd "$src" && pwd -P)" != "$(cd "$ROOT" && pwd -P)" ]; then
    echo "gpu inputs: $BUILD was configured from $src, not $ROOT" >&2; return 1
  fi
  if [ -n "${ARCH:-}" ] && [ "$ARCH" != "$(gpu_inputs_setting HROOF_GPU_INPUTS_ARCH)" ]; then
    cmake -DHROOF_GPU_INPUTS_ARCH="$ARCH" "$BUILD" >"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
  fi
  if ! cmake --build "$BUILD" --target "$@" >>"$log" 2>&1; then
    echo "gpu inputs: building $* FAILED:" >&2; grep -E "error|FAILED" "$log" | head -20 >&2; tail -20 "$log" >&2
    return 1
  fi
}

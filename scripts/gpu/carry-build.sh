# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# carry-build.sh - sourced by test/gpu/build.sh and case-studies/build.sh (machine with clang):
# builds hroof-carry-* targets (cmake/CarryPrograms.cmake) of the CMake build directory
# $BUILD, whose source tree must be $ROOT, into $ROOT/.carry.
#   carry_build LOG TARGET...   builds the targets (output in LOG, its tail on failure);
#                               ARCH (environment), if set, becomes HROOF_CARRY_ARCH first
#   carry_setting NAME          a cache entry of $BUILD (HROOF_CLANG, HROOF_CARRY_ARCH...)
carry_setting() { sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt"; }

carry_build() {
  local log=$1; shift
  [ -f "$BUILD/CMakeCache.txt" ] || { echo "carry: $BUILD is not a CMake build directory" >&2; return 1; }
  local src
  src=$(carry_setting CMAKE_HOME_DIRECTORY)
  if [ "$(cd "$src" && pwd -P)" != "$(cd "$ROOT" && pwd -P)" ]; then
    echo "carry: $BUILD was configured from $src, not $ROOT" >&2; return 1
  fi
  if [ -n "${ARCH:-}" ] && [ "$ARCH" != "$(carry_setting HROOF_CARRY_ARCH)" ]; then
    cmake -DHROOF_CARRY_ARCH="$ARCH" "$BUILD" >"$log" 2>&1 || { tail -20 "$log" >&2; return 1; }
  fi
  if ! cmake --build "$BUILD" --target "$@" >>"$log" 2>&1; then
    echo "carry: building $* FAILED:" >&2; grep -E "error|FAILED" "$log" | head -20 >&2; tail -20 "$log" >&2
    return 1
  fi
}

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds public CUDA programs HERE (clang 22, no GPU) for the warp-level
# validation and the overhead measurement on the GPU (corpus-run.sh,
# overhead-run.sh): for each NAME in LIST (default
# test/gpu/warp/hecbench-programs.txt), the program's sources become
#   .gpu-inputs/warpcorpus/bin/NAME.inst    with the plugin (instrumented; its
#                                      runtime evaluates the static model per launch)
#   .gpu-inputs/warpcorpus/bin/NAME.plain   without (what Nsight Compute profiles)
#   .gpu-inputs/warpcorpus/bin/NAME.warp    instrumented with the opt-in
#                                      warp-level counts (-mllvm -hroof-warp-counts),
#                                      only when VARIANTS names it
# A program's sources: SRC/NAME-cuda/*.cu (a HeCBench `src/` directory), or,
# where NAME is a path such as 0_Introduction/vectorAdd (an NVIDIA
# cuda-samples `Samples/` directory), SRC/NAME/*.cu and *.cpp compiled as
# CUDA with cuda-samples' Common/ headers (SRC/../Common); the binary is then
# named after the last path component.
# Fetches nothing: SRC is a checkout you made.
# VARIANTS (default "plain inst warp"; also inst-all: every kernel instrumented,
# also those the exact static model counts; inst-base: BASE_PLUGIN's build, for
# a before/after in one GPU run): which binaries to build; one already built
# is kept when KEEP=1 (after a plugin change: KEEP=1 VARIANTS=inst rebuilds
# nothing else). JOBS (default 2): programs built at once.
# CORPUS_DIR (default .gpu-inputs/warpcorpus): where bin/, logs/ and programs.txt go.
# Usage: bash test/gpu/warp/corpus-build.sh SRC [LIST]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SRC=${1:?usage: corpus-build.sh SRC [LIST]}
SRC=$(cd "$SRC" && pwd)
LIST=${2:-$ROOT/test/gpu/warp/hecbench-programs.txt}
CUDA=${CUDA_PATH:-/usr/local/cuda}
CLANG=${HROOF_CLANG:-clang++-22}
PLUGIN=${HROOF_PLUGIN:-$ROOT/build/lib/hroof.so}
VARIANTS=${VARIANTS:-plain inst warp}
JOBS=${JOBS:-2}
OUTD=${CORPUS_DIR:-$ROOT/.gpu-inputs/warpcorpus}
mkdir -p "$OUTD/bin" "$OUTD/logs"
# programs.txt: the binary names with their arguments, appended to (a second
# LIST adds its programs to the first's).
touch "$OUTD/programs.txt"
FLAGS=(-O2 --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version --cuda-path="$CUDA"
       -I"$CUDA/include/cccl" -w)
LINK=(-L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread)

# build_one NAME: every variant of one program; prints "built" or "FAILED".
build_one() {
  local name=$1 dir bin srcs=() inc=() log v extra
  if [ -d "$SRC/$name-cuda" ]; then
    dir=$SRC/$name-cuda; bin=$name; srcs=("$dir"/*.cu)
  elif [ -d "$SRC/$name" ]; then
    dir=$SRC/$name; bin=$(basename "$name")
    srcs=("$dir"/*.cu); for f in "$dir"/*.cpp; do [ -e "$f" ] && srcs+=("$f"); done
    inc=(-I"$SRC/../Common")
  else
    echo "FAILED $name (no $SRC/$name-cuda or $SRC/$name)"; return
  fi
  log=$OUTD/logs/$bin.log; : >"$log"
  for v in $VARIANTS; do
    [[ ${KEEP:-0} = 1 && -x $OUTD/bin/$bin.$v ]] && continue
    case $v in
      plain) extra=() ;;
      inst) extra=(-fpass-plugin="$PLUGIN") ;;
      # every kernel instrumented, also those the exact model counts (the plugin's default leaves them)
      inst-all) extra=(-fpass-plugin="$PLUGIN" -mllvm -hroof-instrument-exact) ;;
      warp) extra=(-fpass-plugin="$PLUGIN" -mllvm -hroof-warp-counts) ;;
      # before/after in one GPU run: BASE_PLUGIN is the plugin of an earlier commit
      inst-base) extra=(-fpass-plugin="${BASE_PLUGIN:?inst-base needs BASE_PLUGIN}") ;;
      *) echo "FAILED $name (unknown variant $v)"; return ;;
    esac
    if ! timeout 900 "$CLANG" -x cuda "${FLAGS[@]}" -I"$dir" "${inc[@]}" "${extra[@]}" \
         "${srcs[@]}" -o "$OUTD/bin/$bin.$v" "${LINK[@]}" >>"$log" 2>&1; then
      echo "FAILED $name ($v; see $log)"; rm -f "$OUTD/bin/$bin.$v"; return
    fi
  done
  echo "built $name"
}

names=()
while read -r name args; do
  [[ -z $name || $name == \#* ]] && continue
  names+=("$name")
  bin=$(basename "$name")
  grep -q "^$bin\( \|$\)" "$OUTD/programs.txt" || echo "$bin${args:+ $args}" >>"$OUTD/programs.txt"
done <"$LIST"
export -f build_one
export SRC OUTD CLANG PLUGIN VARIANTS KEEP CUDA BASE_PLUGIN
export FLAGS_S="${FLAGS[*]}" LINK_S="${LINK[*]}"
results=$(for n in "${names[@]}"; do echo "$n"; done |
  xargs -P "$JOBS" -I{} bash -c 'FLAGS=($FLAGS_S); LINK=($LINK_S); build_one "$1"' _ {})
echo "$results"
echo "corpus-build: $(grep -c '^built' <<<"$results") built, $(grep -c '^FAILED' <<<"$results") failed;" \
  "commit of $SRC: $(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo unknown)"

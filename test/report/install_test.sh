#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The install tree (cmake/HroofInstall.cmake), as a user gets it:
#   install_test.sh BUILD_DIR SOURCE_DIR CLANG CUDA_PATH
# 1. cmake --install BUILD_DIR into a temporary prefix: the tools, the plugin,
#    the runtime, the report's assets and the machine files are there, and no
#    installed binary has the source tree's path compiled in;
# 2. the example project (test/report/install-example) configures against the
#    prefix with find_package(hroof) and builds: its .cu compiled by clang with
#    the installed plugin (instrumenting pass, and static model only), device code
#    at -O2 without a build type and at the build type's -O3 with Release; not run;
# 3. the README's one-line clang command compiles as printed;
# 4. the prefix moved elsewhere: hroof report (table, HTML, JSON) and hroof
#    static still work from the moved tree, with its own data files.
# Exit 0 pass, 1 fail.
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) clang=$3 cuda=$4
tmp=$(mktemp -d /tmp/hroof-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL $*"; exit 1; }
pass() { echo "PASS $*"; }

cmake --install "$build" --prefix "$tmp/p" > "$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
for f in bin/hroof bin/hroof-ert lib/hroof.so lib/libhroof_rt.so share/hroof/report/chart.html \
         share/hroof/report/render-svg.mjs share/hroof/report-js/node_modules/vega/build/vega.min.js \
         share/hroof/machines/h100-80gb-hbm3.json share/hroof/examples/demo.json \
         lib/cmake/hroof/hroofConfig.cmake lib/cmake/hroof/hroofConfigVersion.cmake; do
  [ -e "$tmp/p/$f" ] || fail "not installed: $f"
done
pass "installed: tools, plugin, runtime, report assets, machine files, CMake package"
# grep -c > /dev/null, never grep -q, after strings: under pipefail a grep -q that
# stops at its first match kills strings with SIGPIPE, and the pipeline fails (141).
for f in bin/hroof bin/hroof-ert lib/hroof.so lib/libhroof_rt.so; do
  strings "$tmp/p/$f" | grep -cF "$src/" > /dev/null && fail "$f has the source tree's path ($src) compiled in"
done
pass "no source-tree path in the installed binaries"

# 2. A project built against the installed package.
cmake -S "$src/test/report/install-example" -B "$tmp/example" -G Ninja \
  -DCMAKE_PREFIX_PATH="$tmp/p" -DCMAKE_CXX_COMPILER="$clang" -DCUDAToolkit_ROOT="$cuda" \
  > "$tmp/example.log" 2>&1 || { tail -30 "$tmp/example.log"; fail "example project: configure"; }
cmake --build "$tmp/example" > "$tmp/example-build.log" 2>&1 ||
  { tail -30 "$tmp/example-build.log"; fail "example project: build"; }
grep -q -- "-fpass-plugin=$tmp/p/lib/hroof.so" "$tmp/example/build.ninja" ||
  fail "example project: the .cu is not compiled with the installed plugin"
# saxpy's model is exact: the instrumenting pass leaves it uninstrumented and
# marks it counted_by_model (the runtime takes its counts from the model), so
# that mark shows the pass ran; STATIC_MODEL_ONLY embeds the model without it.
strings "$tmp/example/saxpy" | grep -c '"counted_by_model"' > /dev/null ||
  fail "example project: saxpy did not go through the instrumenting pass (no counted_by_model)"
strings "$tmp/example/saxpy_static" | grep -c '__hroof_counters_\|"counted_by_model"' > /dev/null &&
  fail "example project: saxpy_static went through the instrumenting pass (STATIC_MODEL_ONLY)"
strings "$tmp/example/saxpy_static" | grep -c "hroof_static_model" > /dev/null ||
  fail "example project: saxpy_static has no embedded static model"
pass "example project: find_package(hroof), hroof_target_cuda_plugin, built"
# No CMAKE_BUILD_TYPE: clang's default would be -O0, so the device compile
# gets -O2; a build type whose flags have an -O (Release: -O3) keeps its own.
grep -q -- "-Xarch_device -O2" "$tmp/example/build.ninja" ||
  fail "example project: no build type, and the device compile has no -O2"
cmake -S "$src/test/report/install-example" -B "$tmp/example-release" -G Ninja \
  -DCMAKE_PREFIX_PATH="$tmp/p" -DCMAKE_CXX_COMPILER="$clang" -DCUDAToolkit_ROOT="$cuda" \
  -DCMAKE_BUILD_TYPE=Release > "$tmp/example-release.log" 2>&1 ||
  { tail -30 "$tmp/example-release.log"; fail "example project (Release): configure"; }
grep -q -- "-Xarch_device -O2" "$tmp/example-release/build.ninja" &&
  fail "example project: Release's -O3 is overridden by -Xarch_device -O2"
grep -q -- "-O3" "$tmp/example-release/build.ninja" ||
  fail "example project: Release compiles without its -O3"
pass "example project: device code at -O2 without a build type, Release's -O3 kept"

# 3. The README's compile line, as printed, where build/ is this build.
line=$(grep -m1 -- "-fpass-plugin=build/lib/hroof.so app.cu" "$src/README.md" | sed 's/ *#.*//')
[ -n "$line" ] || fail "README: no compile line with -fpass-plugin=build/lib/hroof.so app.cu"
mkdir "$tmp/readme" && ln -s "$build" "$tmp/readme/build" &&
  cp "$src/test/report/install-example/saxpy.cu" "$tmp/readme/app.cu"
(cd "$tmp/readme" && eval "$line") > "$tmp/readme.log" 2>&1 ||
  { cat "$tmp/readme.log"; fail "README compile line: $line"; }
[ -x "$tmp/readme/app" ] || fail "README compile line wrote no ./app"
pass "README compile line works as printed: $line"

# 4. The tree moved.
mv "$tmp/p" "$tmp/moved"
hroof=$tmp/moved/bin/hroof
"$hroof" report "$src/test/report/Inputs/demo-rank0.json" --html "$tmp/r.html" --json "$tmp/r.json" \
  > "$tmp/report.log" 2>&1 || { cat "$tmp/report.log"; fail "moved tree: hroof report"; }
grep -q "ceilings: NVIDIA H100 80GB HBM3 ($tmp/moved/share/hroof/machines/" "$tmp/report.log" ||
  { head -3 "$tmp/report.log"; fail "moved tree: the machine file is not the moved tree's"; }
grep -q "vega-embed" "$tmp/r.html" && [ "$(stat -c %s "$tmp/r.html")" -gt 500000 ] ||
  fail "moved tree: the HTML has no inlined chart libraries"
grep -q '"hroof_report": 1' "$tmp/r.json" || fail "moved tree: no JSON report"
# The SVG needs node to find vega's own imports in the moved libraries.
if command -v node >/dev/null 2>&1; then
  "$hroof" report "$src/test/report/Inputs/demo-rank0.json" --svg "$tmp/r.svg" \
    > "$tmp/svg.log" 2>&1 || { cat "$tmp/svg.log"; fail "moved tree: hroof report --svg"; }
  grep -q "<svg" "$tmp/r.svg" || fail "moved tree: the SVG has no <svg>"
fi
"$hroof" static "$src/test/report/install-example/saxpy.cu" --grid 4096 --block 256 \
  --arg n=1048576 > "$tmp/static.log" 2>&1 || { cat "$tmp/static.log"; fail "moved tree: hroof static"; }
grep -q "saxpy" "$tmp/static.log" || fail "moved tree: hroof static printed no kernel"
pass "moved tree: hroof report and hroof static find their data and plugin"
echo "0 failure(s)"

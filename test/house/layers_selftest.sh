#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# scripts/check_layers.py must reject what it exists to reject: on a copy of
# runtime/src, an upward include (metrics/ including replay/) and an include
# cycle (two headers of one folder including each other) each fail the check.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
check() { python3 "$ROOT/scripts/check_layers.py" --root "$1"; }

cp -r "$ROOT/runtime/src" "$T/clean"
check "$T/clean" >/dev/null || { echo "FAIL: the real tree does not pass"; exit 1; }

cp -r "$ROOT/runtime/src" "$T/up"
echo '#include "replay/HardwareCounters.h"' >>"$T/up/metrics/HwMetrics.h"
if out=$(check "$T/up"); then echo "FAIL: upward include accepted"; exit 1; fi
grep -q "metrics/HwMetrics.h includes replay/HardwareCounters.h" <<<"$out" ||
  { echo "FAIL: upward include not named: $out"; exit 1; }

cp -r "$ROOT/runtime/src" "$T/cycle"
echo '#include "nvtx/NvtxCallbacks.h"' >>"$T/cycle/nvtx/NvtxRanges.h"
if out=$(check "$T/cycle"); then echo "FAIL: include cycle accepted"; exit 1; fi
grep -q "include cycle:" <<<"$out" || { echo "FAIL: cycle not named: $out"; exit 1; }
echo "PASS: upward include and include cycle rejected"

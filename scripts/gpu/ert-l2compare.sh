#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ert-l2compare.sh OUT_DIR - on the machine with the GPU: hroof-ert's L2 slice sweep and a third-party
# L2 benchmark (gpu-benches' gpu-l2-cache, built into .gpu-inputs/l2bench, see its README.txt)
# one after the other in the same command, then both best numbers.
#   1. hroof-ert --only global,l2   (timeout 60 s): l2_sweep.csv, global_sweep.csv, machine.json
#   2. cuda-l2-cache                (timeout 50 s): its working-set sweep, line by line
#   3. hroof-ert --only l2 again    (timeout 40 s): the sweep's run-to-run spread
# Inputs: ERT_L2_BIN (default .gpu-inputs/ertl2/hroof-ert, else $ERT_BIN/hroof-ert, else
# build/bin/hroof-ert), L2BENCH (default .gpu-inputs/l2bench/cuda-l2-cache). Clocks are left as
# they are; nvidia-smi records them before and after. Exit: 0 when hroof-ert's best L1-bypassing
# L2 point >= gpu-l2-cache's best point, 1 when below, 77 (skipped) without a GPU or inputs.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?out dir}
mkdir -p "$out"
ert=${ERT_L2_BIN:-}
if [ -z "$ert" ]; then
  for c in "$ROOT/.gpu-inputs/ertl2/hroof-ert" "${ERT_BIN:-$ROOT/build/bin}/hroof-ert"; do
    [ -x "$c" ] && { ert=$c; break; }
  done
fi
l2b=${L2BENCH:-$ROOT/.gpu-inputs/l2bench/cuda-l2-cache}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU: skipped"; exit 77
fi
[ -n "$ert" ] && [ -x "$ert" ] || { echo "hroof-ert not found (ERT_L2_BIN): skipped"; exit 77; }
[ -x "$l2b" ] || { echo "$l2b not found (L2BENCH; .gpu-inputs/l2bench/README.txt): skipped"; exit 77; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
q="--query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu"
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ); hroof-ert: $ert; l2 bench: $l2b"
nvidia-smi $q --format=csv | tee "$out/nvidia-smi-before.csv"

echo "== 1: hroof-ert --only global,l2"
timeout 60 "$ert" --only global,l2 --out "$out/ert1" >"$out/ert1.stdout" 2>"$out/ert1.stderr"
echo "rc=$?"; grep -E "l2 sweep|global sweep|l2:" "$out/ert1.stderr" | tail -20
echo "== 2: gpu-l2-cache ($(sed -n 's/^source: *//p' "$(dirname "$l2b")/README.txt" 2>/dev/null))"
timeout 50 "$l2b" >"$out/gpu-l2-cache.txt" 2>"$out/gpu-l2-cache.stderr"
rc=$?; echo "rc=$rc$([ $rc = 124 ] && echo ' (stopped by the timeout; the L2-sized working sets come first)')"
head -45 "$out/gpu-l2-cache.txt"
echo "== 3: hroof-ert --only l2 (repeat)"
timeout 40 "$ert" --only l2 --out "$out/ert2" >"$out/ert2.stdout" 2>"$out/ert2.stderr"
echo "rc=$?"; grep "l2 sweep best" "$out/ert2.stderr"
nvidia-smi $q --format=csv | tee "$out/nvidia-smi-after.csv"

python3 - "$out" <<'PY'
import csv, json, os, re, sys
out = sys.argv[1]
res = {}
def ert_best(run):
    p = os.path.join(out, run, "l2_sweep.csv")
    if not os.path.exists(p):
        return None
    rows = [r for r in csv.DictReader(open(p)) if r["verified"] == "1"]
    by = lambda rs: max(rs, key=lambda r: float(r["gbs"]), default=None)
    b, d = by([r for r in rows if r["l1_bypass"] == "1"]), by([r for r in rows if r["l1_bypass"] == "0"])
    m = json.load(open(os.path.join(out, run, "machine.json")))
    return {"best_gbs": float(b["gbs"]) if b else None, "best_point": b,
            "l1_allocating_best_gbs": float(d["gbs"]) if d else None,
            "ceiling_l2": m["ceilings"]["bandwidth"].get("l2", {}).get("value"),
            "grid_stride_plateau": m.get("references", {}).get("l2_grid_stride", {}).get("value"),
            "all_checks_passed": m.get("all_checks_passed")}
for run in ("ert1", "ert2"):
    res[run] = ert_best(run)
pts = []
for line in open(os.path.join(out, "gpu-l2-cache.txt"), errors="replace"):
    m = re.match(r"\s*(\d+) kB\s+(\d+) kB\s+\S+\s+\S+%\s+([\d.]+) GB/s", line)
    if m:
        pts.append((int(m.group(2)) * 1024, float(m.group(3))))
best = max(pts, key=lambda p: p[1], default=None)
mid = max([p for p in pts if 4e6 <= p[0] <= 25e6], key=lambda p: p[1], default=None)
res["gpu_l2_cache"] = {"points": len(pts), "best_gbs": best and best[1], "best_ws_bytes": best and best[0],
                       "best_4_25MB_gbs": mid and mid[1], "best_4_25MB_ws_bytes": mid and mid[0]}
ert = max([r["best_gbs"] for r in (res["ert1"], res["ert2"]) if r and r["best_gbs"]], default=None)
res["ert_best_gbs"] = ert
res["ert_ge_third_party"] = bool(ert and best and ert >= best[1])
json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=1)
print("== summary (GB/s; hroof-ert: bytes requested from L2 by L1-bypassing loads / median time)")
for run in ("ert1", "ert2"):
    r = res[run]
    if r:
        bp = r["best_point"] or {}
        print(f"hroof-ert {run}: L2 sweep best {r['best_gbs']} at ws {bp.get('ws_bytes')} "
              f"{bp.get('shape')} slice {bp.get('slice_bytes')}; ceiling l2 {r['ceiling_l2']}; "
              f"grid-stride plateau {r['grid_stride_plateau']}; L1-allocating diagnostic "
              f"{r['l1_allocating_best_gbs']}; checks passed {r['all_checks_passed']}")
    else:
        print(f"hroof-ert {run}: no l2_sweep.csv")
g = res["gpu_l2_cache"]
print(f"gpu-l2-cache: best {g['best_gbs']} at ws {g['best_ws_bytes']}; best at 4-25 MB "
      f"{g['best_4_25MB_gbs']} at ws {g['best_4_25MB_ws_bytes']} ({g['points']} points)")
print(f"hroof-ert best {ert} >= gpu-l2-cache best {g['best_gbs']}: "
      f"{'yes' if res['ert_ge_third_party'] else 'NO'}")
sys.exit(0 if res["ert_ge_third_party"] else 1)
PY

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The per-launch host cost of `hroof run --counters none`, on the machine with the GPU
# from the repository root; builds nothing. Needs .gpu-inputs/launchcost/many.plain
# and many.inst (test/gpu/runtime/hw/many_launches.cu without and with the
# plugin: cmake --build build --target hroof-gpu-inputs-launchcost) and
# .gpu-inputs/gpu/{bin/hroof,lib/libhroof_rt.so} (test/gpu/build.sh).
# many_launches ROUNDS makes 3*ROUNDS short launches (ROUNDS default 2000:
# 6000 launches) queued without waiting; "ROUNDS sync" waits for each. Each
# configuration runs REPS times (default 5), the configurations interleaved:
#   plain         many.plain alone
#   run-plain     hroof run --counters none on many.plain (tracing only)
#   run-inst      hroof run --counters none on many.inst (counts, static model)
#   run-inst-nostatic   ... --static-eval 0
#   run-inst-nowarp     ... --warp-eval-limit 0 (no warp-level model)
#   run-inst-nocount    ... --counting 0 (durations only)
# Prints and writes $OUT/launchcost/times.tsv (config, mode, rep, seconds) and
# the median per configuration with (median - plain) / launches; then, from
# each configuration's last profile ($OUT/launchcost/profile-CFG-MODE.json),
# the kernels' mean durations (device time: instrumented vs plain kernels)
# and the runtime's note on its host time in counted launches.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU (nvidia-smi failed)"; exit 77; fi
HROOF=$ROOT/.gpu-inputs/gpu/bin/hroof
P=$ROOT/.gpu-inputs/launchcost
for f in "$HROOF" "$P/many.plain" "$P/many.inst"; do
  [ -x "$f" ] || { echo "launch-cost.sh: $f missing (see the header)" >&2; exit 1; }
done
export LD_LIBRARY_PATH="$ROOT/.gpu-inputs/gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
O=${OUT:-$ROOT/gpu-out}/launchcost
mkdir -p "$O"
ROUNDS=${ROUNDS:-2000}
REPS=${REPS:-5}
LAUNCHES=$((3 * ROUNDS))
W=$(mktemp -d)
RUN=("$HROOF" run --counters none --no-summary --output "$W/p.json" --launch-limit 100)
CONFIGS="plain run-plain run-inst run-inst-nostatic run-inst-nowarp run-inst-nocount"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "ROUNDS=$ROUNDS ($LAUNCHES launches) REPS=$REPS; hroof run: ${RUN[*]:1} [...] -- many.X $ROUNDS [sync]"; } >"$O/env.txt"
printf 'config\tmode\trep\tseconds\trc\n' >"$O/times.tsv"
for mode in async sync; do
  arg=("$ROUNDS"); [ $mode = sync ] && arg+=(sync)
  for ((rep = 1; rep <= REPS; ++rep)); do
    for cfg in $CONFIGS; do
      case $cfg in
        plain) cmd=("$P/many.plain") ;;
        run-plain) cmd=("${RUN[@]}" -- "$P/many.plain") ;;
        run-inst) cmd=("${RUN[@]}" -- "$P/many.inst") ;;
        run-inst-nostatic) cmd=("${RUN[@]}" --static-eval 0 -- "$P/many.inst") ;;
        run-inst-nowarp) cmd=("${RUN[@]}" --warp-eval-limit 0 -- "$P/many.inst") ;;
        run-inst-nocount) cmd=("${RUN[@]}" --counting 0 -- "$P/many.inst") ;;
      esac
      t0=$(date +%s%N)
      timeout 120 "${cmd[@]}" "${arg[@]}" >"$O/last-$cfg-$mode.log" 2>&1
      rc=$?
      ms=$(( ($(date +%s%N) - t0) / 1000000 ))
      printf '%s\t%s\t%d\t%d.%03d\t%d\n' "$cfg" "$mode" "$rep" $((ms / 1000)) $((ms % 1000)) "$rc" >>"$O/times.tsv"
      if [ -f "$W/p.json" ]; then mv "$W/p.json" "$O/profile-$cfg-$mode.json"; fi
    done
  done
done
rm -rf "$W"
BAD=$(awk -F'\t' 'NR > 1 && $5 != 0' "$O/times.tsv" | wc -l)
python3 - "$O/times.tsv" "$LAUNCHES" <<'PY' | tee "$O/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
n = int(sys.argv[2])
for mode in ("async", "sync"):
    med = {}
    for r in rows:
        if r["mode"] == mode:
            med.setdefault(r["config"], []).append(float(r["seconds"]))
    base = statistics.median(med["plain"])
    print(f"{mode} ({n} launches): plain median {base:.3f} s")
    for cfg, v in med.items():
        m = statistics.median(v)
        bad = sum(1 for r in rows if r["mode"] == mode and r["config"] == cfg and r["rc"] != "0")
        print(f"  {cfg:20s} median {m:7.3f} s  {m / base:5.2f}x  {(m - base) / n * 1e6:8.1f} us/launch"
              f"  runs {' '.join(f'{x:.3f}' for x in v)}{f'  ({bad} failed)' if bad else ''}")
PY
python3 - "$O" <<'PY' | tee -a "$O/summary.txt"
import glob, json, os, sys
print("kernel mean duration (us, activity records) and the runtime's host time, last run of each:")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "profile-*.json"))):
    try:
        p = json.load(open(f))
    except Exception as e:
        print(f"  {os.path.basename(f)}: unreadable ({e})")
        continue
    means = " ".join(f"{k['kernel'].split('(')[0]}={k['duration_ns'].get('mean', 0) / 1e3:.1f}"
                     for k in p.get("kernels", []))
    host = [x for x in p.get("notes", []) if x.startswith("host time")]
    print(f"  {os.path.basename(f)[8:-5]:28s} {means}")
    for x in host:
        print(f"    {x}")
PY
[ "$BAD" = 0 ] || { echo "launch-cost.sh: $BAD run(s) exited non-zero (times.tsv)" >&2; exit 1; }

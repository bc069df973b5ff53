#!/bin/sh
# SPDX-License-Identifier: MIT
# report.sh — `make bench`: runs every benchmark (bench/*.sh but this one), one after the other,
# each one's output kept in bench/out/NAME.log, then bench/report.py prints ONE table (ours vs
# ROCR 5.2.3, ratio, goal, met?) and writes bench/out/summary.json and bench/out/summary.png.
#   sh bench/report.sh             run everything, then report   (env: BUILD=build, QUICK=1)
#   sh bench/report.sh --no-run    only report what bench/out holds
#   sh bench/report.sh NAME...     run only these (e.g. init_shutdown copy_bandwidth), then report
# QUICK=1 lowers every benchmark's repetition counts (one round, fewer samples): ~2 min less.
# A benchmark that fails or runs past BENCH_TIMEOUT (900 s) is recorded as such; the rest go on,
# the table is printed, and the exit status is 1.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${BUILD:-$src/build}" && pwd)
export BUILD SRCDIR="$src"
out=$src/bench/out
mkdir -p "$out"
if [ "${1:-}" = --no-run ]; then
  shift
  names=""
elif [ $# -gt 0 ]; then
  names=$*
else
  names=$(for b in "$src"/bench/*.sh; do n=$(basename "$b" .sh); case $n in report|lib) ;; *) echo "$n" ;; esac; done)
fi
# Per-benchmark settings for QUICK=1 (each script's own knobs; N means different things).
quick_env() {
  [ "${QUICK:-0}" = 1 ] || return 0
  case $1 in
    init_shutdown) echo N=5 ;;
    queue_create) echo N=3 ;;
    copy_bandwidth) echo ROUNDS=1 REPS=3 ;;
    dispatch_roundtrip) echo ROUNDS=1 N=200 ;;
    signal_ops) echo ROUNDS=1 ;;
    mem_alloc) echo ROUNDS=1 ;;
    loader_load) echo REPEAT=2 ;;
    isa_throughput) echo REPEAT=1 ;;
    sim_cp_latency) echo N=200 ;;
    rocprim_probe) echo ROUNDS=1 N=131072 ;;
  esac
}
[ -n "$names" ] && cut -d' ' -f1-3 /proc/loadavg > "$out/loadavg.start"
failed=""
for n in $names; do
  b=$src/bench/$n.sh
  [ -f "$b" ] || { echo "no benchmark $b"; continue; }
  # A result left from an earlier run must not pass for this one's.
  rm -f "$out/$n.json" "$out/$n".*.json "$out/$n.log" "$out/$n.status"
  echo "== $n $(quick_env "$n")"
  t0=$(date +%s)
  # shellcheck disable=SC2046 # the settings split on purpose
  env $(quick_env "$n") timeout "${BENCH_TIMEOUT:-900}" sh "$b" > "$out/$n.log" 2>&1
  rc=$?
  cat "$out/$n.log"
  echo "$rc $(( $(date +%s) - t0 ))" > "$out/$n.status"
  [ $rc -eq 0 ] || { echo "== $n FAILED (exit $rc)"; failed="$failed $n"; }
done
[ -n "$names" ] && cut -d' ' -f1-3 /proc/loadavg > "$out/loadavg.end"
# matplotlib for the chart: Debian's python3-matplotlib lives with /usr/bin/python3, which
# another python3 first in PATH (pyenv, a venv) does not see.
py=python3
for p in python3 /usr/bin/python3; do
  if command -v "$p" > /dev/null && "$p" -c 'import matplotlib' 2> /dev/null; then py=$p; break; fi
done
echo "== report"
"$py" "$src/bench/report.py" "$src" "$BUILD" || exit 1
[ -z "$failed" ] || { echo "failed:$failed"; exit 1; }

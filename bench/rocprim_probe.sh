#!/bin/sh
# SPDX-License-Identifier: MIT
# rocprim_probe.sh — the whole wall time of a HIP program (bench/rocprim_probe.hip: rocPRIM
# reduce, scan, radix sort of keys and pairs, each checked against the host) under hsa-sim
# gfx900, on Debian's ROCR 5.2.3 and on ours, with the reference interpreter
# (HSA_SIM_INTERP=1: "before" the fast engine) and the fast engine, on 1 thread and on every
# CPU (hsa-sim --threads). A run that fails or whose results are wrong is an error (exit 1),
# never a figure. See bench/README.md. Output: a table and bench/out/rocprim_probe.json.
#   BUILD=$PWD/build sh bench/rocprim_probe.sh     env: N (items, 262144), ROUNDS (3),
#                                                  THREADS ("1 <every CPU>")
set -u
. "$(dirname "$0")/lib.sh"
bench_setup rocprim_probe
command -v hipcc > /dev/null 2>&1 && [ -e /usr/include/rocprim/rocprim.hpp ] ||
  { echo "rocprim_probe: needs Debian's hipcc and librocprim-dev"; exit 1; }
N=${N:-262144} ROUNDS=${ROUNDS:-3} THREADS=${THREADS:-"1 $(nproc)"}
out=$src/bench/out
bin=$work/rocprim_probe

# hipcc takes 0.5-2 min here: built once, kept in the tests' kernel cache (build-cache/)
SRCDIR=$src
. "$src/tests/integration/lib/kcache.sh"
mkdir -p "$work/tmp"
TMPDIR=$work/tmp kcache "$bin" hipcc --offload-arch=gfx900 -std=c++17 -O2 -Wall -Werror \
  -I"$src/tests/hip" -o "$bin" "$src/bench/rocprim_probe.hip" || { echo "rocprim_probe: hipcc failed"; exit 1; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average: $load0 on $(nproc) CPUs; N=$N, $ROUNDS round(s), threads: $THREADS"
samples=$work/samples.tsv errors=$work/errors.txt
: > "$samples"; : > "$errors"
unset LD_LIBRARY_PATH HSA_SIM_INTERP
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for t in $THREADS; do
    for engine in interp fast; do
      for rt in rocr ours; do   # the runtimes alternate, so both see the same load
        lib=$work/rocr; [ $rt = ours ] && lib=$BUILD/lib
        interp=""; [ $engine = interp ] && interp=1
        log=$work/$rt.$engine.$t.$r.log
        t0=$(date +%s%N)
        env ${interp:+HSA_SIM_INTERP=1} LD_LIBRARY_PATH="$lib" timeout 600 \
          "$sim" --gpu gfx900 --threads "$t" -- "$bin" "$N" > "$log" 2>&1
        rc=$?
        t1=$(date +%s%N)
        line=$(grep '^rocprim_probe: .*equal to the host' "$log")
        if [ $rc -ne 0 ] || [ -z "$line" ]; then
          echo "$rt $engine threads=$t round $r: exit $rc: $(grep -v '^\[hsa-sim' "$log" | tail -n 1)" | tee -a "$errors"
          continue
        fi
        init=$(echo "$line" | sed 's/.*init_ms=\([0-9.]*\).*/\1/')
        wk=$(echo "$line" | sed 's/.*work_ms=\([0-9.]*\).*/\1/')
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' $rt $engine "$t" $(( (t1 - t0) / 1000000 )) "$init" "$wk" >> "$samples"
        printf '  %-4s %-6s threads=%s  %6d ms (HIP start %s ms, work %s ms)\n' $rt $engine "$t" \
          $(( (t1 - t0) / 1000000 )) "$init" "$wk"
      done
    done
  done
  r=$((r + 1))
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$samples" "$errors" "$out/rocprim_probe.json" "$N" "$ROUNDS" "$load0" "$load1" <<'EOF'
import json, statistics, sys
samples, errors, dest, n, rounds, load0, load1 = sys.argv[1:]
per = {}
for ln in open(samples):
    rt, engine, t, wall, init, work = ln.split()
    per.setdefault((rt, engine, int(t)), []).append((int(wall), float(init), float(work)))
runs = []
for (rt, engine, t), s in sorted(per.items()):
    best = min(s)
    runs.append({"runtime": rt, "engine": engine, "threads": t, "wall_ms": [x[0] for x in s],
                 "best_ms": best[0], "median_ms": statistics.median(x[0] for x in s),
                 "hip_start_ms": best[1], "work_ms": best[2]})
errs = [e.strip() for e in open(errors) if e.strip()]
json.dump({"n": int(n), "rounds": int(rounds), "gpu": "gfx900", "loadavg": [load0, load1],
           "runs": runs, "errors": errs}, open(dest, "w"), indent=1)
print("\nwall time of the whole program, best of %s (ms); 'before' = reference interpreter" % rounds)
print("%-7s %-8s %14s %14s %7s" % ("threads", "engine", "ROCR 5.2.3", "ours", "ours/ROCR"))
get = {(r["runtime"], r["engine"], r["threads"]): r["best_ms"] for r in runs}
for t in sorted({k[2] for k in get}):
    for e in ("interp", "fast"):
        a, b = get.get(("rocr", e, t)), get.get(("ours", e, t))
        print("%-7d %-8s %14s %14s %7s" % (t, e, a or "-", b or "-", "%.2f" % (b / a) if a and b else "-"))
print("load average %s -> %s" % (load0, load1))
EOF
[ -s "$errors" ] && { echo "rocprim_probe: $(wc -l < "$errors") run(s) failed or gave wrong results"; exit 1; }
exit 0

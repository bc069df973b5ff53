#!/bin/sh
# SPDX-License-Identifier: MIT
# queue_create.sh — hsa_queue_create time and the resident memory of 64 live queues: our runtime
# vs Debian's ROCR 5.2.3, the same binary (queue_create.c) under the same hsa-sim (gfx900),
# alternated N (7) times; medians. Goals: creation <= ROCR's time, the memory 64 live queues
# add (VmRSS with them live minus VmRSS after hsa_init) <= 2x ROCR's. Also the process's
# first doorbell after them (a barrier packet on the first queue), which pays what a runtime
# defers past hsa_queue_create (ours: its error handler thread).
# Writes bench/out/queue_create.json.
#   sh bench/queue_create.sh      (env: BUILD=build, N=7, CC=cc)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup queue_create
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -I"$src/include/hsa" -o "$work/queue_create" \
  "$src/bench/queue_create.c" -L"$BUILD/lib" -lhsa-runtime64
: > "$work/ours.txt"
: > "$work/rocr.txt"
i=0
while [ "$i" -lt "${N:-7}" ]; do   # alternate, so the machine's drift hits both alike
  LD_LIBRARY_PATH=$BUILD/lib "$sim" -- "$work/queue_create" | grep '^first_us=' >> "$work/ours.txt"
  LD_LIBRARY_PATH=$work/rocr "$sim" -- "$work/queue_create" | grep '^first_us=' >> "$work/rocr.txt"
  i=$((i + 1))
done
python3 - "$work/ours.txt" "$work/rocr.txt" "$src/bench/out/queue_create.json" <<'PY'
import json, statistics, sys
def load(p):
    rs = [{k: float(v) for k, v in (kv.split("=") for kv in ln.split())} for ln in open(p)]
    m = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
    m["live_over_init_kib"] = statistics.median(r["rss_live_kib"] - r["rss_init_kib"] for r in rs)
    return m, len(rs)
o, n = load(sys.argv[1])
r, _ = load(sys.argv[2])
metrics = [
    ("first_us", "hsa_queue_create, first queue (median)", "us", "ours <= 1.0"),
    ("median_us", "hsa_queue_create (median of 64)", "us", "ours <= 1.0"),
    ("live_over_init_kib", "memory added by 64 live queues (VmRSS)", "KiB", "ours <= 2.0"),
    ("hwm_kib", "peak memory with 64 live queues (VmHWM)", "KiB", "ours <= 2.0"),
    ("dispatch_us", "first doorbell after them (barrier, to completion)", "us", ""),
]
out = {"runs": n, "metrics": [{"key": k, "metric": m, "unit": u, "ours": o[k], "rocr": r[k], "goal": g}
                              for k, m, u, g in metrics]}
json.dump(out, open(sys.argv[3], "w"), indent=1)
print("%-42s %12s %12s %7s" % ("metric", "ours", "ROCR", "ratio"))
for m in out["metrics"]:
    print("%-42s %12.1f %12.1f %7.2f" % (m["metric"] + " " + m["unit"], m["ours"], m["rocr"], m["ours"] / m["rocr"]))
PY

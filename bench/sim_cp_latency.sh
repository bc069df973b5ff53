#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_cp_latency.sh — start latency of the simulated command processor (doorbell store to
# packet start, "hot" while the engine polls and "cold" after it went to sleep) and the CPU
# an idle queue costs, measured with Debian's ROCR 5.2.3 (and our runtime when it can create
# queues) under hsa-sim. See bench/README.md. Output: JSON lines, also in bench/out/.
set -u
: "${BUILD:?}" "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
sim=$BUILD/bin/hsa-sim
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
[ -x "$sim" ] || { echo "$sim is not built"; exit 1; }
[ -n "$rocr" ] || { echo "Debian's ROCR is not installed"; exit 1; }
out=$SRCDIR/bench/out
mkdir -p "$out" "$BUILD/bench"
bin=$BUILD/bench/sim_cp_latency
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -I"$SRCDIR/include" -o "$bin" \
  "$SRCDIR/bench/sim_cp_latency.c" "$rocr" -Wl,-rpath,"$(dirname "$rocr")" -lpthread || exit 1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "== ROCR 5.2.3"
unset LD_LIBRARY_PATH
"$sim" -- "$bin" "${N:-500}" | tee "$out/sim_cp_latency.rocr.json"
echo "== ours"
LD_LIBRARY_PATH=$BUILD/lib "$sim" -- "$bin" "${N:-500}" > "$out/sim_cp_latency.ours.json" 2>&1 &&
  cat "$out/sim_cp_latency.ours.json" || echo "(our runtime cannot run it yet: $(tail -n 1 "$out/sim_cp_latency.ours.json"))"

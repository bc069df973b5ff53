#!/bin/sh
# SPDX-License-Identifier: MIT
# loader_load.sh — loading a code object with 1000 kernels (what a big HIP module is): reader,
# load, freeze, 1000 symbol lookups, destroy. Our runtime vs Debian's ROCR 5.2.3, both under
# the same hsa-sim (gfx900) in the same run; best of REPEAT. Prints a table with our/ROCR
# time ratios (below 1: we are faster) and writes bench/out/loader_load.json.
# ROCR copies code to VRAM with a DMA at freeze: when the simulator cannot run that copy yet,
# freeze is left out for both (and the table says so).
#   sh bench/loader_load.sh      (env: BUILD=build, REPEAT=5, KERNELS=1000)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup loader_load
repeat=${REPEAT:-5}
n=${KERNELS:-1000}
unset LD_LIBRARY_PATH
# N kernels, each a little different so none is folded into another.
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
  printf "kernel void k%d(global int *a, int b) { a[__builtin_amdgcn_workitem_id_x()] += b * %d; }\n", i, i + 1 }' \
  > "$work/k.cl"
clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900:xnack- -nogpulib -O2 \
  -mcode-object-version=4 -c -o "$work/k.o" "$work/k.cl"
ld.lld-15 -shared -o "$work/k.co" "$work/k.o"
${CC:-cc} -std=gnu11 -O2 -I"$src/include" -o "$work/loader_load" "$src/bench/loader_load.c" \
  -L"$BUILD/lib" -lhsa-runtime64
mode=""
if ! timeout 60 "$sim" -- "$work/loader_load" "$work/k.co" "$n" 1 > /dev/null 2>&1; then
  mode=--no-freeze
  echo "(ROCR's freeze does not complete under this hsa-sim: freeze left out for both)"
fi
ours=$(LD_LIBRARY_PATH=$BUILD/lib "$sim" -- "$work/loader_load" "$work/k.co" "$n" "$repeat" $mode)
theirs=$(timeout 600 "$sim" -- "$work/loader_load" "$work/k.co" "$n" "$repeat" $mode)
size=$(wc -c < "$work/k.co")
echo "code object: $n kernels, $size bytes, gfx900, best of $repeat"
printf '%-10s %12s %12s %10s\n' phase ours-us rocr-us ours/rocr
json=$src/bench/out/loader_load.json
printf '{\n  "benchmark": "loader_load",\n  "kernels": %s,\n  "bytes": %s,\n  "gpu": "gfx900",\n  "freeze_included": %s,\n  "phases": [' \
  "$n" "$size" "$([ -z "$mode" ] && echo true || echo false)" > "$json"
sep=""
for phase in load freeze lookup destroy; do
  o=$(echo "$ours" | sed "s/.*${phase}_us=\([0-9]*\).*/\1/")
  r=$(echo "$theirs" | sed "s/.*${phase}_us=\([0-9]*\).*/\1/")
  awk -v p="$phase" -v o="$o" -v r="$r" -v sep="$sep" -v json="$json" 'BEGIN {
    ratio = r > 0 ? o / r : 0
    printf "%-10s %12d %12d %10.2f\n", p, o, r, ratio
    printf "%s\n    {\"phase\": \"%s\", \"ours_us\": %d, \"rocr_us\": %d, \"ratio\": %.3f}", sep, p, o, r, ratio >> json }'
  sep=","
done
printf '\n  ]\n}\n' >> "$json"
echo "wrote $json"

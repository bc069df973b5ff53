#!/bin/sh
# SPDX-License-Identifier: MIT
# mem_alloc.sh — small allocation rate (hsa_amd_memory_pool_allocate + free of 4-64 KiB, CPU
# fine-grained and GPU device pools): our runtime vs Debian's ROCR 5.2.3, both under the same
# hsa-sim in the same run. Prints allocation/free pairs per second and the ratio ours / ROCR
# (above 1: we are faster). Env: BUILD (build dir, default ./build), CC, ROUNDS (default 2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
BUILD=${BUILD:-$src/build}
CC=${CC:-cc}
sim=$BUILD/bin/hsa-sim
ours=$BUILD/lib
rocr=/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1
[ -x "$sim" ] || { echo "no $sim: build first (make BUILD=$BUILD)"; exit 1; }
[ -e "$ours/libhsa-runtime64.so.1" ] || { echo "no runtime in $ours"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$CC -O2 -std=gnu11 -I"$src/include/hsa" "$here/mem_alloc.c" -o "$tmp/mem_alloc" \
  -L"$ours" -lhsa-runtime64
mkdir "$tmp/rocr"
[ -e "$rocr" ] && ln -s "$rocr" "$tmp/rocr/libhsa-runtime64.so.1"
: > "$tmp/ours.all"; : > "$tmp/rocr.all"
i=0
while [ $i -lt "${ROUNDS:-2}" ]; do
  LD_LIBRARY_PATH=$ours "$sim" -- "$tmp/mem_alloc" >> "$tmp/ours.all"
  [ -e "$rocr" ] && { LD_LIBRARY_PATH=$tmp/rocr "$sim" -- "$tmp/mem_alloc" >> "$tmp/rocr.all" 2>/dev/null || :; }
  i=$((i + 1))
done
best() { awk '{ k = $1 " " $2; if (!(k in b) || $3 > b[k]) { b[k] = $3; if (!(k in o)) o[k] = n++ } }
              END { for (k in o) print o[k], k, b[k] }' "$1" | sort -n | cut -d' ' -f2-; }
best "$tmp/ours.all" > "$tmp/ours"
best "$tmp/rocr.all" > "$tmp/rocr.out"
printf '%-7s %8s %16s %16s %7s\n' pool KiB "ours pairs/s" "ROCR pairs/s" ratio
while read -r pool kib n; do
  r=$(awk -v p="$pool" -v k="$kib" '$1 == p && $2 == k { print $3 }' "$tmp/rocr.out")
  ratio=$(awk -v a="$n" -v b="${r:-0}" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
  printf '%-7s %8s %16.0f %16s %7s\n' "$pool" "$kib" "$n" "${r:--}" "$ratio"
done < "$tmp/ours"

#!/bin/sh
# SPDX-License-Identifier: MIT
# dispatch_roundtrip.sh — empty-kernel round trip (dispatch -> completion signal), busy-wait
# and interrupt wait: our runtime vs Debian's ROCR 5.2.3, the same binary under the same
# hsa-sim, alternated ROUNDS (3) times, best median of each kept. Prints median and p90 in
# microseconds and the ratio ROCR / ours (above 1: we are faster).
# Env: BUILD (default ./build), CC (default cc), N dispatches per wait kind (default 500).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
BUILD=${BUILD:-$src/build}
CC=${CC:-cc}
sim=$BUILD/bin/hsa-sim
ours=$BUILD/lib
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
[ -x "$sim" ] || { echo "no $sim: build first (make BUILD=$BUILD)"; exit 1; }
command -v clang-15 > /dev/null || { echo "clang-15 is needed to compile the kernel"; exit 1; }
devlibs=$(ls -d /usr/lib/*/amdgcn/bitcode 2>/dev/null | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$CC -O2 -std=gnu11 -I"$src/include/hsa" "$here/dispatch_roundtrip.c" -o "$tmp/rt" \
  -L"$ours" -lhsa-runtime64
target=$(LD_LIBRARY_PATH=$ours "$sim" -- "$BUILD/bin/sample_dispatch" --isa)
clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$target" -O2 \
  ${devlibs:+--rocm-device-lib-path="$devlibs"} -o "$tmp/empty.co" "$here/dispatch_roundtrip.cl"
mkdir "$tmp/rocr"
[ -n "$rocr" ] && ln -s "$rocr" "$tmp/rocr/libhsa-runtime64.so.1"
: > "$tmp/ours.all"; : > "$tmp/rocr.all"
i=0
while [ $i -lt "${ROUNDS:-3}" ]; do
  LD_LIBRARY_PATH=$ours "$sim" -- "$tmp/rt" "$tmp/empty.co" "${N:-500}" >> "$tmp/ours.all"
  [ -n "$rocr" ] && LD_LIBRARY_PATH=$tmp/rocr "$sim" -- "$tmp/rt" "$tmp/empty.co" "${N:-500}" \
    >> "$tmp/rocr.all" 2> /dev/null
  i=$((i + 1))
done
best() { awk -v k="$2" '$1 == k && (b == "" || $2 < b) { b = $2; p = $3 } END { print b, p }' "$1"; }
printf '%-10s %12s %10s %12s %10s %7s\n' wait "ours med us" "ours p90" "ROCR med us" "ROCR p90" ratio
for w in busy interrupt; do
  set -- $(best "$tmp/ours.all" $w) $(best "$tmp/rocr.all" $w)
  ratio=$(awk -v a="$1" -v b="${3:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a; else print "-" }')
  printf '%-10s %12s %10s %12s %10s %7s\n' $w "$1" "$2" "${3:--}" "${4:--}" "$ratio"
done

#!/bin/sh
# SPDX-License-Identifier: MIT
# init_shutdown.sh — hsa_init + hsa_shut_down time and peak resident memory: our runtime vs
# Debian's ROCR 5.2.3, the same binary under the same hsa-sim (gfx900), alternated with a
# floor program that links no runtime, N (15) times each; medians (init_shutdown.py).
# Goals: ours <= 1/5 of ROCR's time, <= 1/2 of its memory. Writes bench/out/init_shutdown.json.
#   sh bench/init_shutdown.sh      (env: BUILD=build, N=15, CC=cc)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${BUILD:-$src/build}" && pwd)
sim=$BUILD/bin/hsa-sim
rocr=/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1
[ -x "$sim" ] || { echo "init_shutdown: $sim is not built (make)"; exit 1; }
[ -e "$rocr" ] || { echo "init_shutdown: Debian's ROCR (libhsa-runtime64-1) is not installed"; exit 1; }
work=$BUILD/bench/init_shutdown
mkdir -p "$work/rocr" "$src/bench/out"
ln -sf "$rocr" "$work/rocr/libhsa-runtime64.so.1"
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -I"$src/include/hsa" -o "$work/init_shutdown" \
  "$src/bench/init_shutdown.c" -L"$BUILD/lib" -lhsa-runtime64
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -DINIT_SHUTDOWN_FLOOR -o "$work/floor" "$src/bench/init_shutdown.c"
python3 "$src/bench/init_shutdown.py" "$sim" "$BUILD/lib" "$work/rocr" "$work/init_shutdown" \
  "$work/floor" "${N:-15}" "$src/bench/out/init_shutdown.json"

#!/bin/sh
# SPDX-License-Identifier: MIT
# init_shutdown.sh — hsa_init + hsa_shut_down time and peak resident memory: our runtime vs
# Debian's ROCR 5.2.3, the same binary under the same hsa-sim (gfx900), alternated with a
# floor program that links no runtime, N (15) times each; medians (init_shutdown.py).
# Goals: ours <= 1/5 of ROCR's time, <= 1/2 of its memory. Writes bench/out/init_shutdown.json.
#   sh bench/init_shutdown.sh      (env: BUILD=build, N=15, CC=cc)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup init_shutdown
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -I"$src/include/hsa" -o "$work/init_shutdown" \
  "$src/bench/init_shutdown.c" -L"$BUILD/lib" -lhsa-runtime64
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -DINIT_SHUTDOWN_FLOOR -o "$work/floor" "$src/bench/init_shutdown.c"
python3 "$src/bench/init_shutdown.py" "$sim" "$BUILD/lib" "$work/rocr" "$work/init_shutdown" \
  "$work/floor" "${N:-15}" "$src/bench/out/init_shutdown.json"

#!/bin/sh
# SPDX-License-Identifier: MIT
# copy_bandwidth.sh — hsa_amd_memory_async_copy host->device, device->host, device->device
# (1, 16, 64 MiB) in GB/s: our runtime vs Debian's ROCR 5.2.3 under the same hsa-sim (gfx900),
# ROCR both with its SDMA engine (default) and with HSA_ENABLE_SDMA=0 (blit kernels, run by the
# simulator's shader interpreter); host memcpy in the same processes is the reference (goal:
# ours >= 0.9x memcpy). Alternated ROUNDS (2) times; each figure the best of its medians of
# REPS (5) copies. Prints a table, writes bench/out/copy_bandwidth.json (copy_bandwidth.py).
#   sh bench/copy_bandwidth.sh      (env: BUILD=build, ROUNDS=2, REPS=5, SIZES="1 16 64", CC=cc)
set -eu
. "$(dirname "$0")/lib.sh"
bench_setup copy_bandwidth
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -I"$src/include/hsa" -o "$work/copy_bandwidth" \
  "$src/bench/copy_bandwidth.c" -L"$BUILD/lib" -lhsa-runtime64
unset LD_LIBRARY_PATH HSA_ENABLE_SDMA
sizes=${SIZES:-1 16 64}
# One run: its lines prefixed with the runtime's column name; a failed or hung run says so.
one() { # name libdir [env]
  name=$1 lib=$2
  shift 2
  # shellcheck disable=SC2086 # sizes split on purpose
  if ! env "$@" LD_LIBRARY_PATH="$lib" timeout 600 "$sim" -- "$work/copy_bandwidth" "${REPS:-5}" $sizes \
      > "$work/run.out" 2> "$work/run.err"; then
    echo "$name - exit $(tail -n 1 "$work/run.err" | tr -s ' \n' ' ')" >> "$work/all"
  fi
  sed "s/^/$name /" "$work/run.out" >> "$work/all"
}
: > "$work/all"
i=0
while [ $i -lt "${ROUNDS:-2}" ]; do
  one ours "$BUILD/lib"
  if [ -e "$rocr" ]; then
    one rocr "$work/rocr"
    one rocr_blit "$work/rocr" HSA_ENABLE_SDMA=0
  fi
  i=$((i + 1))
done
python3 "$src/bench/copy_bandwidth.py" "$work/all" "$src/bench/out/copy_bandwidth.json"

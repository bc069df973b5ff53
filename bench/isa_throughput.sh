#!/bin/sh
# SPDX-License-Identifier: MIT
# Interpreter throughput of hsa-sim's gfx9 ISA model: vadd, a reduction and a tiled matrix
# multiply (tests/kernels), dispatched by Debian's ROCR 5.2.3 under hsa-sim on gfx900.
# Lane-instructions = instructions one wave executes (bench/isa_count.py, from the code;
# every lane of these kernels takes the same path) x waves x 64. Time on the simulator is
# from the doorbell to the completion signal (best of REPEAT); the plain-C time is the same
# computation (the corpus's host reference, gcc -O2) in the same process.
# Prints a table and writes bench/out/isa_throughput.json.
#   sh bench/isa_throughput.sh      (env: BUILD=build, REPEAT=3)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${BUILD:-$src/build}" && pwd)
repeat=${REPEAT:-3}
sim=$BUILD/bin/hsa-sim
objdump=/usr/lib/llvm-15/bin/llvm-objdump
[ -x "$sim" ] || { echo "isa_throughput: $sim is not built (make)"; exit 1; }
work=$BUILD/bench/isa_throughput
corpus=$BUILD/bench/kernel-corpus
mkdir -p "$work/tmp" "$src/bench/out"
TMPDIR=$work/tmp; export TMPDIR
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
SRCDIR=$src GPUS=gfx900 sh "$src/tests/kernels/build.sh" "$corpus"
if ! ls "$src"/sim/cp/*.c > /dev/null 2>&1; then
  echo "isa_throughput: hsa-sim cannot dispatch yet (no command processor in sim/cp)"; exit 0
fi

json=$src/bench/out/isa_throughput.json
printf '%-20s %9s %12s %14s %10s %14s %10s %9s\n' kernel items wave-instr lane-instr sim-ms \
  lane-instr/s host-ms sim/host
printf '{\n  "benchmark": "isa_throughput",\n  "gpu": "gfx900",\n  "runtime": "ROCR 5.2.3",\n  "kernels": [' > "$json"
sep=""
# case  code-object  kernel  loop-trips
for spec in "bench_vadd lds.cl vadd 1" "bench_reduce_stride bench.cl reduce_stride 16" \
            "bench_matmul lds.cl matmul_tiled 16"; do
  # shellcheck disable=SC2086 # split on purpose
  set -- $spec
  co=$corpus/gfx900/$2.co
  per_wave=$(python3 "$src/bench/isa_count.py" "$objdump" "$co" "$3" "$4")
  out=$(timeout 1800 "$sim" --gpu gfx900 -- "$corpus/harness" --timeout 1700 --time --repeat "$repeat" \
        "$1" "$co" 2> "$work/$1.err") || { echo "$1: failed:"; cat "$work/$1.err"; exit 1; }
  line=$(echo "$out" | grep '^case=')
  dev=$(echo "$line" | sed 's/.*device_ns=\([0-9]*\).*/\1/')
  host=$(echo "$line" | sed 's/.*host_ns=\([0-9]*\).*/\1/')
  items=$(echo "$line" | sed 's/.*items=\([0-9]*\).*/\1/')
  awk -v k="$3" -v items="$items" -v pw="$per_wave" -v dev="$dev" -v host="$host" -v sep="$sep" \
      -v json="$json" 'BEGIN {
    waves = int((items + 63) / 64); wi = pw * waves; li = wi * 64;
    rate = li / (dev / 1e9); ratio = dev / (host > 0 ? host : 1);
    printf "%-20s %9d %12d %14d %10.1f %14.3g %10.3f %9.0f\n", k, items, wi, li, dev / 1e6, rate, host / 1e6, ratio;
    printf "%s\n    {\"kernel\": \"%s\", \"items\": %d, \"wave_instructions\": %d, \"lane_instructions\": %d, \"sim_ns\": %d, \"lane_instructions_per_s\": %.0f, \"host_c_ns\": %d, \"sim_over_host\": %.1f}", sep, k, items, wi, li, dev, rate, host, ratio >> json;
  }'
  sep=","
done
printf '\n  ]\n}\n' >> "$json"
echo "wrote $json"

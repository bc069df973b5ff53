#!/bin/sh
# SPDX-License-Identifier: MIT
# Interpreter throughput of hsa-sim's gfx9 ISA model: vadd, a reduction and a tiled matrix
# multiply (tests/kernels), dispatched by Debian's ROCR 5.2.3 under hsa-sim on gfx900.
# Lane-instructions = instructions one wave executes (bench/isa_count.py, from the code;
# every lane of these kernels takes the same path) x waves x 64. Time on the simulator is
# from the doorbell to the completion signal (best of REPEAT); the plain-C time is the same
# computation (the corpus's host reference, gcc -O2) in the same process.
# Then, with clang-19, the same three kernels built for gfx942 and dispatched by our runtime
# (ROCR 5.2.3 does not know gfx942) under hsa-sim --gpu gfx942, and an MFMA row: 4096 waves of
# v_mfma_f32_32x32x8_f16 (tests/integration/mfma), in MFMA instructions and flop per second.
# Then the three kernels built by clang-19 for gfx1100 (RDNA3) and gfx1201 (RDNA4), wave32 and
# -mwavefrontsize64, on our runtime under hsa-sim --gpu gfx1100/gfx1201: lane-instructions
# count the wave's own lanes (32 or 64), and ns per lane-instruction compares the two sizes.
# The gfx900 rows run once per host-thread count in THREADS (hsa-sim --threads; default "1 N",
# N the CPUs this process may use): per-thread and all-thread figures, and the speed-up over 1.
# Beside the wall clock, the pool's CPU time per dispatch from hsa-sim's trace (the engine
# thread's with 1 thread; the busiest thread's with more): the CPU speed-up (1-thread CPU over
# the busiest thread's) is what the threads would give on idle cores, which a shared machine's
# wall clock does not show (other processes' load makes the threads wait for a CPU).
# The gfx900 rows run under each runtime of RUNTIMES (default "rocr ours"): the simulator
# does the same work under both, but the client's blocked wait differs (ROCR 5.2.3 polls the
# signal for 200-260 us before it sleeps, a third busy thread on a 2-CPU machine).
# Prints tables and writes bench/out/isa_throughput.json, isa_throughput_gfx942.json and
# isa_throughput_rdna.json.
#   sh bench/isa_throughput.sh      (env: BUILD=build, REPEAT=3, THREADS="1 2")
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
# host threads: 1, then every CPU this process may use (nproc honours the affinity mask)
threads=${THREADS:-$( n=$(nproc 2> /dev/null || echo 1); [ "$n" -gt 1 ] && echo "1 $n" || echo 1 )}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
runtimes=${RUNTIMES:-rocr ours}
printf '%-20s %-5s %3s %9s %12s %14s %10s %14s %10s %9s %7s %8s %7s\n' kernel rt thr items wave-instr \
  lane-instr sim-ms lane-instr/s host-ms sim/host speedup cpu-ms cpu-sp
printf '{\n  "benchmark": "isa_throughput",\n  "gpu": "gfx900",\n  "runtime": "per row",\n  "loadavg": "%s",\n  "kernels": [' \
  "$(cut -d' ' -f1-3 /proc/loadavg)" > "$json"
sep=""
# case  code-object  kernel  loop-trips
for spec in "bench_vadd lds.cl vadd 1" "bench_reduce_stride bench.cl reduce_stride 16" \
            "bench_matmul lds.cl matmul_tiled 16"; do
  # shellcheck disable=SC2086 # split on purpose
  set -- $spec
  co=$corpus/gfx900/$2.co
  per_wave=$(python3 "$src/bench/isa_count.py" "$objdump" "$co" "$3" "$4")
  for rt in $runtimes; do
  one=""
  cpu_one=""
  # ours: the harness loads libhsa-runtime64.so.1 from $BUILD/lib; rocr: Debian's
  lib=""
  [ "$rt" = ours ] && lib=$BUILD/lib
  for t in $threads; do
    trace=$work/$1.$rt.$t.trace
    out=$(LD_LIBRARY_PATH=$lib timeout 1800 "$sim" --gpu gfx900 --threads "$t" --trace="$trace" -- "$corpus/harness" \
          --timeout 1700 --time --repeat "$repeat" "$1" "$co" 2> "$work/$1.$rt.$t.err") ||
      { echo "$1 ($rt): failed:"; cat "$work/$1.$rt.$t.err"; exit 1; }
    line=$(echo "$out" | grep '^case=')
    dev=$(echo "$line" | sed 's/.*device_ns=\([0-9]*\).*/\1/')
    host=$(echo "$line" | sed 's/.*host_ns=\([0-9]*\).*/\1/')
    items=$(echo "$line" | sed 's/.*items=\([0-9]*\).*/\1/')
    [ "$t" = 1 ] && one=$dev
    # the kernel's dispatches are the REPEAT with the most CPU (the runtime's blits are tiny);
    # of those, the least CPU on the busiest thread (1 thread: the engine's), in us
    cpu=$(sed -n 's/.*work-groups on the engine thread alone; CPU \([0-9]*\) us.*/\1 \1/p
                  s/.*CPU \([0-9]*\) us in all, \([0-9]*\) us on the busiest thread.*/\1 \2/p' "$trace" |
          sort -rn | head -n "$repeat" | awk 'NR == 1 || $2 < m { m = $2 } END { print m + 0 }')
    [ "$t" = 1 ] && cpu_one=$cpu
    awk -v k="$3" -v items="$items" -v pw="$per_wave" -v dev="$dev" -v host="$host" -v sep="$sep" \
        -v json="$json" -v t="$t" -v one="$one" -v cpu="$cpu" -v cpu_one="$cpu_one" -v rt="$rt" 'BEGIN {
      waves = int((items + 63) / 64); wi = pw * waves; li = wi * 64;
      rate = li / (dev / 1e9); ratio = dev / (host > 0 ? host : 1);
      sp = one != "" ? one / dev : 0;
      csp = cpu_one != "" && cpu > 0 ? cpu_one / cpu : 0;
      printf "%-20s %-5s %3d %9d %12d %14d %10.1f %14.3g %10.3f %9.0f %7s %8.1f %7s\n", k, rt, t, items, wi, li, dev / 1e6, rate, host / 1e6, ratio, sp ? sprintf("%.2fx", sp) : "-", cpu / 1e3, csp ? sprintf("%.2fx", csp) : "-";
      printf "%s\n    {\"kernel\": \"%s\", \"runtime\": \"%s\", \"threads\": %d, \"items\": %d, \"wave_instructions\": %d, \"lane_instructions\": %d, \"sim_ns\": %d, \"lane_instructions_per_s\": %.0f, \"host_c_ns\": %d, \"sim_over_host\": %.1f, \"busiest_thread_cpu_ns\": %d%s%s}", sep, k, rt == "ours" ? "ours" : "ROCR 5.2.3", t, items, wi, li, dev, rate, host, ratio, cpu * 1000, sp ? sprintf(", \"speedup_over_1_thread\": %.2f", sp) : "", csp ? sprintf(", \"cpu_speedup_over_1_thread\": %.2f", csp) : "" >> json;
    }'
    sep=","
  done
  done
done
printf '\n  ]\n}\n' >> "$json"
echo "wrote $json"

# ---- gfx942 on our runtime ------------------------------------------------------------------
if ! command -v clang-19 > /dev/null || ! command -v llvm-as-19 > /dev/null ||
   ! command -v llvm-objdump-19 > /dev/null; then
  echo "isa_throughput: clang-19/llvm-19 missing: no gfx942 rows"; exit 0
fi
bitcode=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && echo "$d"; done | head -n 1)
g=$work/gfx942
fail() { echo "isa_throughput: $*"; exit 1; }
# Debian's device libraries stop at gfx90a: the ISA version constant made as kernels_gfx942.sh
# makes it
. "$src/tests/integration/lib/devlibs19.sh"
devlibs19_make "$g/devlibs" "$bitcode" gfx942
for f in lds.cl bench.cl; do
  clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
    -mcpu=gfx942 -mcode-object-version=4 --rocm-device-lib-path="$g/devlibs" -O2 \
    -Wno-linker-warnings -o "$g/$f.co" "$src/tests/kernels/$f"
done
clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -mcode-object-version=4 \
  -nogpulib -O2 -o "$g/mfma.co" "$src/tests/integration/mfma/mfma.cl"
kd=$src/tests/kernels
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -I"$kd" -I"$src/include/hsa" -o "$g/harness_mfma" \
  "$kd/harness.c" "$kd/kcase.c" "$src/tests/integration/mfma/mfma_ref.c" -L"$BUILD/lib" \
  -lhsa-runtime64 -ldl -lm
json=$src/bench/out/isa_throughput_gfx942.json
printf '\ngfx942 (MI300X), our runtime\n'
printf '%-20s %9s %12s %14s %10s %14s %10s %9s\n' kernel items wave-instr lane-instr sim-ms \
  lane-instr/s host-ms sim/host
printf '{\n  "benchmark": "isa_throughput",\n  "gpu": "gfx942",\n  "runtime": "ours",\n  "kernels": [' > "$json"
sep=""
for spec in "bench_vadd lds.cl vadd 1 harness" "bench_reduce_stride bench.cl reduce_stride 16 harness" \
            "bench_matmul lds.cl matmul_tiled 16 harness" \
            "bench_mfma_f16_32x32x8 mfma.co mf_f16_32x32x8 1 harness_mfma"; do
  # shellcheck disable=SC2086 # split on purpose
  set -- $spec
  case $2 in *.co) co=$g/$2 ;; *) co=$g/$2.co ;; esac
  h=$corpus/harness
  [ "$5" = harness_mfma ] && h=$g/harness_mfma
  per_wave=$(ISA_COUNT_MCPU=gfx942 python3 "$src/bench/isa_count.py" llvm-objdump-19 "$co" "$3" "$4")
  out=$(LD_LIBRARY_PATH=$BUILD/lib timeout 1800 "$sim" --gpu gfx942 -- "$h" --timeout 1700 --time \
        --repeat "$repeat" "$1" "$co" 2> "$work/$1.942.err") || { echo "$1: failed:"; cat "$work/$1.942.err"; exit 1; }
  line=$(echo "$out" | grep '^case=')
  dev=$(echo "$line" | sed 's/.*device_ns=\([0-9]*\).*/\1/')
  host=$(echo "$line" | sed 's/.*host_ns=\([0-9]*\).*/\1/')
  items=$(echo "$line" | sed 's/.*items=\([0-9]*\).*/\1/')
  awk -v k="$3" -v items="$items" -v pw="$per_wave" -v dev="$dev" -v host="$host" -v sep="$sep" \
      -v json="$json" -v mfma="$([ "$5" = harness_mfma ] && echo 1 || echo 0)" 'BEGIN {
    waves = int((items + 63) / 64); wi = pw * waves; li = wi * 64;
    rate = li / (dev / 1e9); ratio = dev / (host > 0 ? host : 1);
    printf "%-20s %9d %12d %14d %10.1f %14.3g %10.3f %9.0f\n", k, items, wi, li, dev / 1e6, rate, host / 1e6, ratio;
    extra = "";
    if (mfma) {   # one MFMA per wave: 2 * 32 * 32 * 8 flop
      printf "%-20s %.3g MFMA/s, %.3g flop/s\n", "", waves / (dev / 1e9), waves * 16384 / (dev / 1e9);
      extra = sprintf(", \"mfma_per_s\": %.0f, \"flop_per_s\": %.0f", waves / (dev / 1e9), waves * 16384 / (dev / 1e9));
    }
    printf "%s\n    {\"kernel\": \"%s\", \"items\": %d, \"wave_instructions\": %d, \"lane_instructions\": %d, \"sim_ns\": %d, \"lane_instructions_per_s\": %.0f, \"host_c_ns\": %d, \"sim_over_host\": %.1f%s}", sep, k, items, wi, li, dev, rate, host, ratio, extra >> json;
  }'
  sep=","
done
printf '\n  ]\n}\n' >> "$json"
echo "wrote $json"

# ---- gfx1100 / gfx1201, wave32 and wave64, on our runtime ----------------------------------
r=$work/rdna
devlibs19_make "$r/devlibs" "$bitcode" gfx1100 gfx1201
json=$src/bench/out/isa_throughput_rdna.json
printf '\ngfx1100 (RX 7900 XTX) and gfx1201 (RX 9070 XT), our runtime\n'
printf '%-20s %-8s %4s %9s %12s %14s %10s %14s %12s\n' kernel gpu wave items wave-instr lane-instr \
  sim-ms lane-instr/s ns/lane-instr
printf '{\n  "benchmark": "isa_throughput",\n  "runtime": "ours",\n  "kernels": [' > "$json"
sep=""
for t in gfx1100 gfx1201; do
  for ws in 32 64; do
    for f in lds.cl bench.cl; do
      # shellcheck disable=SC2046 # no flag for wave32
      clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
        -mcpu=$t -mcode-object-version=4 --rocm-device-lib-path="$r/devlibs" -O2 \
        $([ $ws = 64 ] && echo -mwavefrontsize64) -Wno-linker-warnings \
        -o "$r/$f.$t.w$ws.co" "$src/tests/kernels/$f"
    done
    for spec in "bench_vadd lds.cl vadd 1" "bench_reduce_stride bench.cl reduce_stride 16" \
                "bench_matmul lds.cl matmul_tiled 16"; do
      # shellcheck disable=SC2086 # split on purpose
      set -- $spec
      co=$r/$2.$t.w$ws.co
      per_wave=$(ISA_COUNT_MCPU=$t python3 "$src/bench/isa_count.py" llvm-objdump-19 "$co" "$3" "$4")
      out=$(LD_LIBRARY_PATH=$BUILD/lib timeout 1800 "$sim" --gpu $t -- "$corpus/harness" --timeout 1700 \
            --time --repeat "$repeat" "$1" "$co" 2> "$work/$1.$t.$ws.err") ||
        { echo "$1 ($t wave$ws): failed:"; cat "$work/$1.$t.$ws.err"; exit 1; }
      line=$(echo "$out" | grep '^case=')
      dev=$(echo "$line" | sed 's/.*device_ns=\([0-9]*\).*/\1/')
      items=$(echo "$line" | sed 's/.*items=\([0-9]*\).*/\1/')
      awk -v k="$3" -v t="$t" -v ws="$ws" -v items="$items" -v pw="$per_wave" -v dev="$dev" \
          -v sep="$sep" -v json="$json" 'BEGIN {
        waves = int((items + ws - 1) / ws); wi = pw * waves; li = wi * ws;
        rate = li / (dev / 1e9);
        printf "%-20s %-8s %4d %9d %12d %14d %10.1f %14.3g %12.3f\n", k, t, ws, items, wi, li, dev / 1e6, rate, dev / li;
        printf "%s\n    {\"kernel\": \"%s\", \"gpu\": \"%s\", \"wave_size\": %d, \"items\": %d, \"wave_instructions\": %d, \"lane_instructions\": %d, \"sim_ns\": %d, \"lane_instructions_per_s\": %.0f, \"ns_per_lane_instruction\": %.4f}", sep, k, t, ws, items, wi, li, dev, rate, dev / li >> json;
      }'
      sep=","
    done
  done
done
printf '\n  ]\n}\n' >> "$json"
echo "wrote $json"

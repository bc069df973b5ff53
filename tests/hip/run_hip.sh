#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the HIP programs in tests/hip with Debian's hipcc (host and device code for gfx900,
# gfx906 and gfx90a) and runs them under hsa-sim with the HSA runtime the dynamic linker
# finds. Each program checks its own results and exits 0 only when they are right.
#   sh run_hip.sh LABEL WORKDIR        (env: BUILD, SRCDIR; RUNTIME=rocr|ours)
# Exit 0 all pass, 1 a program failed, 77 cannot run yet (says why).
set -u
label=$1 work=$2
hdir=$SRCDIR/tests/hip
sim=$BUILD/bin/hsa-sim
runtime=${RUNTIME:-rocr}
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
command -v hipcc > /dev/null 2>&1 || { echo "hipcc is not installed (apt install hipcc)"; exit 77; }
[ -e /usr/include/hip/hip_runtime.h ] || { echo "HIP headers missing (apt install libamdhip64-dev)"; exit 77; }
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR

# Built once for both runtimes (gfx900, gfx906, gfx90a), only when a source changed; from
# lib/kcache.sh's cache when another configuration or run built the same sources (the programs
# link Debian's HIP, not the build under test).
. "$SRCDIR/tests/integration/lib/kcache.sh"
progs=$BUILD/tests/hip-programs
mkdir -p "$progs"
for f in "$hdir"/*.hip; do
  p=$progs/$(basename "$f" .hip)
  # shellcheck disable=SC3013 # dash and bash have -nt
  if [ ! -e "$p" ] || [ "$f" -nt "$p" ] || [ "$hdir/hip_check.h" -nt "$p" ]; then
    ( kcache "$p" hipcc --offload-arch=gfx900 --offload-arch=gfx906 --offload-arch=gfx90a -O2 \
        -Wall -Werror -o "$p" "$f" > "$p.log" 2>&1 || { cat "$p.log"; rm -f "$p"; } ) &
  fi
done
wait
for f in "$hdir"/*.hip; do
  [ -x "$progs/$(basename "$f" .hip)" ] || { echo "FAIL: hipcc could not build $(basename "$f")"; exit 1; }
done

pass=0 fail=0 failed=""
run() { # tag timeout sim-args... -- program args...
  tag=$1 limit=$2; shift 2
  log=$work/$(echo "$tag" | tr ' /,[]' '_____').log
  rc=0
  timeout "$limit" "$sim" "$@" > "$log" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); echo "PASS  $tag"
  else
    fail=$((fail + 1)); failed="$failed $tag"
    echo "FAIL  $tag (exit $rc$([ $rc -eq 124 ] && echo ', timed out'))"
    grep -v '^\[hsa-sim' "$log" | tail -n 8 | sed 's/^/      | /'
  fi
}

# The value of "key value" in the simulated topology of GPU node 1.
topo() { # gpu-model gpus
  "$sim" --gpu "$1" --gpus "$2" -- sh -c 'cat /sys/class/kfd/kfd/topology/nodes/1/properties \
    /sys/class/kfd/kfd/topology/nodes/1/mem_banks/0/properties' > "$work/topo"
}
prop() { awk -v k="$1" '$1 == k { print $2 }' "$work/topo"; }
props() { # gpu-model gpus
  topo "$1" "$2"
  run "device_props [$2 x $1]" 60 --gpu "$1" --gpus "$2" -- "$progs/device_props" "$2" "$1" \
    "$(( $(prop simd_count) / $(prop simd_per_cu) ))" "$(prop simd_per_cu)" \
    "$(prop max_engine_clk_fcompute)" "$(prop size_in_bytes)"
}

if [ "$runtime" = ours ]; then
  # Our runtime: HIP needs dispatch, copies and the loader; skip while a dispatch cannot be set up.
  GPUS=gfx900 sh "$SRCDIR/tests/kernels/build.sh" "$BUILD/tests/kernel-corpus" > "$work/probe-build.log" 2>&1 ||
    { cat "$work/probe-build.log"; exit 1; }
  pst=0
  timeout 120 "$sim" -- "$BUILD/tests/kernel-corpus/harness" --timeout 60 vadd \
    "$BUILD/tests/kernel-corpus/gfx900/lds.cl.co" > "$work/probe.log" 2>&1 || pst=$?
  if [ $pst -eq 4 ] || ! ls "$SRCDIR"/sim/cp/*.c > /dev/null 2>&1; then
    echo "our runtime cannot dispatch yet ($(grep harness: "$work/probe.log" | tail -n 1)): HIP programs built, not run"
    exit 77
  fi
fi

# Device properties need no dispatch: they run even before the simulator executes kernels.
props gfx900 1
props gfx906 2
if ! ls "$SRCDIR"/sim/cp/*.c > /dev/null 2>&1; then
  [ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
  echo "hsa-sim cannot dispatch yet (no command processor in sim/cp): device_props passed, the other HIP programs built, not run"
  exit 77
fi
for p in memory kernels streams; do
  run "$p [gfx900]" 180 --gpu gfx900 -- "$progs/$p"
done
# Copies with blit kernels instead of SDMA, and the other chips (not with HSA_TEST_LIGHT=1:
# the sanitizer and clang configurations run the representative model, gfx900, only).
if [ "${HSA_TEST_LIGHT:-0}" = 1 ]; then
  echo "$label: $pass passed, $fail failed (HSA_TEST_LIGHT=1: gfx900 only)"
  [ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
  exit 0
fi
run "memory [gfx900, HSA_ENABLE_SDMA=0]" 180 --gpu gfx900 -- env HSA_ENABLE_SDMA=0 "$progs/memory"
run "kernels [gfx906]" 180 --gpu gfx906 -- "$progs/kernels"
run "streams [gfx90a]" 180 --gpu gfx90a -- "$progs/streams"
props gfx90a 1

echo "$label: $pass passed, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
exit 0

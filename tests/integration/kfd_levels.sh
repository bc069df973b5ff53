#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 180
# kfd_levels.sh — the core of the suite at every KFD interface level the simulator models
# (--kfd-version 1.11 … 1.18): init, queues and a kernel dispatch (sample_dispatch's
# vector_add, checked on the host), signals (signal_client.c: every operation's result) and
# memory (mem_client.c: allocation, pointer info, copies) on our runtime. At each level:
#  - the signal and memory outputs equal those at 1.11 line for line (the level changes how
#    the runtime reaches the kernel, never what the API does);
#  - the runtime calls no ioctl the level lacks (hsa-sim's trace: no "unknown" ioctl);
#  - the features of the level are used where present and only there: RUNTIME_ENABLE from
#    1.13 on, waits longer than a 10 ms slice (event age) from 1.14 on and none below.
# About 20-35 s (every level); HSA_TEST_LIGHT=1 runs 1.11, 1.12, 1.13, 1.14 and 1.18.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init kfd_levels
sim_devlibs
unset HSA_ENABLE_INTERRUPT LD_LIBRARY_PATH
for c in signal_client mem_client; do
  ${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/$c" "$SRCDIR/tests/integration/$c.c" \
    -L"$BUILD/lib" -lhsa-runtime64 -lpthread -Wl,-rpath,"$BUILD/lib" || fail "cannot build $c"
done
clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900 -O2 \
  --rocm-device-lib-path="$devlibs" -o "$work/vector_add.co" \
  "$SRCDIR/samples/kernels/vector_add.cl" || fail "cannot compile vector_add"
levels="11 12 13 14 15 16 17 18"
# the light configuration: the levels where something changes
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && levels="11 12 13 14 18"
for m in $levels; do
  for c in signal_client mem_client; do
    timeout 60 "$sim" --kfd-version 1.$m --trace="$work/$c.$m.trace" -- "$work/$c" \
      > "$work/$c.$m" 2> "$work/$c.$m.err" || fail "1.$m: $c exited $?: $(tail -n 3 "$work/$c.$m.err")"
    if [ $m != 11 ] && ! diff -q "$work/$c.11" "$work/$c.$m" > /dev/null; then
      fail "1.$m: $c differs from 1.11: $(diff "$work/$c.11" "$work/$c.$m" | head -n 5)"
    fi
  done
  SAMPLE_N=4096 timeout 60 "$sim" --kfd-version 1.$m --trace="$work/sample.$m.trace" -- \
    "$BUILD/bin/sample_dispatch" "$work/vector_add.co" > "$work/sample.$m" 2>&1 ||
    fail "1.$m: sample_dispatch exited $?: $(tail -n 3 "$work/sample.$m")"
  traces="$work/signal_client.$m.trace $work/mem_client.$m.trace $work/sample.$m.trace"
  # shellcheck disable=SC2086
  unknown=$(cat $traces | grep -c '(unknown)')
  [ "$unknown" -eq 0 ] || fail "1.$m: the runtime called ioctls this level lacks: $(cat $traces | grep '(unknown)' | head -n 3)"
  # shellcheck disable=SC2086
  enables=$(cat $traces | grep -c 'RUNTIME_ENABLE')
  if [ $m -ge 13 ]; then
    [ "$enables" -ge 6 ] || fail "1.$m: $enables RUNTIME_ENABLE calls (want enable and disable in each run)"
  else
    [ "$enables" -eq 0 ] || fail "1.$m: RUNTIME_ENABLE called below 1.13"
  fi
  # the longest finite blocking wait of the signal client: 10 ms slices below 1.14
  longest=$(sed -n 's/.*WAIT_EVENTS(.*timeout=\([0-9]*\),.*/\1/p' "$work/signal_client.$m.trace" |
            grep -vx 4294967295 | sort -n | tail -n 1)
  if [ $m -ge 14 ]; then
    [ "${longest:-0}" -gt 10 ] || fail "1.$m: no wait longer than a 10 ms slice (longest ${longest:-none})"
  else
    [ "${longest:-0}" -le 10 ] || fail "1.$m: a wait of $longest ms without event age"
  fi
done
echo "ok: init, queue, dispatch, signals and memory alike at KFD 1.11 to 1.18, using each level's features only where it has them"

#!/bin/sh
# SPDX-License-Identifier: MIT
# dispatch_kernels.sh — kernels compiled at test time (clang-15) dispatched under hsa-sim:
#  - sample_dispatch's vector_add, results checked on the host, on ours and on ROCR 5.2.3;
#  - a kernel needing scratch on a queue created without any (dynamic scratch), ours and ROCR;
#  - a zero work-group size and an undefined packet type reach the queue callback, ours and ROCR;
#  - a profiled dispatch's start/end times, translated to the system clock, ours and ROCR;
#  - queues destroyed with kernels running (ours and ROCR), and from their own error callback;
#  - a kernel storing to an unmapped address reaches our queue callback and the process
#    goes on (ROCR 5.2 aborts the process there, so it is not run as a peer for this one).
# Skipped with a message while the simulator has no command processor (sim/cp empty).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads the sanitizer-built libhsa-sim.so into a client built without sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
[ -x "$sim" ] || { echo "$sim is not built"; exit 1; }
command -v clang-15 > /dev/null || { echo "clang-15 is not installed"; exit 77; }
devlibs=""
for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && devlibs=$d; done
[ -n "$devlibs" ] || { echo "rocm-device-libs is not installed"; exit 77; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
work=$BUILD/tests/dispatch_kernels
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
peer=1
[ -n "$rocr" ] && [ "${HSA_TEST_SANITIZED:-0}" != 1 ] || peer=0

has_cp=0
ls "$SRCDIR"/sim/cp/*.c > /dev/null 2>&1 && has_cp=1
target=$("$sim" -- "$BUILD/bin/sample_dispatch" --isa) || fail "sample_dispatch --isa"
cl() { clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$target" -O2 \
         --rocm-device-lib-path="$devlibs" -o "$2" "$1" || fail "cannot compile $1"; }
cl "$SRCDIR/samples/kernels/vector_add.cl" "$work/vector_add.co"
cl "$SRCDIR/tests/integration/dispatch_kernels.cl" "$work/kernels.co"
src=$SRCDIR/tests/integration/dispatch_client.c
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/ours" "$src" -L"$BUILD/lib" -lhsa-runtime64 \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
if [ $peer = 1 ]; then
  ${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/rocr" "$src" "$rocr" \
    -Wl,-rpath,"$(dirname "$rocr")" || fail "cannot build the ROCR client"
  ${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/sample_rocr" "$SRCDIR/samples/sample_dispatch.c" \
    "$rocr" -Wl,-rpath,"$(dirname "$rocr")" || fail "cannot build the ROCR sample"
fi

timeout 120 "$sim" -- "$work/ours" probe "$work/kernels.co" > "$work/probe.out" 2>&1
rc=$?
cat "$work/probe.out"
if [ $rc = 3 ] && [ $has_cp = 0 ]; then
  echo "skipped: hsa-sim has no command processor yet (sim/cp is empty), nothing runs kernels"
  exit 77
fi
[ $rc = 0 ] || fail "the GPU does not process packets (exit $rc)"
SAMPLE_N=100000 SAMPLE_TIMEOUT=300 timeout 600 "$sim" -- "$BUILD/bin/sample_dispatch" \
  "$work/vector_add.co" > "$work/sample.out" 2>&1
rc=$?
cat "$work/sample.out"
[ $rc = 0 ] || fail "sample_dispatch on our runtime exited $rc"
if [ $peer = 1 ]; then
  SAMPLE_N=100000 SAMPLE_TIMEOUT=300 timeout 600 "$sim" -- "$work/sample_rocr" \
    "$work/vector_add.co" > "$work/sample_rocr.out" 2>&1 || fail "the sample on ROCR (the peer) exited $?"
fi

for mode in scratch badpkt profile destroybusy selfdestroy fault; do
  timeout 300 "$sim" -- "$work/ours" $mode "$work/kernels.co" > "$work/$mode.out" 2>&1
  rc=$?
  cat "$work/$mode.out"
  [ $rc = 0 ] || fail "$mode on our runtime (exit $rc)"
  grep -q '^ok shut_down' "$work/$mode.out" || fail "$mode: no clean shutdown"
  # A fault message names the kernel that was running, not only the address.
  [ $mode != fault ] || grep -q 'was running kernel `poke.kd` in memory://' "$work/$mode.out" ||
    fail "the fault message does not name the faulting kernel poke"
  if [ $peer = 1 ] && [ $mode != fault ] && [ $mode != selfdestroy ]; then
    # ROCR 5.2.3 can lose a wake-up and hang in hsa_queue_destroy (see tests/run.sh: KFD
    # before 1.14 has no event age). A hang of the peer is retried once and said; a wrong
    # result or a second hang still fails.
    timeout 120 "$sim" -- "$work/rocr" $mode "$work/kernels.co" > "$work/$mode.rocr" 2>&1
    rc=$?
    if [ $rc = 124 ]; then
      echo "WARNING: $mode on ROCR timed out once; retrying (see the comment above)"
      timeout 120 "$sim" -- "$work/rocr" $mode "$work/kernels.co" > "$work/$mode.rocr" 2>&1
      rc=$?
    fi
    [ $rc = 0 ] || fail "$mode on ROCR, the peer (exit $rc): $(tail -n 3 "$work/$mode.rocr")"
  fi
done
echo "ok"

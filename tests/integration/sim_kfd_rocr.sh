#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_kfd_rocr.sh — Debian's ROCR 5.2.3 on the simulator's driver model: a client creates
# a user queue and waits on a signal; every KFD/DRM ioctl ROCR's thunk issues must succeed
# (except the ROCm-only debugger ioctl 0x82, which upstream kernels reject with EINVAL),
# the queue gets a doorbell, and an injected CREATE_QUEUE failure reaches the client as an
# error instead of a crash.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init sim_kfd_rocr
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES

${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" "$SRCDIR/tests/integration/sim_kfd_client.c" \
  "$rocr" -Wl,-rpath,"$(dirname "$rocr")" || fail "cannot build the client"

"$sim" --trace="$work/trace" -- "$work/client" > "$work/out" 2> "$work/err" || fail "client exited $?"
for step in init queue_create signal_create signal_destroy queue_destroy shut_down; do
  grep -q "^$step 0" "$work/out" || fail "$step did not succeed: $(cat "$work/out")"
done
grep -q "^gpu 1" "$work/out" || fail "no GPU agent"
grep -q "^signal_wait 0" "$work/out" || fail "signal wait: $(grep signal_wait "$work/out")"
grep -q 'kfd ACQUIRE_VM(.*) = 0' "$work/trace" || fail "no ACQUIRE_VM in the trace"
grep -q 'kfd CREATE_QUEUE(.*queue_type=COMPUTE_AQL.*) = 0 {.*doorbell_offset=0x[c-f]' "$work/trace" ||
  fail "no AQL queue with a doorbell offset in the trace"
grep -q 'kfd DESTROY_QUEUE(.*) = 0' "$work/trace" || fail "queue not destroyed"
bad=$(grep -- '= -1' "$work/trace" | grep -v 'nr=0x82' || true)
[ -z "$bad" ] || fail "unexpected ioctl failures: $bad"

# fault injection: ROCR's error path, not a crash
"$sim" --trace="$work/trace2" --fail CREATE_QUEUE:1:ENOMEM -- "$work/client" > "$work/out2" 2>&1 ||
  fail "client crashed with an injected CREATE_QUEUE failure (exit $?)"
grep -q 'kfd CREATE_QUEUE = -1 ENOMEM (injected, call 1)' "$work/trace2" || fail "fault not injected"
grep -q '^queue_create [1-9]' "$work/out2" || fail "the failure did not reach hsa_queue_create: $(cat "$work/out2")"
grep -q '^shut_down 0' "$work/out2" || fail "no clean shutdown after the failure"
echo "ok"

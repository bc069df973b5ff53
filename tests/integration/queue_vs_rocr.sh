#!/bin/sh
# SPDX-License-Identifier: MIT
# queue_vs_rocr.sh — the queue API on our runtime and on Debian's ROCR 5.2.3, both under
# hsa-sim, must give the same answers: invalid arguments (size 0 / not a power of two /
# out of range, bad type, NULL out, private segment too big), the hsa_queue_t and amd_queue_t
# fields the CP and tools read, index operations, CU masks, priorities, profiling, inactivate
# and destroy, soft queues; and the same CREATE_QUEUE / UPDATE_QUEUE / SET_CU_MASK calls
# reach the kernel (ring, EOP and CWSR sizes, priorities, masks). Our runtime must also refuse a bad agent, a destroyed queue and
# calls after shutdown with the documented errors instead of crashing.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init queue_vs_rocr
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK

src=$SRCDIR/tests/integration/queue_client.c
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/rocr" "$src" "$rocr" \
  -Wl,-rpath,"$(dirname "$rocr")" || fail "cannot build the ROCR client"
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/ours" "$src" -L"$BUILD/lib" -lhsa-runtime64 \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build our client"

for gpu in gfx900 gfx90a; do
  "$sim" --gpu $gpu --trace="$work/rocr_trace.$gpu" -- "$work/rocr" > "$work/rocr.$gpu" \
    2> "$work/rocr.$gpu.err" ||
    fail "ROCR client exited $? on $gpu: $(tail -n 3 "$work/rocr.$gpu.err")"
  QC_OURS=1 "$sim" --gpu $gpu --trace="$work/trace.$gpu" -- "$work/ours" > "$work/ours.$gpu" \
    2> "$work/ours.$gpu.err" || fail "our client exited $? on $gpu: $(tail -n 3 "$work/ours.$gpu.err")"
  grep '^same ' "$work/rocr.$gpu" > "$work/rocr.same.$gpu"
  grep '^same ' "$work/ours.$gpu" > "$work/ours.same.$gpu"
  [ "$(wc -l < "$work/rocr.same.$gpu")" -ge 50 ] || fail "the ROCR run stopped early on $gpu"
  diff -u "$work/rocr.same.$gpu" "$work/ours.same.$gpu" || fail "answers differ from ROCR on $gpu"
  # documented errors where ROCR would crash (values from hsa.h)
  grep -qx 'ours create_bad_agent 4100' "$work/ours.$gpu" || fail "bad agent: not INVALID_AGENT"
  grep -qx 'ours destroy_again 4103' "$work/ours.$gpu" || fail "double destroy: not INVALID_QUEUE"
  grep -qx 'ours destroy_null 4097' "$work/ours.$gpu" || fail "NULL queue: not INVALID_ARGUMENT"
  grep -qx 'ours cu_set_dead 4103' "$work/ours.$gpu" || fail "dead queue: not INVALID_QUEUE"
  grep -qx 'ours after_shutdown 4107' "$work/ours.$gpu" || fail "after shutdown: not NOT_INITIALIZED"
  # what reaches the kernel: queue sizes (ring, EOP, CWSR), priorities, CU masks, as ROCR's
  kfd_calls() {
    grep -o 'kfd \(CREATE_QUEUE\|UPDATE_QUEUE\|SET_CU_MASK\)(.*) = 0' "$1" |
      grep -v 'queue_type=SDMA' |
      sed -e 's/\(ring_base_address\|write_pointer_address\|read_pointer_address\|eop_buffer_address\|ctx_save_restore_address\|cu_mask_ptr\|queue_id\)=0x[0-9a-f]*/\1=X/g' \
          -e 's/queue_id=[0-9]*/queue_id=X/g' | sort -u
  }   # as a set: ROCR also makes its cooperative (GWS) queue at start-up, we on demand
  kfd_calls "$work/rocr_trace.$gpu" > "$work/rocr.kfd.$gpu"
  kfd_calls "$work/trace.$gpu" > "$work/ours.kfd.$gpu"
  grep -q 'UPDATE_QUEUE.*queue_priority=15' "$work/ours.kfd.$gpu" || fail "no UPDATE_QUEUE for HIGH"
  grep -q 'SET_CU_MASK.*num_cu_mask=' "$work/ours.kfd.$gpu" || fail "no SET_CU_MASK"
  diff -u "$work/rocr.kfd.$gpu" "$work/ours.kfd.$gpu" || fail "KFD queue calls differ from ROCR's on $gpu"
  # every KFD queue we created was destroyed
  c=$(grep -c 'kfd CREATE_QUEUE(.*) = 0' "$work/trace.$gpu")
  d=$(grep -c 'kfd DESTROY_QUEUE(.*) = 0' "$work/trace.$gpu")
  [ "$c" -gt 0 ] && [ "$c" = "$d" ] || fail "$c queues created, $d destroyed on $gpu"
done
# HSA_CU_MASK limits every queue from creation on (and what users ask for after)
gpu=gfx900
HSA_CU_MASK="0:0-7,40" "$sim" --gpu $gpu --trace="$work/rocr_trace.env" -- "$work/rocr" \
  > "$work/rocr.env" 2> "$work/rocr.env.err" || fail "ROCR client with HSA_CU_MASK exited $?"
HSA_CU_MASK="0:0-7,40" "$sim" --gpu $gpu --trace="$work/trace.env" -- "$work/ours" \
  > "$work/ours.env" 2> "$work/ours.env.err" || fail "our client with HSA_CU_MASK exited $?"
grep '^same cu_' "$work/rocr.env" > "$work/rocr.env.cu"
grep '^same cu_' "$work/ours.env" > "$work/ours.env.cu"
grep -q 'cu_get 0 000000ff 00000100' "$work/ours.env.cu" || fail "HSA_CU_MASK not applied: $(cat "$work/ours.env.cu")"
diff -u "$work/rocr.env.cu" "$work/ours.env.cu" || fail "CU masks with HSA_CU_MASK differ from ROCR"
kfd_calls "$work/rocr_trace.env" | grep SET_CU_MASK > "$work/rocr.env.kfd"
kfd_calls "$work/trace.env" | grep SET_CU_MASK > "$work/ours.env.kfd"
diff -u "$work/rocr.env.kfd" "$work/ours.env.kfd" || fail "SET_CU_MASK calls differ with HSA_CU_MASK"
echo "ok"

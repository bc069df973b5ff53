#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_dispatch_rocr.sh — Debian's ROCR 5.2.3 drives the simulator's command processor through
# the plain HSA API: barrier-AND/OR and barrier-value packets with host-set dependency
# signals, completion signals (ROCR waits on their KFD events), in-order processing; copies
# (hsa_memory_copy: blit kernels; hsa_amd_memory_async_copy: an SDMA queue), a queue error
# reaching the queue's callback, malformed dispatch packets each reported with the status
# of their first failing check (the dimension count first); then a
# vector-add kernel compiled here with clang-15 for gfx900, checked on the host, and the same
# kernel given an unmapped pointer, which ROCR must report as a GPU memory access fault; a
# kernel needing more scratch than the queue has (the CP asks ROCR through the queue's
# inactive signal and resumes).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init sim_dispatch_rocr
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES

${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/sim_dispatch_client.c" "$rocr" -Wl,-rpath,"$(dirname "$rocr")" ||
  fail "cannot build the client"
# the kernel: OpenCL C, code object v4 (what ROCR 5.2.3 loads)
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
command -v clang-15 > /dev/null || fail "clang-15 is not installed"
[ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
cat > "$work/vadd.cl" <<'CL'
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
CL
clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
  -mcpu=gfx900 -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
  -o "$work/vadd.co" "$work/vadd.cl" || fail "cannot compile the kernel"
# every work-item writes its group and local ids: a 3-D grid of 4-wave groups, partial in
# every dimension (the initial SGPRs and VGPRs of AMDGPUUsage; v0 packed on gfx90a)
cat > "$work/ids.cl" <<'CL'
__kernel void ids(__global uint *out)
{
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  uint i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[i] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16 |
           get_local_id(0) << 20 | get_local_id(1) << 24 | get_local_id(2) << 28;
}
CL
for g in gfx900 gfx90a; do
  clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
    -mcpu=$g -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
    -o "$work/ids.$g.co" "$work/ids.cl" || fail "cannot compile the ids kernel for $g"
done
timeout 120 "$sim" --trace="$work/trace" -- "$work/client" "$work/vadd.co" vadd.kd \
  "ids=$work/ids.gfx900.co" > "$work/out" 2> "$work/err"
rc=$?
cat "$work/out"
[ $rc -eq 0 ] || fail "client exited $rc: $(grep FAIL "$work/out") $(tail -n 5 "$work/err")"
for c in barrier_and_waits barrier_and_completes read_index_advances slot_invalidated \
         barrier_or_waits barrier_or_completes in_order in_order_completes batch_of_64 \
         barrier_value_waits barrier_value_completes copy_roundtrip async_copy_roundtrip async_copy_waits_for_dependency queue_error_callback \
         bad_dispatch_no_dimensions bad_dispatch_no_dimensions_and_group_too_large \
         bad_dispatch_no_dimensions_and_no_code bad_dispatch_group_segment \
         bad_dispatch_group_segment_and_group_too_large bad_dispatch_no_code \
         bad_dispatch_misaligned_code bad_dispatch_no_code_and_group_too_large \
         bad_dispatch_group_too_large kernel_load kernel_completes kernel_result ids_load ids_result; do
  grep -q "^$c ok" "$work/out" || fail "check $c missing"
done
grep -q 'cp: queue [0-9]* (sdma) started' "$work/trace" || fail "the async copy did not use an SDMA queue"

timeout 120 "$sim" --gpu gfx90a -- "$work/client" "$work/vadd.co" vadd.kd "ids=$work/ids.gfx90a.co" \
  > "$work/out.gfx90a" 2>&1 || true
grep -q '^ids_result ok' "$work/out.gfx90a" || fail "gfx90a ids: $(grep ids_ "$work/out.gfx90a")"

# the same sum through 4 KiB of private memory per work-item: more than the queue's default
# scratch, so the packet processor asks ROCR for scratch and resumes once it has it
cat > "$work/priv.cl" <<'CL'
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
  volatile float tmp[1100];
  size_t i = get_global_id(0);
  for (int k = 0; k < 1100; k++)
    tmp[k] = a[i % n] + (float)k;
  if (i < n)
    c[i] = tmp[(int)(b[i]) % 7] - (float)((int)(b[i]) % 7) + b[i];
}
CL
clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
  -mcpu=gfx900 -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
  -o "$work/priv.co" "$work/priv.cl" || fail "cannot compile the scratch kernel"
timeout 300 "$sim" --trace="$work/trace.priv" -- "$work/client" "$work/priv.co" vadd.kd \
  > "$work/out.priv" 2>&1 || fail "scratch kernel: $(grep FAIL "$work/out.priv")"
grep -q '^kernel_result ok' "$work/out.priv" || fail "scratch kernel result"
grep -q 'cp: queue [0-9]* asks for scratch (code 0x1)' "$work/trace.priv" ||
  fail "the scratch kernel did not need a scratch request"

# a kernel storing through an unmapped pointer: a KFD memory exception event, which ROCR
# reports as a real GPU's fault and aborts on
timeout 120 "$sim" -- "$work/client" "$work/vadd.co" vadd.kd fault > "$work/fault.out" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "the faulting kernel did not end the client"
grep -q 'Memory access fault by GPU node-[0-9]* (Agent handle: 0x[0-9a-f]*) on address 0x7e0000000000\. Reason: Page not present' \
  "$work/fault.out" || fail "no memory access fault report: $(tail -n 3 "$work/fault.out")"
echo "ok"

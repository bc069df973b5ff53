#!/bin/sh
# SPDX-License-Identifier: MIT
# dispatch_sigmask.sh — a client whose threads block every signal (ROCm's OpenCL runtime
# blocks all but SIGFPE in its workers) dispatches a kernel and copies host -> VRAM -> host
# (hsa_memory_copy, hsa_amd_memory_async_copy) under hsa-sim, on Debian's ROCR 5.2.3 and on
# ours (tests/integration/sigmask_client.c). A real doorbell is MMIO: the simulator must
# notice doorbell stores without anything the program can block (it used to catch SIGSEGV
# on a write-protected page, and the kernel killed such a thread at its first doorbell).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init dispatch_sigmask
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
command -v clang-15 > /dev/null || fail "clang-15 is not installed"
[ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/sigmask_client.c" "$rocr" -Wl,-rpath,"$(dirname "$rocr")" \
  -lpthread || fail "cannot build the client"
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
checks="main_blocks_all dispatcher_blocks_all queue_create kernel_load kernel_result
        kernel_after_idle copier_blocks_all memory_copy_small async_copy_small
        memory_copy_large async_copy_large shut_down"
for rt in rocr ours; do
  if [ $rt = ours ]; then export LD_LIBRARY_PATH=$BUILD/lib; fi
  timeout 120 "$sim" -- "$work/client" "$work/vadd.co" vadd.kd > "$work/$rt.out" 2> "$work/$rt.err"
  rc=$?
  cat "$work/$rt.out"
  [ $rc -eq 0 ] || fail "$rt: client exited $rc$( [ $rc -gt 128 ] && echo " (signal $((rc - 128)))"):" \
    "$(grep FAIL "$work/$rt.out") $(tail -n 3 "$work/$rt.err")"
  for c in $checks; do
    grep -q "^$c ok" "$work/$rt.out" || fail "$rt: check $c missing"
  done
done
echo "ok"

#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 150
# vmem.sh — hsa_amd_vmem_* (virtual memory) on the simulator (vmem_client.c): at KFD 1.15
# and 1.18 one handle mapped at two addresses is one memory for the CPU and a kernel, a part
# of it maps from an offset, an exported and imported handle shows the same bytes, a kernel
# writing where the GPU may only read faults and writes nothing, a process reading where the
# CPU has no access dies of SIGSEGV, and the calls answer ROCR's statuses; at 1.14 the API is
# refused but for NO_REGISTER ranges; with two GPUs, a handle given to both is one memory for
# the CPU and both GPUs. About 20 s.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init vmem
sim_devlibs
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" \
  -o "$work/client" "$SRCDIR/tests/integration/vmem_client.c" -L"$BUILD/lib" -lhsa-runtime64 \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
cat > "$work/k.cl" <<'CL'
__kernel void copy(__global uint *dst, __global const uint *src, uint n)
{
  uint i = get_global_id(0);
  if (i < n)
    dst[i] = src[i];
}
__kernel void fill(__global uint *buf, uint n, uint seed)
{
  uint i = get_global_id(0);
  if (i < n)
    buf[i] = i * seed + 7;
}
CL
clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
  -mcpu=gfx900 -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
  -o "$work/k.co" "$work/k.cl" || fail "cannot compile the kernels"
for m in 14 15 18; do
  timeout 60 "$sim" --kfd-version 1.$m -- "$work/client" "$work/k.co" $m \
    > "$work/out.$m" 2> "$work/err.$m" ||
    fail "1.$m: $(grep -v ' ok$' "$work/out.$m") $(tail -n 3 "$work/err.$m")"
  want=15; [ $m -lt 15 ] && want=2
  [ "$(grep -c ' ok$' "$work/out.$m")" -eq $want ] ||
    fail "1.$m: $(grep -c ' ok$' "$work/out.$m") checks passed, want $want: $(cat "$work/out.$m")"
done
grep -q 'needs KFD interface 1.15' "$work/err.14" || fail "no message at 1.14: $(cat "$work/err.14")"
# two GPUs: the first GPU's handle given to both is one memory for the CPU and both GPUs (the
# second takes the dma-buf in on its own render node: another device's buffer)
timeout 60 "$sim" --gpus 2 -- "$work/client" "$work/k.co" 18 peer > "$work/out.peer" \
  2> "$work/err.peer" || fail "peer: $(grep -v ' ok$' "$work/out.peer") $(tail -n 3 "$work/err.peer")"
[ "$(grep -c ' ok$' "$work/out.peer")" -eq 2 ] || fail "peer: $(cat "$work/out.peer")"
echo "ok: virtual memory at KFD 1.15 and 1.18 (aliases, offsets, export/import, rights enforced, a second GPU's access); refused at 1.14"

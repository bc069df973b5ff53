#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 180
# ipc_memory.sh — hsa_amd_ipc_memory_create/attach/detach between two processes on the
# simulator (ipc_memory_client.c): at KFD 1.12 and 1.18 a kernel in one process writes device
# memory (a whole allocation and a sub-allocation), the other attaches the handles (the
# dma-buf comes over the exporter's socket), reads them with hsa_memory_copy and
# hsa_amd_memory_async_copy against the pattern, answers, reads on after the exporter freed
# them, detaches; system memory is shared too (CPU reads and writes on both sides, the
# exporter's GPU still writes it); bad handles and arguments get ROCR's statuses. At 1.11
# create is refused with a message.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init ipc_memory
sim_devlibs
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" \
  -o "$work/client" "$SRCDIR/tests/integration/ipc_memory_client.c" -L"$BUILD/lib" \
  -lhsa-runtime64 -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
cat > "$work/fill.cl" <<'CL'
__kernel void fill(__global uint *buf, uint n, uint seed)
{
  uint i = get_global_id(0);
  if (i < n)
    buf[i] = i * seed + 7;
}
CL
clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
  -mcpu=gfx900 -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
  -o "$work/fill.co" "$work/fill.cl" || fail "cannot compile the kernel"
for m in 11 12 18; do
  timeout 120 "$sim" --kfd-version 1.$m -- "$work/client" "$work/fill.co" $m \
    > "$work/out.$m" 2> "$work/err.$m" ||
    fail "1.$m: $(grep -v ' ok$' "$work/out.$m") $(tail -n 3 "$work/err.$m")"
  want=33; [ $m -lt 12 ] && want=6
  [ "$(grep -c ' ok$' "$work/out.$m")" -eq $want ] ||
    fail "1.$m: $(grep -c ' ok$' "$work/out.$m") checks passed, want $want: $(cat "$work/out.$m")"
done
grep -q 'interface 1.12 or later' "$work/err.11" || fail "no message at 1.11: $(cat "$work/err.11")"
echo "ok: IPC memory between two processes at 1.12 and 1.18 (whole and sub-allocation, after the exporter freed it, bad handles); refused at 1.11"

#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_pm4_queue.sh — PM4 compute queues (KFD_IOC_QUEUE_TYPE_COMPUTE) on the simulator, driven
# through /dev/kfd alone by pm4_queue_client.c, for every modelled board (gfx942, gfx942-apu
# and gfx1201 with clang-19, skipped with a line without it; the EOP buffer and CWSR area
# 6.12+ kernels require, MES's write pointer in VRAM on gfx1100/gfx1201, wave32 launched with
# CS_W32_EN; under HSA_TEST_LIGHT=1 gfx900 and gfx1201 only): a kernel
# compiled here with clang-15 (work-group and work-item ids, salted, written to a buffer),
# launched with SET_SH_REG + DISPATCH_DIRECT/INDIRECT, its end-of-pipe RELEASE_MEM waited for
# as a KFD event; every element checked against the host; the read pointer the CP reports;
# WAIT_REG_MEM holding back a WRITE_DATA; an INDIRECT_BUFFER; packets across the ring's end;
# an unknown opcode halting the queue with the HW exception event.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
fail() { echo "FAIL: $*"; exit 1; }
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "the client is built here without sanitizers and hsa-sim is preloaded into it"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || fail "$sim is not built"
command -v clang-15 > /dev/null || fail "clang-15 is not installed"
work=$BUILD/tests/sim_pm4_queue
rm -rf "$work" && mkdir -p "$work"
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/src/kfd/shim" -I/usr/include/libdrm \
  -o "$work/client" "$SRCDIR/tests/integration/pm4_queue_client.c" || fail "cannot build the client"
# only what the hardware puts in registers: no dispatch packet, no implicit arguments
cat > "$work/ids.cl" <<'CL'
__kernel void ids(__global uint *out, uint group_size, uint salt)
{
  uint g = __builtin_amdgcn_workgroup_id_x(), t = __builtin_amdgcn_workitem_id_x();
  out[g * group_size + t] = (g << 16 | t) ^ salt;
}
CL
boards="gfx900 gfx906 gfx90a gfx1100"
if command -v clang-19 > /dev/null; then
  boards="$boards gfx942 gfx942-apu gfx1201"
  [ "${HSA_TEST_LIGHT:-0}" = 1 ] && boards="gfx900 gfx1201"
else
  echo "clang-19 is not installed: gfx942, gfx942-apu and gfx1201 are not checked"
  [ "${HSA_TEST_LIGHT:-0}" = 1 ] && boards="gfx900 gfx1100"
fi
for g in $boards; do
  cc=clang-15 cpu=$g
  case $g in gfx942*) cc=clang-19 cpu=gfx942 ;; gfx1201) cc=clang-19 ;; esac
  $cc -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=$cpu -nogpulib -O2 \
    -o "$work/ids.$g.co" "$work/ids.cl" || fail "cannot compile the kernel for $g"
  timeout 120 "$sim" --gpu $g --trace="$work/trace.$g" -- "$work/client" "$work/ids.$g.co" ids.kd \
    > "$work/out.$g" 2> "$work/err.$g"
  rc=$?
  [ $rc -eq 0 ] || fail "$g: client exited $rc: $(grep -v ' ok$' "$work/out.$g") $(tail -n 3 "$work/err.$g")"
  [ "$(grep -c ' ok$' "$work/out.$g")" -eq 23 ] || fail "$g: checks missing: $(cat "$work/out.$g")"
  grep -q 'CREATE_QUEUE(.*queue_type=COMPUTE[,) ].*) = 0' "$work/trace.$g" ||
    fail "$g: no PM4 queue in the trace"
  grep -q 'cp: queue [0-9]* (pm4) started' "$work/trace.$g" || fail "$g: the queue is not a PM4 engine"
done
echo "ok: $(cat "$work"/out.* | wc -l) checks on $boards"

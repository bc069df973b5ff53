#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_xcc.sh — MI300X (hsa-sim --gpu gfx942, SPX: 8 XCCs) and MI300A (--gpu gfx942-apu: 6
# XCCs; not under HSA_TEST_LIGHT=1) on our runtime: a dispatch's
# work-groups go round the XCCs one at a time, HW_REG_XCC_ID and HW_REG_HW_ID name where each
# runs, and a queue's CU mask (hsa_amd_queue_cu_set_mask) is split over the XCCs as the
# kernel's MQD manager for GC 9.4.3 does: XCC x takes the mask's bits x, x + N, ... (N XCCs)
# (sim_xcc_client.c says what is checked). ROCR 5.2.3 does not know gfx942: ours only.
# Skipped (77) without clang-19.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
command -v clang-19 > /dev/null || { echo "clang-19 is not installed (apt install clang-19)"; exit 77; }
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
work=$BUILD/tests/sim_xcc
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" -o "$work/client" \
  "$SRCDIR/tests/integration/sim_xcc_client.c" -L"$BUILD/lib" -lhsa-runtime64 ||
  fail "cannot build the client"
cat > "$work/ids.cl" <<'CL'
/* HW_REG_XCC_ID (id 20, bits 3:0) and HW_REG_HW_ID (id 4, 32 bits) of each work-group */
kernel void ids(global uint *out)
{
  if (__builtin_amdgcn_workitem_id_x() == 0) {
    uint g = __builtin_amdgcn_workgroup_id_x();
    out[2 * g] = __builtin_amdgcn_s_getreg(20 | 3 << 11);
    out[2 * g + 1] = __builtin_amdgcn_s_getreg(4 | 31 << 11);
  }
}
CL
clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -mcode-object-version=4 \
  -nogpulib -O2 -o "$work/ids.co" "$work/ids.cl" || fail "clang-19 cannot compile the kernel"
boards="gfx942:8 gfx942-apu:6"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && boards="gfx942:8"
for b in $boards; do
  g=${b%:*} n=${b#*:}
  rc=0
  LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$sim" --gpu $g -- "$work/client" "$work/ids.co" $n \
    > "$work/out.$g" 2> "$work/err.$g" || rc=$?
  cat "$work/out.$g"
  for c in xcc_all xcc_first_cu xcc_se1_cu0 xcc_cu0_all_se xcc_cu1_se0 xcc_odd_bits; do
    grep -q "^$c ok" "$work/out.$g" || { echo "FAIL: $g: $c: $(grep "^$c " "$work/out.$g" || echo missing)"; rc=1; }
  done
  [ $rc -eq 0 ] || { tail -n 5 "$work/err.$g"; exit 1; }
done
echo "ok: 64 work-groups over 8 XCCs (gfx942) and 6 (gfx942-apu) under 6 CU masks (ours)"

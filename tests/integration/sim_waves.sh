#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_waves.sh — where the simulator runs waves and how it stops them, on Debian's ROCR 5.2.3
# and on ours (sim_waves_client.c): work-groups spread over the CUs a queue's CU mask allows
# and HW_REG_HW_ID names them (gfx900: 4 SE x 16 CUs; gfx906: 15 CUs per SE; gfx90a: 8 SEs);
# a queue running a kernel that never ends is destroyed within a second (the driver preempts
# its waves) and a new queue works afterwards; hsa_shut_down with such a queue alive returns
# within a second; a process that ends with such a kernel running ends at once. On ours also
# gfx1100 and gfx1201 (clang-19; WGP mode: CU masks in pairs, HW_REG_HW_ID1's SE, SA and WGP)
# and gfx942/gfx942-apu (the preemption checks; their CU masks are sim_xcc.sh's); under
# HSA_TEST_LIGHT=1 gfx1201 alone of these.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init sim_waves
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK

${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/sim_waves_client.c" -L"$BUILD/lib" -lhsa-runtime64 ||
  fail "cannot build the client"
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
command -v clang-15 > /dev/null || fail "clang-15 is not installed"
[ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
cat > "$work/waves.cl" <<'CL'
__kernel void spin(__global volatile uint *flag, __global volatile uint *started)
{
  if (get_local_id(0) == 0)
    atomic_inc(started);
  while (*flag == 0)
    ;
}
/* s_getreg_b32 hwreg(HW_REG_HW_ID): id 4, offset 0, 32 bits (gfx11+: HW_REG_HW_ID1, id 23) */
#if defined(__gfx1100__) || defined(__gfx1201__)
#define HW_ID_REG 23
#else
#define HW_ID_REG 4
#endif
__kernel void cuid(__global uint *out)
{
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = __builtin_amdgcn_s_getreg(HW_ID_REG | 31 << 11);
}
CL
for g in gfx900 gfx906 gfx90a; do
  clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
    -mcpu=$g -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
    -o "$work/waves.$g.co" "$work/waves.cl" || fail "cannot compile the kernels for $g"
done

more=""
if command -v clang-19 > /dev/null && command -v llvm-as-19 > /dev/null; then
  . "$SRCDIR/tests/integration/lib/devlibs19.sh"
  devlibs19_make "$work/devlibs19" "$devlibs" gfx942 gfx1100 gfx1201
  more="gfx942 gfx942-apu gfx1100 gfx1201"
  [ "${HSA_TEST_LIGHT:-0}" = 1 ] && more="gfx1201"
  . "$SRCDIR/tests/integration/lib/kcache.sh"
  KCACHE_TMP=$work
  for g in $more; do
    cpu=${g%-apu}
    [ -f "$work/waves.$cpu.co" ] ||
      kcache "$work/waves.$cpu.co" clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
        -target amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=4 \
        --rocm-device-lib-path="$work/devlibs19" -O2 -Wno-linker-warnings -o "$work/waves.$cpu.co" \
        "$work/waves.cl" || fail "cannot compile the kernels for $g"
    [ -f "$work/waves.$g.co" ] || ln -s "waves.$cpu.co" "$work/waves.$g.co"
  done
else
  echo "clang-19 or llvm-as-19 is not installed: gfx942, gfx1100 and gfx1201 are not checked"
fi

status=0
checks="cu_all cu_mask_one cu_mask_se1 cu_mask_two cu_mask_second_cus cu_mask_high spin_started destroy_prompt after_destroy shut_down"
for g in gfx900 gfx906 gfx90a; do
  for lib in rocr ours; do
    if [ $lib = rocr ]; then libdir=$rocr_lib; else libdir=$BUILD/lib; fi
    out=$work/$lib.$g
    LD_LIBRARY_PATH=$libdir timeout 120 "$sim" --gpu $g -- "$work/client" "$work/waves.$g.co" \
      > "$out" 2> "$out.err"
    rc=$?
    for c in $checks; do
      grep -q "^$c ok" "$out" || { echo "$lib $g: $c: $(grep "^$c " "$out" || echo missing)"; status=1; }
    done
    [ $rc -eq 0 ] || { echo "$lib $g: client exited $rc: $(tail -n 3 "$out.err")"; status=1; }
    # the process ends although its kernel never does
    start=$(date +%s)
    LD_LIBRARY_PATH=$libdir timeout 60 "$sim" --gpu $g -- "$work/client" "$work/waves.$g.co" exit \
      > "$out.exit" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    grep -q '^exit_spin_started ok' "$out.exit" && [ $rc -eq 0 ] && [ $secs -lt 20 ] ||
      { echo "$lib $g: exit with a running kernel: exit $rc after $secs s: $(tail -n 3 "$out.exit")"; status=1; }
    LD_LIBRARY_PATH=$libdir timeout 60 "$sim" --gpu $g -- "$work/client" "$work/waves.$g.co" shutdown \
      > "$out.shutdown" 2>&1 ||
      { echo "$lib $g: hsa_shut_down with a running kernel: $(tail -n 3 "$out.shutdown")"; status=1; }
    grep -q '^shutdown_prompt ok' "$out.shutdown" || { echo "$lib $g: no shutdown_prompt ok"; status=1; }
  done
done
for g in $more; do
  mode="" c=$checks
  case $g in gfx942*) mode=nocu c="spin_started destroy_prompt shut_down" ;; esac
  out=$work/ours.$g
  LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$sim" --gpu $g -- "$work/client" "$work/waves.$g.co" $mode \
    > "$out" 2> "$out.err"
  rc=$?
  for k in $c; do
    grep -q "^$k ok" "$out" || { echo "ours $g: $k: $(grep "^$k " "$out" || echo missing)"; status=1; }
  done
  [ $rc -eq 0 ] || { echo "ours $g: client exited $rc: $(tail -n 3 "$out.err")"; status=1; }
  LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$sim" --gpu $g -- "$work/client" "$work/waves.$g.co" shutdown \
    > "$out.shutdown" 2>&1 ||
    { echo "ours $g: hsa_shut_down with a running kernel: $(tail -n 3 "$out.shutdown")"; status=1; }
  grep -q '^shutdown_prompt ok' "$out.shutdown" || { echo "ours $g: no shutdown_prompt ok"; status=1; }
done
[ $status -eq 0 ] && echo "ok: CU masks, HW_ID, preemption on destroy and exit, ROCR 5.2.3 and ours on gfx900, gfx906, gfx90a; ours on $more"
exit $status

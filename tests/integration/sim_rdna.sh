#!/bin/sh
# SPDX-License-Identifier: MIT
# RDNA3/RDNA4 without shaders: Debian's rocminfo on OUR library under hsa-sim --gpu gfx1100
# (Radeon RX 7900 XTX) and --gpu gfx1201 (RX 9070 XT) shows two boards as the kernel reports
# them (name, CUs, wave32, chip id, ISA name). rdna_client.c, on two boards: an AQL queue on
# each, accepted by the model's CWSR/EOP/MES rules (the write pointer on the GPU's own
# memory), CU masks in WGP pairs (half a pair refused), 5 MiB copied host -> device -> host
# over SDMA v6/v7 (GCR-wrapped) and a fill of device memory, against the host's bytes; our
# gfx11/gfx12 trap handler installed (no "no trap handler" line; trap_device.sh runs it), or
# that line when the build had no llvm-mc for them. mem_rect_client.c's rectangles (hsa_amd_memory_async_copy_rect,
# gfx12's own sub-window layout) against the host.
# Env: BUILD, SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
work=$BUILD/tests/sim_rdna
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
${CC:-cc} -std=gnu11 -O1 -I"$SRCDIR/include/hsa" -o "$work/client" \
  "$SRCDIR/tests/integration/rdna_client.c" -L"$BUILD/lib" -lhsa-runtime64 || fail "cannot build the client"
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/rect" \
  "$SRCDIR/tests/integration/mem_rect_client.c" -L"$BUILD/lib" -lhsa-runtime64 || fail "cannot build the rect client"
models="gfx1100 gfx1201"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && models=gfx1201
for m in $models; do
  case $m in
    gfx1100) cus=96 chip=0x744c ;;
    gfx1201) cus=64 chip=0x7550 ;;
  esac
  if command -v rocminfo > /dev/null; then
    LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$sim" --gpu $m --gpus 2 -- rocminfo > "$work/$m.rocminfo" 2>&1 ||
      fail "rocminfo on $m exited $?: $(tail -n 3 "$work/$m.rocminfo")"
    r=$work/$m.rocminfo
    [ "$(grep -c "^  Name: *$m *\$" "$r")" = 2 ] || fail "$m: rocminfo does not list two $m agents"
    [ "$(grep -c "Compute Unit: *$cus *\$" "$r")" = 2 ] || fail "$m: not $cus CUs"
    [ "$(grep -c 'Wavefront Size: *32(0x20)' "$r")" = 2 ] || fail "$m: wave size is not 32"
    grep -q "Chip ID: *[0-9]*($chip)" "$r" || fail "$m: chip id is not $chip"
    grep -q "Name: *amdgcn-amd-amdhsa--$m *\$" "$r" || fail "$m: ISA name is not amdgcn-amd-amdhsa--$m"
    echo "ok rocminfo on our library: two $m boards, $cus CUs, wave32, chip $chip"
  fi
  LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$sim" --gpu $m --gpus 2 -- "$work/client" > "$work/$m.out" 2>&1
  rc=$?
  grep -v '^\[hsa-sim' "$work/$m.out" | sed "s/^/$m: /"
  [ $rc = 0 ] || fail "the client on $m exited $rc"
  [ "$(grep -c '^ok' "$work/$m.out")" = 7 ] || fail "the client on $m did not finish"
  if [ -n "$(sed -n 's/^LLVM_MC_RDNA *:= *//p' "$BUILD/config.mk")" ]; then
    ! grep -q "no trap handler for $m" "$work/$m.out" || fail "$m: no trap handler was installed"
  else   # built without llvm-mc 18+: the runtime says it has none
    grep -q "no trap handler for $m" "$work/$m.out" || fail "$m: the missing trap handler was not said"
  fi
  # rectangles over SDMA in the chip's sub-window layout (gfx12's own), against the host
  LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$sim" --gpu $m -- "$work/rect" > "$work/$m.rect" 2>&1 ||
    fail "the rect client on $m exited $?"
  n=$(grep -c 'bytes as the host computes=1$' "$work/$m.rect")
  [ "$n" -ge 7 ] && ! grep -q 'bytes as the host computes=0' "$work/$m.rect" ||
    fail "$m: rectangle copies differ from the host's ($n right): $(grep 'computes=0' "$work/$m.rect" | head -n 3)"
  echo "ok $m: $n rectangle copies as the host computes them"
done
echo ok

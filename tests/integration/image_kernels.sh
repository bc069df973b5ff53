#!/bin/sh
# SPDX-License-Identifier: MIT
# OpenCL C image kernels (image_kernels.cl, clang-15 with the device libraries: read_imagef/
# read_imagei/read_imageui with integer coordinates and with sampler arguments, write_imagef/
# write_imagei) over 1D, 2D, 3D, 1D/2D arrays, 1D buffers (buffer_*_format) and rgba8, rgba16
# unorm, r32f, rgba16f, r32i,
# dispatched through the HSA image API (image_client.c: hsa_ext_image_create + _import, _copy, _clear,
# _export, _create_with_layout LINEAR, hsa_ext_sampler_create; the handles are the kernel
# arguments) under hsa-sim on gfx900, gfx906 and gfx90a (HSA_TEST_LIGHT=1: gfx900): on
# Debian's ROCR 5.2.3, which implements the image
# extension, and on ours when hsa_system_extension_supported(HSA_EXTENSION_IMAGES) says yes
# (else "skip ours: images not implemented"). Every result against the client's host
# reference of the OpenCL C rules: bit-exact for integer coordinates, nearest sampling and
# stores; linear filtering within 1/256 of the blended texels' span.
# timeout: 300
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init image_kernels
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_devlibs
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
T=$SRCDIR/tests/integration
cpus="gfx900 gfx906 gfx90a"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && cpus=gfx900   # the representative model only
${CC:-cc} -std=gnu11 -O1 -I"$SRCDIR/include" -I"$T" -o "$work/client" "$T/image_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 -lm || fail "cannot build the client"

status=0
ours=1
LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$sim" -- "$work/client" --probe > "$work/probe.log" 2>&1
if [ $? = 3 ]; then echo "skip ours: images not implemented"; ours=0; fi
for cpu in $cpus; do
  clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$cpu" -O2 \
    --rocm-device-lib-path="$devlibs" -o "$work/kernels-$cpu.co" "$T/image_kernels.cl" ||
    fail "cannot compile image_kernels.cl for $cpu"
  # ROCR 5.2.3, the peer: the image extension runs its own blit kernels (import/export) on
  # the simulator too
  LD_LIBRARY_PATH=$rocr_lib timeout 240 "$sim" --gpu "$cpu" -- "$work/client" "$work/kernels-$cpu.co" \
    > "$work/rocr-$cpu.log" 2>&1
  rc=$?
  grep -v '^ok \|checks, ' "$work/rocr-$cpu.log" | head -n 30
  echo "rocr $cpu: $(grep -c '^ok ' "$work/rocr-$cpu.log") passed; $(tail -n 1 "$work/rocr-$cpu.log") [exit $rc]"
  [ $rc = 0 ] || { echo "FAIL: the image kernels on ROCR 5.2.3 ($cpu)"; status=1; }

  [ $ours = 1 ] || continue
  LD_LIBRARY_PATH=$BUILD/lib timeout 240 "$sim" --gpu "$cpu" -- "$work/client" "$work/kernels-$cpu.co" \
    > "$work/ours-$cpu.log" 2>&1
  rc=$?
  grep -v '^ok \|checks, ' "$work/ours-$cpu.log" | head -n 30
  echo "ours $cpu: $(grep -c '^ok ' "$work/ours-$cpu.log") passed; $(tail -n 1 "$work/ours-$cpu.log") [exit $rc]"
  [ $rc = 0 ] || { echo "FAIL: the image kernels on our runtime ($cpu)"; status=1; }
done

# gfx1100 (RDNA3) and gfx1201 (RDNA4): clang-19 with the device libraries devlibs19.sh
# completes, on ours only (ROCR 5.2.3 knows neither); not under HSA_TEST_LIGHT=1 (one model:
# gfx900 above), and gfx1201 not under HSA_TEST_SANITIZED=1 either
if [ $ours = 1 ] && [ "${HSA_TEST_LIGHT:-0}" != 1 ] && command -v clang-19 > /dev/null &&
   command -v llvm-as-19 > /dev/null; then
  . "$SRCDIR/tests/integration/lib/devlibs19.sh"
  rdna="gfx1100 gfx1201"; [ "${HSA_TEST_SANITIZED:-0}" = 1 ] && rdna=gfx1100
  # shellcheck disable=SC2086
  devlibs19_make "$work/devlibs19" "$devlibs" $rdna
  for cpu in $rdna; do
    clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=4 \
      -O2 --rocm-device-lib-path="$work/devlibs19" -Wno-linker-warnings \
      -o "$work/kernels-$cpu.co" "$T/image_kernels.cl" || fail "cannot compile image_kernels.cl for $cpu"
    LD_LIBRARY_PATH=$BUILD/lib timeout 240 "$sim" --gpu $cpu -- "$work/client" \
      "$work/kernels-$cpu.co" > "$work/ours-$cpu.log" 2>&1
    rc=$?
    grep -v '^ok \|checks, ' "$work/ours-$cpu.log" | head -n 30
    echo "ours $cpu: $(grep -c '^ok ' "$work/ours-$cpu.log") passed; $(tail -n 1 "$work/ours-$cpu.log") [exit $rc]"
    [ $rc = 0 ] || { echo "FAIL: the image kernels on our runtime ($cpu)"; status=1; }
  done
fi
exit $status

#!/bin/sh
# SPDX-License-Identifier: MIT
# interop_drm.sh — a buffer another API made reaches an HSA kernel (interop_drm_client.c):
# libdrm_amdgpu allocates it on the simulated render node (AMDGPU_GEM_CREATE), maps it for
# the CPU (GEM_MMAP), exports it as a dma-buf (PRIME); hsa_amd_interop_map_buffer imports it
# through KFD (GET_DMABUF_INFO, IMPORT_DMABUF), a kernel rewrites it and the CPU mapping sees
# the result; AMDGPU_CTX contexts. On Debian's ROCR 5.2.3 and on ours, 1x gfx900 and 1x gfx90a;
# on ours also gfx942, gfx942-apu, gfx1100 and gfx1201 (kernels from clang-19; gfx1201 alone
# of these under HSA_TEST_LIGHT=1).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init interop_drm
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES

${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -I/usr/include/libdrm -o "$work/client" \
  "$SRCDIR/tests/integration/interop_drm_client.c" -L"$BUILD/lib" -lhsa-runtime64 \
  -ldrm_amdgpu -ldrm || fail "cannot build the client"
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
command -v clang-15 > /dev/null || fail "clang-15 is not installed"
[ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
cat > "$work/twice.cl" <<'CL'
__kernel void twice(__global uint *buf, uint n)
{
  size_t i = get_global_id(0);
  if (i < n)
    buf[i] = buf[i] * 2 + 1;
}
CL
status=0
checks="device_initialize ctx_create ctx_free ctx_high_priority gem_bad_flags gem_bad_domain gem_mmap_unknown"
for t in vram gtt; do
  checks="$checks ${t}_bo_alloc ${t}_cpu_map ${t}_export ${t}_interop_map ${t}_gpu_wrote_cpu_sees ${t}_interop_unmap ${t}_bo_free"
done
boards="gfx900 gfx90a"
if command -v clang-19 > /dev/null && command -v llvm-as-19 > /dev/null; then
  . "$SRCDIR/tests/integration/lib/devlibs19.sh"
  devlibs19_make "$work/devlibs19" "$devlibs" gfx942 gfx1100 gfx1201
  . "$SRCDIR/tests/integration/lib/kcache.sh"
  KCACHE_TMP=$work
  boards="$boards gfx942 gfx942-apu gfx1100 gfx1201"
  [ "${HSA_TEST_LIGHT:-0}" = 1 ] && boards="gfx900 gfx90a gfx1201"
else
  echo "clang-19 or llvm-as-19 is not installed: gfx942, gfx1100 and gfx1201 are not checked"
fi
for g in $boards; do
  case $g in
    gfx900|gfx906|gfx90a)
      clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
        -mcpu=$g -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
        -o "$work/twice.$g.co" "$work/twice.cl" || fail "cannot compile the kernel for $g"
      libs="rocr ours" ;;
    *)   # ROCR 5.2.3 does not know these: ours only
      kcache "$work/twice.$g.co" clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
        -target amdgcn-amd-amdhsa -mcpu=${g%-apu} -mcode-object-version=4 \
        --rocm-device-lib-path="$work/devlibs19" -O2 -Wno-linker-warnings -o "$work/twice.$g.co" \
        "$work/twice.cl" || fail "cannot compile the kernel for $g"
      libs=ours ;;
  esac
  for lib in $libs; do
    if [ $lib = rocr ]; then libdir=$rocr_lib; else libdir=$BUILD/lib; fi
    out=$work/$lib.$g
    LD_LIBRARY_PATH=$libdir timeout 120 "$sim" --gpu $g --trace="$out.trace" -- "$work/client" \
      "$work/twice.$g.co" > "$out" 2> "$out.err"
    rc=$?
    for c in $checks shut_down; do
      grep -q "^$c ok" "$out" || { echo "$lib $g: $c: $(grep "^$c " "$out" || echo missing)"; status=1; }
    done
    [ $rc -eq 0 ] || { echo "$lib $g: client exited $rc: $(tail -n 3 "$out.err")"; status=1; }
    grep -q 'IMPORT_DMABUF.* = 0' "$out.trace" || { echo "$lib $g: no KFD dma-buf import traced"; status=1; }
  done
done
[ $status -eq 0 ] && echo "ok: render-node buffers imported by ROCR 5.2.3 and ours, written by a kernel, seen by the CPU ($boards)"
exit $status

#!/bin/sh
# SPDX-License-Identifier: MIT
# svm_gpu.sh — SVM memory reaches the simulated GPU as the kernel maps it: a kernel (OpenCL,
# compiled here with clang-15) reads and writes posix_memalign'd memory registered with
# hsa_amd_svm_attributes_set, after set-attribute, after hsa_amd_svm_prefetch_async to the GPU
# and back, and SDMA copies go from and to it (svm_gpu_client.c checks every result against
# the host), on ours and on ROCR 5.2.3, on gfx900 and gfx90a; on gfx90a with HSA_XNACK=1 the
# kernel reaches memory no attribute was set on (the driver services the retry faults). The
# access checks also run on ours on gfx942, gfx942-apu, gfx1100 and gfx1201 (kernels from
# clang-19 with the device libraries as devlibs19.sh makes them; gfx1201 alone under
# HSA_TEST_LIGHT=1).
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init svm_gpu
command -v clang-15 > /dev/null || { echo "clang-15 is not installed"; exit 77; }
devlibs=""
for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && devlibs=$d; done
[ -n "$devlibs" ] || { echo "rocm-device-libs is not installed"; exit 77; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_XNACK
src=$SRCDIR/tests/integration/svm_gpu_client.c
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" "$src" -L"$BUILD/lib" -lhsa-runtime64 \
  || fail "cannot build the client"
for t in gfx900 gfx90a; do
  clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$t -O2 \
    --rocm-device-lib-path="$devlibs" -o "$work/$t.co" "$SRCDIR/tests/integration/svm_gpu.cl" \
    || fail "cannot compile svm_gpu.cl for $t"
done

status=0
run() { # name lib-dir gpu mode [env...]
  name=$1 lib=$2 gpu=$3 mode=$4
  shift 4
  env LD_LIBRARY_PATH="$lib" "$@" timeout 120 "$sim" --gpu "$gpu" -- "$work/client" "$mode" \
    "$work/$gpu.co" > "$work/$name.out" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^ok done$' "$work/$name.out"; then
    echo "FAIL $name (exit $rc):"; cat "$work/$name.out"; status=1
  else
    echo "PASS $name: $(grep -c '^ok ' "$work/$name.out") checks"
  fi
}
for gpu in gfx900 gfx90a; do
  run "ours-$gpu" "$BUILD/lib" $gpu access
  run "rocr-$gpu" "$rocr_lib" $gpu access
done
if command -v clang-19 > /dev/null && command -v llvm-as-19 > /dev/null; then
  . "$SRCDIR/tests/integration/lib/devlibs19.sh"
  devlibs19_make "$work/devlibs19" "$devlibs" gfx942 gfx1100 gfx1201
  . "$SRCDIR/tests/integration/lib/kcache.sh"
  KCACHE_TMP=$work
  more="gfx942 gfx942-apu gfx1100 gfx1201"
  [ "${HSA_TEST_LIGHT:-0}" = 1 ] && more=gfx1201
  for gpu in $more; do
    cpu=${gpu%-apu}
    [ -f "$work/$cpu.co" ] || kcache "$work/$cpu.co" clang-19 -x cl -cl-std=CL2.0 \
      -Xclang -finclude-default-header -target amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=4 \
      -Wno-linker-warnings -O2 --rocm-device-lib-path="$work/devlibs19" -o "$work/$cpu.co" \
      "$SRCDIR/tests/integration/svm_gpu.cl" || fail "cannot compile svm_gpu.cl for $gpu"
    [ -f "$work/$gpu.co" ] || ln -s "$cpu.co" "$work/$gpu.co"
    run "ours-$gpu" "$BUILD/lib" $gpu access
  done
else
  echo "clang-19 or llvm-as-19 is not installed: gfx942, gfx1100 and gfx1201 are not checked"
fi
run ours-gfx90a-xnack "$BUILD/lib" gfx90a xnack HSA_XNACK=1
run rocr-gfx90a-xnack "$rocr_lib" gfx90a xnack HSA_XNACK=1
# GPU writes the pages do not allow: permission faults (READ_ONLY attribute, PROT_READ memory)
# and a missing page (NO_ACCESS), on gfx900
for mode in readonly protread noaccess; do
  run "ours-$mode" "$BUILD/lib" gfx900 $mode SVM_CLIENT_OURS=1
  run "rocr-$mode" "$rocr_lib" gfx900 $mode
done
# The client's system event handler returns SUCCESS (it handled the fault, as ROCR lets a
# handler do), so ours must not print its own fault message; the reason came to the handler.
if grep -q "Memory access fault by GPU" "$work/ours-readonly.out"; then
  echo "FAIL ours-readonly: the runtime printed its fault message although a handler took the event"; status=1
fi
[ $status -eq 0 ] && echo "SVM memory reaches the GPU by attribute, prefetch, SDMA and retry fault, on ours and ROCR 5.2.3"
exit $status

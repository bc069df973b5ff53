#!/bin/sh
# SPDX-License-Identifier: MIT
# scratch_rdna.sh — scratch growth on RDNA3/RDNA4 under hsa-sim --gpu gfx1100 / gfx1201, in
# wave32 (the default) and wave64 (-mwavefrontsize64): scratch_client.c runs priv_small (256
# bytes of private array a work-item), priv_big (16 KiB) and priv_small again on one queue
# created without scratch, every result against the host's; the simulator's trace shows the
# CP asking for scratch twice (the queue had none, then too little), with code 0x400 for
# wave32 and 0x1 for wave64, and the runtime grows it each time. Kernels from clang-19 with
# the device libraries devlibs19.sh makes. Also gfx942 (MI300X, wave64): the same growth with
# its scratch split over 8 XCCs (the runtime's WAVES count one XCC's share). HSA_TEST_LIGHT=1:
# gfx1201 alone.
# timeout: 300
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
for t in clang-19 llvm-as-19; do
  command -v $t > /dev/null || { echo "$t is not installed (apt install clang-19 llvm-19)"; exit 77; }
done
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
bitcode=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && echo "$d"; done | head -n 1)
[ -n "$bitcode" ] || { echo "rocm-device-libs is not installed"; exit 77; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
work=$BUILD/tests/scratch_rdna
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
. "$SRCDIR/tests/integration/lib/devlibs19.sh"
devlibs19_make "$work/devlibs" "$bitcode" gfx942 gfx1100 gfx1201
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" -o "$work/client" \
  "$SRCDIR/tests/integration/scratch_client.c" -L"$BUILD/lib" -lhsa-runtime64 \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
gpus="gfx942 gfx1100 gfx1201"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && gpus=gfx1201
for gpu in $gpus; do
  waves="32 64"
  [ $gpu = gfx942 ] && waves=64   # gfx9: wave64 only, without the flag
  for wave in $waves; do
    flag="" code=0x400
    [ $wave = 64 ] && flag=-mwavefrontsize64 code=0x1
    [ $gpu = gfx942 ] && flag=""
    co=$work/$gpu.w$wave.co
    # shellcheck disable=SC2086
    clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
      -mcpu=$gpu -mcode-object-version=4 --rocm-device-lib-path="$work/devlibs" -O2 \
      -Wno-linker-warnings $flag -o "$co" "$SRCDIR/tests/integration/scratch_kernels.cl" ||
      fail "clang-19 cannot compile scratch_kernels.cl for $gpu wave$wave"
    out=$work/$gpu.w$wave.out
    timeout 120 "$sim" --gpu $gpu --trace="$out.trace" -- "$work/client" "$co" > "$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc = 0 ] || fail "$gpu wave$wave: the client exited $rc"
    [ "$(grep -c '^ok' "$out")" = 4 ] || fail "$gpu wave$wave: the client did not finish"
    n=$(grep -c "asks for scratch (code $code)" "$out.trace")
    [ "$n" = 2 ] || fail "$gpu wave$wave: the CP asked for scratch with code $code $n times, not 2"
    ! grep "asks for scratch" "$out.trace" | grep -qv "code $code)" ||
      fail "$gpu wave$wave: a scratch request with another code than $code"
    echo "ok $gpu wave$wave: scratch grown twice (code $code), results as the host's"
  done
done
echo ok

#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 120
# sysevent.sh — hsa_amd_register_system_event_handler (sysevent_client.c) on ROCR 5.2.3 and on
# ours under hsa-sim: a kernel's store to an unmapped address reaches both registered handlers
# once as a memory fault event of the GPU at that page, not present; the two runtimes give the
# same reason mask, and ours prints no fault message of its own once a handler took it. The
# simulator's SMI events tell the fault to a reader of the GPU's SMI descriptor, as text.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init sysevent
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
command -v clang-15 > /dev/null || fail "clang-15 is not installed"
[ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" \
  -I"$SRCDIR/src/kfd/shim" -I/usr/include/libdrm -o "$work/client" "$SRCDIR/tests/integration/sysevent_client.c" -L"$BUILD/lib" \
  -lhsa-runtime64 || fail "cannot build the client"
cat > "$work/poke.cl" <<'CL'
__kernel void poke(__global volatile uint *p)
{
  *p = 1;
}
CL
clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
  -mcpu=gfx900 -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
  -o "$work/poke.co" "$work/poke.cl" || fail "cannot compile the kernel"
for lib in rocr ours; do
  if [ $lib = rocr ]; then libdir=$rocr_lib; else libdir=$BUILD/lib; fi
  LD_LIBRARY_PATH=$libdir timeout 60 "$sim" -- "$work/client" "$work/poke.co" \
    > "$work/$lib.out" 2> "$work/$lib.err" ||
    fail "$lib: $(grep -v ' ok$' "$work/$lib.out") $(tail -n 3 "$work/$lib.err")"
  [ "$(grep -c ' ok$' "$work/$lib.out")" -eq 8 ] || fail "$lib: $(cat "$work/$lib.out")"
done
[ "$(grep reason_mask "$work/rocr.out")" = "$(grep reason_mask "$work/ours.out")" ] ||
  fail "reason masks differ: ROCR $(grep reason_mask "$work/rocr.out"), ours $(grep reason_mask "$work/ours.out")"
! grep -q 'Memory access fault' "$work/ours.err" || fail "ours printed its message although a handler took the fault"
echo "ok: memory fault reaches both handlers once, on ROCR 5.2.3 and ours ($(grep reason_mask "$work/ours.out"))"

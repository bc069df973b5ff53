#!/bin/sh
# SPDX-License-Identifier: MIT
# sim_dispatch_rocr_vs_ours.sh — the client of sim_dispatch_rocr.sh (barriers, copies, a queue
# error, a vector-add kernel) run on our runtime under hsa-sim must pass the same checks as
# Debian's ROCR 5.2.3 does on the same simulated GPU.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init sim_dispatch_rocr_vs_ours
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
[ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/sim_dispatch_client.c" "$rocr" -Wl,-rpath,"$(dirname "$rocr")" ||
  fail "cannot build the client"
cat > "$work/vadd.cl" <<'CL'
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
CL
clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
  -mcpu=gfx900 -mcode-object-version=4 --rocm-device-lib-path="$devlibs" -O2 \
  -o "$work/vadd.co" "$work/vadd.cl" || fail "cannot compile the kernel"
timeout 120 "$sim" -- "$work/client" "$work/vadd.co" vadd.kd > "$work/rocr" 2>&1 ||
  fail "ROCR: $(grep FAIL "$work/rocr")"
LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$sim" -- "$work/client" "$work/vadd.co" vadd.kd \
  > "$work/ours" 2> "$work/ours.err" || fail "ours: $(grep FAIL "$work/ours") $(tail -n 3 "$work/ours.err")"
diff "$work/rocr" "$work/ours" || fail "our runtime's checks differ from ROCR's"
echo "ok: $(wc -l < "$work/ours") checks alike"

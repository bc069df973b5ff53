#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 120
# contiguous_vram.sh — HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG (KFD 1.16) on the simulator
# (contiguous_client.c): at 1.16 and 1.18 a VRAM allocation with the flag is a buffer object
# the driver made VRAM_CONTIGUOUS (read back with libdrm's amdgpu_bo_query_info from the
# render node), an ordinary one is not, and bytes round-trip through it; at 1.15 it is refused
# with OUT_OF_RESOURCES and a message. System memory takes the flag and ignores it. ~5 s.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init contiguous_vram
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" \
  -I/usr/include/libdrm -o "$work/client" "$SRCDIR/tests/integration/contiguous_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 -ldrm_amdgpu -ldrm -Wl,-rpath,"$BUILD/lib" ||
  fail "cannot build the client"
for m in 15 16 18; do
  timeout 60 "$sim" --kfd-version 1.$m -- "$work/client" $m > "$work/out.$m" 2> "$work/err.$m" ||
    fail "1.$m: $(grep -v ' ok$' "$work/out.$m") $(tail -n 3 "$work/err.$m")"
  want=7; [ $m -lt 16 ] && want=3
  [ "$(grep -c ' ok$' "$work/out.$m")" -eq $want ] || fail "1.$m: checks missing: $(cat "$work/out.$m")"
done
grep -q 'needs KFD interface 1.16' "$work/err.15" || fail "no message at 1.15: $(cat "$work/err.15")"
echo "ok: contiguous VRAM from KFD 1.16 (the driver's object is VRAM_CONTIGUOUS), refused at 1.15"

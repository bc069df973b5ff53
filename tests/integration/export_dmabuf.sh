#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 120
# export_dmabuf.sh — hsa_amd_portable_export_dmabuf/_close_dmabuf on the simulator
# (export_dmabuf_client.c): refused at KFD 1.11 (Debian 12's kernel) with the argument checks
# still made; at 1.12 and 1.18 GPU memory exported by one process is mapped by another with
# hsa_amd_interop_map_buffer, read and answered across the two.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init export_dmabuf
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/export_dmabuf_client.c" -L"$BUILD/lib" -lhsa-runtime64 \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
for m in 11 12 18; do
  timeout 60 "$sim" --kfd-version 1.$m -- "$work/client" $m > "$work/out.$m" 2> "$work/err.$m" ||
    fail "1.$m: $(grep -v ' ok$' "$work/out.$m") $(tail -n 3 "$work/err.$m")"
  want=17; [ $m -lt 12 ] && want=6
  [ "$(grep -c ' ok$' "$work/out.$m")" -eq $want ] || fail "1.$m: checks missing: $(cat "$work/out.$m")"
done
grep -q 'needs KFD interface 1.12' "$work/err.11" || fail "no message at 1.11: $(cat "$work/err.11")"
echo "ok: refused at 1.11; shared between two processes at 1.12 and 1.18"

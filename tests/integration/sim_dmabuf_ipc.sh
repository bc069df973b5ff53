#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 60
# sim_dmabuf_ipc.sh — KFD's EXPORT_DMABUF on the simulator at each --kfd-version level, by
# dmabuf_ipc_client.c through /dev/kfd and the render node alone: refused (EINVAL) at 1.11;
# from 1.12 on, VRAM exported by one process is imported by another (its own simulated
# driver) through KFD and the render node, read there, and its answer read back by the first.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
fail() { echo "FAIL: $*"; exit 1; }
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "the client is built here without sanitizers and hsa-sim is preloaded into it"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || fail "$sim is not built"
work=$BUILD/tests/sim_dmabuf_ipc
rm -rf "$work" && mkdir -p "$work"
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/src/kfd/shim" \
  -I/usr/include/libdrm -o "$work/client" "$SRCDIR/tests/integration/dmabuf_ipc_client.c" ||
  fail "cannot build the client"
# the default level is the newest (1.18, today's kernels): export works with no option
timeout 30 "$sim" -- "$work/client" 18 > "$work/out.default" 2>&1 ||
  fail "default level: $(grep -v ' ok$' "$work/out.default")"
[ "$(grep -c ' ok$' "$work/out.default")" -eq 8 ] ||
  fail "default level: checks missing: $(cat "$work/out.default")"
for m in 11 12 14 18; do
  timeout 30 "$sim" --kfd-version 1.$m -- "$work/client" $m > "$work/out.$m" 2>&1 ||
    fail "1.$m: $(grep -v ' ok$' "$work/out.$m")"
  want=8; [ $m -lt 12 ] && want=2
  [ "$(grep -c ' ok$' "$work/out.$m")" -eq $want ] || fail "1.$m: checks missing: $(cat "$work/out.$m")"
done
"$sim" --kfd-version 1.19 -- true 2> "$work/err.bad" && fail "--kfd-version 1.19 accepted"
grep -q 'kfd-version' "$work/err.bad" || fail "no message for --kfd-version 1.19"
echo "ok: export refused at 1.11, shared between two processes at 1.12, 1.14, 1.18 and the default (1.18)"

#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 60
# runtime_enable.sh — runtime enable at hsa_init (KFD 1.13+), as ROCR does, so a debugger can
# attach (runtime_enable_client.c on the simulator): at 1.13 and 1.18 a debugger of the
# process reads the runtime's _amdgpu_r_debug through DBG_TRAP ENABLE, with trap temporaries
# under HSA_ENABLE_DEBUG=1; the runtime is disabled at hsa_shut_down. At 1.12 there is no
# debugger interface and the runtime makes no RUNTIME_ENABLE call (hsa-sim's trace).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init runtime_enable
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" -I"$SRCDIR/src/kfd/shim" \
  -I/usr/include/libdrm \
  -o "$work/client" "$SRCDIR/tests/integration/runtime_enable_client.c" -L"$BUILD/lib" \
  -lhsa-runtime64 -ldl -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
run() {   # name minor [ttmp]
  timeout 30 env ${3:+HSA_ENABLE_DEBUG=1} "$sim" --kfd-version 1.$2 --trace="$work/$1.trace" -- \
    "$work/client" $2 ${3:-} > "$work/$1.out" 2>&1 || fail "$1: $(grep -v ' ok$' "$work/$1.out")"
}
run m12 12
[ "$(grep -c ' ok$' "$work/m12.out")" -eq 3 ] || fail "1.12: $(cat "$work/m12.out")"
! grep -q 'RUNTIME_ENABLE' "$work/m12.trace" || fail "1.12: RUNTIME_ENABLE was called"
for m in 13 18; do
  run m$m $m
  [ "$(grep -c ' ok$' "$work/m$m.out")" -eq 9 ] || fail "1.$m: $(cat "$work/m$m.out")"
  # the runtime's own enable comes before its first queue
  first=$(grep -n 'RUNTIME_ENABLE' "$work/m$m.trace" | head -n 1 | cut -d: -f1)
  queue=$(grep -n 'CREATE_QUEUE' "$work/m$m.trace" | head -n 1 | cut -d: -f1)
  [ -n "$first" ] && [ -n "$queue" ] && [ "$first" -lt "$queue" ] ||
    fail "1.$m: RUNTIME_ENABLE (line ${first:-none}) not before CREATE_QUEUE (line ${queue:-none})"
done
run ttmp 18 ttmp
[ "$(grep -c ' ok$' "$work/ttmp.out")" -eq 9 ] || fail "ttmp: $(cat "$work/ttmp.out")"
echo "ok: a debugger finds the runtime at 1.13 and 1.18 (and trap temporaries with HSA_ENABLE_DEBUG=1); none at 1.12"

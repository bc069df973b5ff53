#!/bin/sh
# SPDX-License-Identifier: MIT
# signal_ipc.sh — an IPC signal shared by two processes on our runtime under hsa-sim: the
# attacher sees the creator's value, and its store wakes the creator's blocked wait.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "the client is not built with sanitizers, so it cannot load the sanitized runtime"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "$sim is not built"; exit 1; }
unset LD_LIBRARY_PATH HSA_ENABLE_INTERRUPT
work=$BUILD/tests/signal_ipc
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" "$SRCDIR/tests/integration/signal_ipc_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 || fail "cannot build the client"
export LD_LIBRARY_PATH=$BUILD/lib

"$sim" -- "$work/client" create > "$work/creator.out" 2>&1 &
creator=$!
i=0
until grep -q '^handle ' "$work/creator.out" 2>/dev/null; do
  i=$((i + 1))
  [ $i -lt 200 ] || { kill $creator 2>/dev/null; fail "no handle: $(cat "$work/creator.out")"; }
  sleep 0.05
done
words=$(sed -n 's/^handle //p' "$work/creator.out")
# shellcheck disable=SC2086
"$sim" -- "$work/client" attach $words > "$work/attacher.out" 2>&1 || fail "attacher exited $?: $(cat "$work/attacher.out")"
wait $creator || fail "creator exited $?: $(cat "$work/creator.out")"
grep -q '^attach 0$' "$work/attacher.out" || fail "attach: $(cat "$work/attacher.out")"
grep -q '^attacher saw 7$' "$work/attacher.out" || fail "attacher value: $(cat "$work/attacher.out")"
grep -q '^creator saw 42$' "$work/creator.out" || fail "creator value: $(cat "$work/creator.out")"
grep -q '^shut_down 0$' "$work/creator.out" || fail "creator shutdown"
# a handle whose creator has gone names nothing
# shellcheck disable=SC2086
"$sim" -- "$work/client" attach $words > "$work/late.out" 2>&1
grep -q '^attach 4097$' "$work/late.out" || fail "attach after the creator exited: $(cat "$work/late.out")"
echo "ok"

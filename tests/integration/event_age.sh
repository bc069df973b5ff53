#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 120
# event_age.sh — blocking signal waits with and without KFD event age (event_age_client.c)
# on the simulator. At 1.14 and 1.18: two threads waiting on one signal race 400 stores and
# no wake-up is lost (none waits out its 3 s timeout, each store wakes both within 1 s), and an
# idle 400 ms wait is one or a few WAIT_EVENTS calls (no 10 ms slices). At 1.13 (no event age)
# the same idle wait is sliced: at least 20 calls. Counted from hsa-sim's --trace.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/sim.sh"
sim_init event_age
unset HSA_ENABLE_INTERRUPT
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/event_age_client.c" -L"$BUILD/lib" -lhsa-runtime64 -pthread \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
waits() { grep -c 'WAIT_EVENTS' "$1"; }
for m in 14 18; do
  timeout 60 "$sim" --kfd-version 1.$m -- "$work/client" race 400 > "$work/race.$m" 2>&1 ||
    fail "1.$m race: $(cat "$work/race.$m")"
  lost=$(sed -n 's/^lost //p' "$work/race.$m")
  worst=$(sed -n 's/^worst_ms //p' "$work/race.$m")
  [ "$lost" = 0 ] && [ "$worst" -lt 1000 ] || fail "1.$m: a wake-up was lost: $(cat "$work/race.$m")"
  timeout 30 "$sim" --kfd-version 1.$m --trace="$work/idle.$m.trace" -- "$work/client" idle 400 \
    > "$work/idle.$m" 2>&1 || fail "1.$m idle: $(cat "$work/idle.$m")"
  n=$(waits "$work/idle.$m.trace")
  [ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "1.$m: the idle wait took $n WAIT_EVENTS calls"
done
timeout 30 "$sim" --kfd-version 1.13 --trace="$work/idle.13.trace" -- "$work/client" idle 400 \
  > "$work/idle.13" 2>&1 || fail "1.13 idle: $(cat "$work/idle.13")"
n=$(waits "$work/idle.13.trace")
[ "$n" -ge 20 ] || fail "1.13: the idle wait took only $n WAIT_EVENTS calls (want 10 ms slices)"
echo "ok: no lost wake-up and no slices at 1.14/1.18 ($(waits "$work/idle.18.trace") call for 400 ms); sliced at 1.13 ($n calls)"

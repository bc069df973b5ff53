#!/bin/sh
# sim_dispatch_rocr.sh — Debian's ROCR 5.2.3 drives the simulator's command processor through
# the plain HSA API: barrier-AND/OR and barrier-value packets with host-set dependency
# signals, completion signals (ROCR waits on their KFD events), in-order processing; then a
# vector-add kernel compiled here with clang-15 for gfx900, checked on the host (skipped, not
# failed, while this build has no ISA interpreter).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into a client of Debian's ROCR, not built with sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
[ -x "$sim" ] || { echo "$sim is not built"; exit 1; }
[ -n "$rocr" ] || { echo "Debian's ROCR (libhsa-runtime64-1) is not installed"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
work=$BUILD/tests/sim_dispatch_rocr
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/sim_dispatch_client.c" "$rocr" -Wl,-rpath,"$(dirname "$rocr")" ||
  fail "cannot build the client"
timeout 120 "$sim" --trace="$work/trace" -- "$work/client" > "$work/out" 2> "$work/err"
rc=$?
cat "$work/out"
[ $rc -eq 0 ] || fail "client exited $rc: $(grep FAIL "$work/out") $(tail -n 5 "$work/err")"
for c in barrier_and_waits barrier_and_completes read_index_advances slot_invalidated \
         barrier_or_waits barrier_or_completes in_order in_order_completes batch_of_64 \
         barrier_value_waits barrier_value_completes; do
  grep -q "^$c ok" "$work/out" || fail "check $c missing"
done
echo "ok"

#!/bin/sh
# SPDX-License-Identifier: MIT
# copy_view.sh — copies and fills move the data the GPU sees, not what the CPU's view of a
# device buffer shows after a program mapped its own pages over it (copy_view_client.c), on
# our runtime and on Debian's ROCR 5.2.3 (the peer) under hsa-sim.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init copy_view
cc -O1 -g -I"$SRCDIR/include/hsa" -o "$work/client" "$SRCDIR/tests/integration/copy_view_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 || fail "cannot build the client"
for who in ours rocr; do
  lib=$BUILD/lib; [ $who = rocr ] && lib=$rocr_lib
  LD_LIBRARY_PATH=$lib timeout 120 "$sim" -- "$work/client" > "$work/$who.out" 2>&1
  rc=$?
  sed "s/^/$who: /" "$work/$who.out"
  [ $rc = 0 ] || fail "the client on $who exited $rc"
  [ "$(grep -c '^ok' "$work/$who.out")" = 6 ] || fail "the client on $who did not finish"
done
echo ok

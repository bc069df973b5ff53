#!/bin/sh
# SPDX-License-Identifier: MIT
# fail_inject.sh — every kernel call of the set-up paths refused once (hsa-sim --fail
# KIND:N:ENOMEM for N = 1..3) under fail_client.c: each refusal is an error status, a retry
# works, the GPU still runs a packet, and two cycles leave as many fds, threads and device
# mappings as a run without injection. Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: the sanitizer runtime's own threads and fds make the counts differ"; exit 77
fi
sim=$BUILD/bin/hsa-sim
work=$BUILD/tests/fail_inject
rm -rf "$work" && mkdir -p "$work"
cc -O1 -g -I"$SRCDIR/include/hsa" -o "$work/client" "$SRCDIR/tests/integration/fail_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
HSA_ENABLE_DRIVER_MESSAGES=0 timeout 60 "$sim" -- "$work/client" > "$work/clean.out" 2>&1 ||
  { cat "$work/clean.out"; fail "the client fails without injection"; }
want=$(grep '^counts' "$work/clean.out")
grep -q '^step' "$work/clean.out" && fail "a step failed without injection: $(cat "$work/clean.out")"
runs=0 met=0
# "absorbed": the refused call had a fallback that still works (an interrupt signal without
# an event polls; a refused event page turns interrupts off until the next hsa_init).
for kind in GET_PROCESS_APERTURES_NEW ACQUIRE_VM CREATE_EVENT ALLOC_MEMORY_OF_GPU \
            MAP_MEMORY_TO_GPU CREATE_QUEUE; do
  for n in 1 2 3; do
    out=$work/$kind-$n.out
    HSA_ENABLE_DRIVER_MESSAGES=0 timeout 60 "$sim" --fail "$kind:$n:ENOMEM" -- "$work/client" \
      > "$out" 2>&1
    rc=$?
    runs=$((runs + 1))
    [ $rc = 0 ] || { tail -n 5 "$out"; fail "--fail $kind:$n:ENOMEM: the client exited $rc"; }
    got=$(grep '^counts' "$out")
    [ "$got" = "$want" ] || fail "--fail $kind:$n:ENOMEM: $got, a clean run: $want"
    steps=$(grep '^step' "$out" | tr '\n' ';')
    [ -n "$steps" ] && met=$((met + 1))
    echo "$kind:$n ${steps:-absorbed (no step failed; the work still ran)}"
  done
done
echo "ok: $runs injections, $met met a step that failed and worked on retry"

#!/bin/sh
# SPDX-License-Identifier: MIT
# misuse.sh — the API misused on purpose (tests/integration/misuse_client.c: destroyed, stale
# and made-up handles of every kind, calls after hsa_shut_down, absurd sizes), each case in a
# child process of its own, under hsa-sim. On our runtime every case must give its expected
# result (the status the HSA spec or ROCR documents, or our documented value for calls
# without a status); Debian's ROCR 5.2.3 runs the same cases for information only (it
# crashes or aborts on many). Writes $work/table.md: case | ours | ROCR 5.2.3.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init misuse
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_ENABLE_INTERRUPT

${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include/hsa" -o "$work/client" \
  "$SRCDIR/tests/integration/misuse_client.c" -L"$BUILD/lib" -lhsa-runtime64 -lpthread ||
  fail "cannot build the client"

"$work/client" --list > "$work/cases" || fail "cannot list the cases"
ncases=$(wc -l < "$work/cases")
[ "$ncases" -ge 60 ] || fail "only $ncases cases"

LD_LIBRARY_PATH=$BUILD/lib "$sim" -- "$work/client" --check > "$work/ours.out" 2> "$work/ours.err"
rc=$?
[ "$(wc -l < "$work/ours.out")" = "$ncases" ] || fail "ours ran $(wc -l < "$work/ours.out") of $ncases cases"
# Every stale use without a status is named on stderr, once per handle.
grep -q 'hsa_signal_load_scacquire: signal 0x[0-9a-f]* was destroyed' "$work/ours.err" ||
  fail "no stderr message for a load of a destroyed signal"
LD_LIBRARY_PATH=$rocr_lib "$sim" -- "$work/client" > "$work/rocr.out" 2> "$work/rocr.err" ||
  echo "note: the ROCR run exited $?"

{
  echo "| case | ours | ROCR 5.2.3 |"
  echo "| --- | --- | --- |"
  awk -F'\t' 'FILENAME == ARGV[1] { what[$1] = $2; order[++n] = $1; next }
              FILENAME == ARGV[2] { ours[$1] = $2; next }
              { rocr[$1] = $2 }
              END { for (i = 1; i <= n; i++) { k = order[i]
                      printf "| %s | %s | %s |\n", what[k], ours[k], (k in rocr) ? rocr[k] : "-" } }' \
    "$work/cases" "$work/ours.out" "$work/rocr.out"
} > "$work/table.md"
cat "$work/table.md"
[ $rc = 0 ] || fail "ours gave unexpected results: $(grep MISMATCH "$work/ours.err")"
echo "ok ($ncases cases)"

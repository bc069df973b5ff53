#!/bin/sh
# SPDX-License-Identifier: MIT
# tools_lib.sh — HSA_TOOLS_LIB: a tool built here replaces the table entries of
# hsa_queue_create, hsa_signal_create and hsa_agent_get_info; a client run under hsa-sim
# makes a known number of calls. The tool's counts must equal the client's, its rewritten
# vendor name must reach the client, a library that fails to load must be reported and
# counted in OnLoad's failed list. The same tool and client on Debian's ROCR 5.2.3 must give
# the same report (the peer that says what a tool sees). Without the tool nothing changes.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init tools_lib
unset LD_LIBRARY_PATH HSA_TOOLS_LIB HSA_TOOLS_REPORT_LOAD_FAILURE ROCR_VISIBLE_DEVICES
cc=${CC:-cc}
$cc -std=gnu11 -shared -fPIC -I"$SRCDIR/include" -o "$work/tool.so" "$SRCDIR/tests/integration/tools_tool.c" ||
  fail "cannot build the tool"
$cc -std=gnu11 -I"$SRCDIR/include" -o "$work/client" "$SRCDIR/tests/integration/tools_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 || fail "cannot build the client"

run() { # libdir outname [HSA_TOOLS_LIB]
  TOOL_OUT=$work/$2.tool TOOL_NEWEST=$work/$2.newest HSA_TOOLS_LIB=${3:-} LD_LIBRARY_PATH=$1 "$sim" -- "$work/client" \
    > "$work/$2.out" 2> "$work/$2.err" || fail "client ($2) exited $?: $(tail -n 3 "$work/$2.err")"
}
tools="$work/missing-tool.so $work/tool.so"
run "$BUILD/lib" ours "$tools"
run "$rocr_lib" rocr "$tools"
run "$BUILD/lib" plain

# The tool saw exactly the client's calls, and (ours) the newest entries of the tables.
for api in queue_create signal_create agent_get_info; do
  want=$(sed -n "s/^client $api //p" "$work/ours.out")
  got=$(sed -n "s/^$api //p" "$work/ours.tool")
  [ -n "$want" ] && [ "$want" = "$got" ] || fail "$api: the client made $want calls, the tool counted '$got'"
done
grep -q "^failed 1 $work/missing-tool.so\$" "$work/ours.tool" || fail "failed list: $(cat "$work/ours.tool")"
grep -q '^version 1$' "$work/ours.tool" || fail "runtime version: $(cat "$work/ours.tool")"
grep -q '^core_size_ok 1$' "$work/ours.tool" || fail "core table version: $(cat "$work/ours.tool")"
grep -q 'missing-tool.so' "$work/ours.err" || fail "the failed load is not reported: $(cat "$work/ours.err")"
grep -q '^vendor TOOLED$' "$work/ours.out" || fail "the tool's answer did not reach the client"
grep -q '^vendor AMD$' "$work/ours.out" && fail "an agent_get_info call bypassed the tool"
grep -q '^load 1$' "$work/ours.out" || fail "hsa_signal_load_acquire: $(cat "$work/ours.out")"
# The newest ROCR's last table entries (after hsa_amd_enable_logging, and the image table's
# hsa_ext_sampler_create_v2) are there and answer as the exported functions.
[ "$(grep -c ' 1$' "$work/ours.newest")" -eq 6 ] || fail "newest table entries: $(cat "$work/ours.newest")"
# ROCR reports the same to the same tool, except that 5.2.3 leaves a library that did not
# load out of the failed list (later ROCR lists it, as ours does).
sed -i '/^failed /d' "$work/rocr.tool" "$work/ours.tool"
diff -u "$work/rocr.tool" "$work/ours.tool" || fail "the tool saw something else on ROCR"
diff -u "$work/rocr.out" "$work/ours.out" || fail "the client saw something else on ROCR"
# No tool: plain answers; the report stays quiet with HSA_TOOLS_REPORT_LOAD_FAILURE=0.
grep -q '^vendor AMD$' "$work/plain.out" || fail "without a tool: $(cat "$work/plain.out")"
HSA_TOOLS_REPORT_LOAD_FAILURE=0 run "$BUILD/lib" quiet "$work/missing-tool.so"
[ -s "$work/quiet.err" ] && fail "HSA_TOOLS_REPORT_LOAD_FAILURE=0 still reports: $(cat "$work/quiet.err")"
echo "ok"

#!/bin/sh
# SPDX-License-Identifier: MIT
# tools_aqlprofile.sh — the AQL profile extension's table comes from
# libhsa-amd-aqlprofile64.so. A stand-in library built here (AMD's is not in Debian) is put
# on the library path; a client asks for the table both ways, on ours and on Debian's ROCR
# 5.2.3 under hsa-sim, and both must answer the same: with the library, with a library of
# the wrong major version, and without one. Neither may write past ROCm 5.2's table.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init tools_aqlprofile
unset LD_LIBRARY_PATH HSA_TOOLS_LIB FAKE_AQLPROFILE_MAJOR
mkdir -p "$work/aql"
cc=${CC:-cc}
$cc -std=gnu11 -shared -fPIC -o "$work/aql/libhsa-amd-aqlprofile64.so" \
  "$SRCDIR/tests/integration/tools_aqlprofile_fake.c" || fail "cannot build the stand-in library"
$cc -std=gnu11 -I"$SRCDIR/include" -o "$work/client" "$SRCDIR/tests/integration/tools_aqlprofile_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 || fail "cannot build the client"

for case in with wrong without; do
  extra=$work/aql major=2
  [ $case = wrong ] && major=1
  [ $case = without ] && extra=$work/none
  for rt in rocr ours; do
    lib=$rocr_lib; [ $rt = ours ] && lib=$BUILD/lib
    FAKE_AQLPROFILE_MAJOR=$major LD_LIBRARY_PATH=$lib:$extra "$sim" -- "$work/client" \
      > "$work/$rt.$case" 2> "$work/$rt.$case.err" || fail "$case, $rt: exit $?: $(tail -n 3 "$work/$rt.$case.err")"
  done
  diff -u "$work/rocr.$case" "$work/ours.$case" || fail "$case the library: ours differs from ROCR"
done
grep -q "^major status 0 major 2 minor 7 error_string 'fake aqlprofile' set 1 1 1 0 0 0 0 0 0 0\$" "$work/ours.with" ||
  fail "the table: $(cat "$work/ours.with")"
grep -q '^old status 0 ' "$work/ours.with" || fail "hsa_system_get_extension_table: $(cat "$work/ours.with")"
grep -q ' past .* 1$' "$work/ours.with" && fail "wrote past the table: $(cat "$work/ours.with")"
grep -q '^major status 0x1000$' "$work/ours.wrong" || fail "wrong major version accepted"
grep -q '^major status 0x1000$' "$work/ours.without" || fail "no library, but a table"
echo "ok"

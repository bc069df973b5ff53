#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 30
# scripts/gen-stubs.sh stubs exactly the functions listed as unimplemented, and fails when an
# API function is neither defined nor listed (a lost definition must not become a stub), when
# a listed one is defined, or when a listed name is no API function.
set -eu
gen="$SRCDIR/scripts/gen-stubs.sh"
work=$BUILD/tests/gen_stubs
mkdir -p "$work"
cd "$work"
printf '%s\n' '# ret|name|params' 'hsa_status_t|hsa_a|void' 'hsa_status_t|hsa_b|int x' \
  'uint32_t|hsa_c|void' > api.list
printf '%s\n' '# not yet' 'hsa_b' 'hsa_c  # trailing comment' > unimpl.list
printf '%s\n' hsa_a other_symbol > defined.txt

sh "$gen" api.list unimpl.list defined.txt > stubs.c
grep -q '^hsa_status_t hsa_b(int x) {' stubs.c || { echo "no stub for hsa_b"; exit 1; }
grep -q '^uint32_t hsa_c(void) {' stubs.c || { echo "no stub for hsa_c"; exit 1; }
if grep -q 'hsa_a(' stubs.c; then echo "a defined function got a stub"; exit 1; fi

# hsa_a's definition lost: the generator must fail and name it
printf '%s\n' other_symbol > lost.txt
if sh "$gen" api.list unimpl.list lost.txt > out.c 2> err.txt; then
  echo "a missing definition became a stub"; exit 1
fi
grep -q 'hsa_a' err.txt || { echo "the error does not name hsa_a:"; cat err.txt; exit 1; }

# hsa_b implemented but still listed
printf '%s\n' hsa_a hsa_b > both.txt
if sh "$gen" api.list unimpl.list both.txt > out.c 2> err.txt; then
  echo "a listed function that is defined was accepted"; exit 1
fi
grep -q 'hsa_b' err.txt || { echo "the error does not name hsa_b:"; cat err.txt; exit 1; }

# a listed name that is no API function
printf '%s\n' hsa_b hsa_c hsa_zzz > extra.list
if sh "$gen" api.list extra.list defined.txt > out.c 2> err.txt; then
  echo "an unknown listed name was accepted"; exit 1
fi
grep -q 'hsa_zzz' err.txt || { echo "the error does not name hsa_zzz:"; cat err.txt; exit 1; }

# the tree itself: every API function is defined or listed (what the build checked)
sh "$gen" "$SRCDIR/src/core/api.list" "$SRCDIR/src/core/unimplemented.list" \
  "$BUILD/gen/defined.txt" > /dev/null
echo "gen-stubs: explicit list enforced"

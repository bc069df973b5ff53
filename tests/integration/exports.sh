#!/bin/sh
# SPDX-License-Identifier: MIT
# The library exports exactly the names of ROCR's latest export list, each @@ROCR_1,
# and nothing else (besides the ROCR_1 version node itself).
set -eu
lib=$BUILD/lib/libhsa-runtime64.so.1
list=$SRCDIR/tests/abi/rocr-latest-exports.txt
work=$BUILD/tests/exports
mkdir -p "$work"
[ "$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = libhsa-runtime64.so.1 ] ||
  { echo "soname is not libhsa-runtime64.so.1"; exit 1; }
[ "$(readlink "$BUILD/lib/libhsa-runtime64.so")" = libhsa-runtime64.so.1 ] ||
  { echo "the dev link libhsa-runtime64.so is missing"; exit 1; }
nm -D --defined-only "$lib" | awk '{ print $3 }' | sort > "$work/all.txt"
grep -v '@@ROCR_1$' "$work/all.txt" | grep -vx 'ROCR_1' > "$work/other.txt" || true
if [ -s "$work/other.txt" ]; then
  echo "exported without @@ROCR_1:"; head "$work/other.txt"; exit 1
fi
sed -n 's/@@ROCR_1$//p' "$work/all.txt" | sort > "$work/ours.txt"
sort -u "$list" | sed '/^$/d' > "$work/want.txt"
if ! diff -u "$work/want.txt" "$work/ours.txt"; then
  echo "exported names differ from $list (- missing, + extra)"; exit 1
fi
echo "exports: $(wc -l < "$work/ours.txt") names, all @@ROCR_1, equal to the list"
# Everything HIP 5.2 and rocminfo import must be among them.
for f in hip-5.2-imports.txt rocminfo-5.2-imports.txt rocr-5.2.3-exports.txt; do
  missing=$(sort -u "$SRCDIR/tests/abi/$f" | sed '/^$/d' | comm -23 - "$work/ours.txt")
  [ -z "$missing" ] || { echo "names of $f not exported: $missing"; exit 1; }
done
# No name the newest export map added since the previous one (rocr-2024-exports.txt, 255
# names: the 20 of issue 22) may be a generated stub.
sort -u "$SRCDIR/tests/abi/rocr-2024-exports.txt" | sed '/^$/d' > "$work/prev.txt"
comm -23 "$work/want.txt" "$work/prev.txt" > "$work/new.txt"
[ "$(wc -l < "$work/new.txt")" -eq 20 ] || { echo "expected 20 new names:"; cat "$work/new.txt"; exit 1; }
sed 's/#.*//; s/[[:space:]]//g; /^$/d' "${UNIMPLEMENTED:-$SRCDIR/src/core/unimplemented.list}" |
  sort -u > "$work/stubs.txt"
stubbed=$(comm -12 "$work/stubs.txt" "$work/new.txt")
[ -z "$stubbed" ] || { echo "new names left as stubs: $stubbed"; exit 1; }
echo "exports: the 20 names new since the 2024 map are all implemented (none in unimplemented.list)"

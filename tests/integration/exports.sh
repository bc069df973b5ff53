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

#!/bin/sh
# SPDX-License-Identifier: MIT
# ABI test: one layout probe, generated from Debian's ROCR 5.2.3 headers, compiled once
# against them and once against ours; every size, offset, bit position, enum and macro
# value, and function type must print the same. Then a self-check: the same probe
# against a copy of our headers with one field moved must NOT match.
# Facts later ROCR grew by appending are listed, with reasons, in tests/abi/may-grow.txt.
set -eu
ref=/usr/include/hsa
ours=$SRCDIR/include/hsa
work=$BUILD/tests/abi
[ -f "$ref/hsa.h" ] || { echo "Debian's libhsa-runtime-dev is not installed ($ref/hsa.h missing)"; exit 1; }
mkdir -p "$work"
CXX_FOR_PROBE=clang++ python3 "$SRCDIR/tests/abi/gen_probe.py" "$ref" "$work/probe.cpp"

probe() { # include-dir output
  clang++ -std=c++17 -DAMD_INTERNAL_BUILD -w -I"$1" -x c++ "$work/probe.cpp" -o "$work/probe.bin"
  "$work/probe.bin" > "$2"
}
probe "$ref" "$work/rocr-5.2.3.txt"
probe "$ours" "$work/ours.txt"
lines=$(wc -l < "$work/rocr-5.2.3.txt")
[ "$lines" -gt 1500 ] || { echo "the probe is too small ($lines facts): generator broken?"; exit 1; }
python3 "$SRCDIR/tests/abi/compare.py" "$work/rocr-5.2.3.txt" "$work/ours.txt" \
  "$SRCDIR/tests/abi/may-grow.txt"

# Self-check: insert a field at the start of hsa_queue_t in a copy of our headers.
rm -rf "$work/moved" && cp -r "$ours" "$work/moved"
sed -i '0,/^\(typedef \)\{0,1\}struct hsa_queue_s *{/s//&\n  uint32_t abi_selftest_pad;/' "$work/moved/hsa.h"
grep -q abi_selftest_pad "$work/moved/hsa.h" || { echo "self-check: could not find struct hsa_queue_s in our hsa.h"; exit 1; }
probe "$work/moved" "$work/moved.txt"
if python3 "$SRCDIR/tests/abi/compare.py" "$work/rocr-5.2.3.txt" "$work/moved.txt" \
     "$SRCDIR/tests/abi/may-grow.txt" > "$work/moved-compare.txt"; then
  echo "self-check failed: moving a field of hsa_queue_t went unnoticed"
  exit 1
fi
echo "self-check: a moved field is detected: $(tail -n 1 "$work/moved-compare.txt")"

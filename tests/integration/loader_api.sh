#!/bin/sh
# loader_api.sh — the executable/reader/loader-extension/code-object API's error paths and
# bookkeeping (loader_api.c) on a code object compiled now, under hsa-sim.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
SIM="$BUILD/bin/hsa-sim"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: preloads libhsa-sim.so into programs not built with sanitizers"; exit 77
fi
command -v clang-15 >/dev/null && command -v ld.lld-15 >/dev/null ||
  { echo "clang-15 / ld.lld-15 are not installed"; exit 1; }
[ -x "$SIM" ] || { echo "$SIM is not built"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -std=gnu11 -Wall -pthread -I"$SRCDIR/include" -o "$tmp/api" \
  "$SRCDIR/tests/integration/loader_api.c" -L"$BUILD/lib" -lhsa-runtime64 || exit 1
clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900:xnack- -nogpulib -O2 \
  -mcode-object-version=4 -c -o "$tmp/k.o" "$SRCDIR/tests/integration/loader_kernels.cl" &&
  ld.lld-15 -shared -o "$tmp/k.co" "$tmp/k.o" || exit 1
head -c 5000 /dev/urandom >"$tmp/junk"
LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 "$SIM" -- "$tmp/api" "$tmp/k.co" "$tmp/junk"

#!/bin/sh
# SPDX-License-Identifier: MIT
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
[ $? -eq 0 ] || exit 1
# Again under valgrind: the error paths above and hsa_shut_down's cleanup of what was left
# alive must not leak or touch freed memory.
if command -v valgrind >/dev/null 2>&1; then
  LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 "$SIM" -- valgrind --leak-check=full \
    "$tmp/api" "$tmp/k.co" "$tmp/junk" >"$tmp/vg.out" 2>"$tmp/vg.err" ||
    { echo "loader_api failed under valgrind"; cat "$tmp/vg.out"; tail -20 "$tmp/vg.err"; exit 1; }
  if grep -q -e "definitely lost: [1-9]" -e "Invalid read" -e "Invalid write" -e "Invalid free" \
       "$tmp/vg.err"; then
    echo "valgrind:"; cat "$tmp/vg.err"; exit 1
  fi
  echo "valgrind: no leaks, no invalid accesses"
fi

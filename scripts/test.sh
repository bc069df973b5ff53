#!/bin/sh
# SPDX-License-Identifier: MIT
# test.sh — the test command of the README (and of CI): set up, build, run every test.
# 1. the default build (gcc) runs the whole suite;
# 2. a build with AddressSanitizer + UndefinedBehaviorSanitizer runs it again (tests that
#    preload our code into programs built without sanitizers skip themselves there);
# 3. a clang build, warning-free (-Werror) with the second compiler, runs it once more
#    (clang-15, whose x86 _Float16 the f16 host references of the ISA tests use; the
#    product alone is also built with Debian's default clang, 14); HSA_TEST_LIGHT=1 skips
#    the ROCm library programs there, which test the simulator more than the compiler.
# HSA_TEST_LIGHT=1 (the second and third configurations) also has tests that cover several GPU
# models run one representative model, and skips the checks that do not depend on the
# compiler (configure, the Debian packages): the first configuration runs all of them.
# Set HSA_TEST_QUICK=1 to run only the first.
set -eu
cd "$(dirname "$0")/.."
sh scripts/bootstrap.sh
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs" tests
make check
# The loader's fuzz target, briefly, from the committed corpus: it must keep linking and
# find nothing (a crash fails the run and leaves its input in build/fuzz/crashes/).
make fuzz FUZZ_TIME="${HSA_FUZZ_TIME:-60}" >build/fuzz.log 2>&1 || {
  tail -n 40 build/fuzz.log; echo "test.sh: the loader fuzzer failed (log: build/fuzz.log)"; exit 1; }
grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' build/fuzz.log || true

[ "${HSA_TEST_QUICK:-0}" = 1 ] && exit 0

echo "==== second configuration: gcc with ASan + UBSan ===="
san="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
make -j"$jobs" BUILD=build-asan CONFIGURE_FLAGS="CFLAGS='$san' LDFLAGS='-fsanitize=address,undefined'" tests
HSA_TEST_SANITIZED=1 HSA_TEST_LIGHT=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  make BUILD=build-asan check

echo "==== third configuration: clang, warnings as errors ===="
make -j"$jobs" BUILD=build-clang14 CONFIGURE_FLAGS="CC=clang CXX=clang++" all
# DWARF 4: Debian's valgrind 3.19 (loader_api runs under it) cannot read clang-15's DWARF 5.
make -j"$jobs" BUILD=build-clang CONFIGURE_FLAGS="CC=clang-15 CXX=clang++-15 CFLAGS='-g -gdwarf-4 -O2'" tests
HSA_TEST_LIGHT=1 make BUILD=build-clang check
echo "test.sh: all configurations passed"

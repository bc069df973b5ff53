#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh BUILD SECONDS — builds the loader fuzz target with clang + libFuzzer (+ ASan/UBSan),
# seeds it with code objects clang compiles now (v2..v5) and runs it for SECONDS.
# Called by `make fuzz`; DEP_CFLAGS comes from the Makefile (libdrm include paths).
set -eu
build=$1
seconds=${2:-60}
src=$(cd "$(dirname "$0")/.." && pwd)
out="$build/fuzz"
mkdir -p "$out/corpus" "$out/crashes"
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null || { echo "fuzz: $cc is not installed (Debian: clang, libclang-rt-14-dev)"; exit 1; }
# The whole runtime is linked (the loader uses core's ISA table); unimplemented API functions
# the tools API table and the trap handlers' code come from the build's generated sources.
# shellcheck disable=SC2086
"$cc" -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -D_GNU_SOURCE -DHSA_EXPORT=1 -I"$src/include" -I"$src/include/hsa" -I"$src/src" -I"$src/src/kfd/shim" \
  ${DEP_CFLAGS:-} -o "$out/fuzz_loader" "$src/fuzz/fuzz_loader.c" "$src"/src/*.c "$src"/src/*/*.c \
  "$build/gen/stubs.c" "$build/gen/tools_table.c" "$build/gen/trap_blobs.S" -lelf -lmsgpackc -ldrm_amdgpu -ldrm -lnuma -lpthread -ldl
for v in 2 3 4 5; do
  mcpu=gfx900:xnack-
  clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$mcpu -nogpulib -O2 \
    -mcode-object-version=$v -c -o "$out/k$v.o" "$src/tests/integration/loader_kernels.cl" &&
    ld.lld-15 -shared -o "$out/corpus/seed-v$v.co" "$out/k$v.o" || echo "fuzz: no v$v seed"
done
# New inputs go to the build's corpus; fuzz/corpus (committed: a minimized set of inputs that
# reached new code in earlier runs) seeds every run, so a short CI run starts deep.
HSA_LOADER_QUIET=1 "$out/fuzz_loader" -max_total_time="$seconds" -max_len=65536 \
  -artifact_prefix="$out/crashes/" -print_final_stats=1 "$out/corpus" "$src/fuzz/corpus"

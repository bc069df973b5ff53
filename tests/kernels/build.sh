#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the kernel corpus into OUT: the HSA harness, the pocl runner, and every kernel
# source compiled for each GPU in GPUS (default gfx900): OpenCL C with clang-15 and the
# ROCm device libraries, HIP device code with Debian's hipcc (--genco, then unbundled to
# a plain code object). Code object version 4, which Debian's ROCR 5.2.3 loads.
#   sh tests/kernels/build.sh OUT        (env: SRCDIR, CC, GPUS, BUILD for -L)
# Exits 77 when a tool is missing (the caller passes that on as a skip).
set -eu
out=$1
src=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
kdir=$src/tests/kernels
gpus=${GPUS:-gfx900}
cc=${CC:-cc}
mkdir -p "$out"

# the kernels come from lib/kcache.sh's cache when another corpus directory, configuration or
# run compiled the same source with the same compiler (they do not depend on the build)
SRCDIR=$src; export SRCDIR
. "$src/tests/integration/lib/kcache.sh"

need() { command -v "$1" > /dev/null 2>&1 || { echo "$1 is not installed ($2)"; exit 77; }; }
need clang-15 "apt install clang-15"
need hipcc "apt install hipcc"
bundler=/usr/lib/llvm-15/bin/clang-offload-bundler
[ -x "$bundler" ] || { echo "clang-offload-bundler of LLVM 15 is missing (apt install clang-15)"; exit 77; }
devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
[ -n "$devlibs" ] || { echo "ROCm device libraries missing (apt install rocm-device-libs)"; exit 77; }
[ -f /usr/include/CL/cl.h ] || { echo "OpenCL headers missing (apt install ocl-icd-opencl-dev)"; exit 77; }

# Host tools; -O2 also makes the host references the "plain C" of the benchmarks.
cflags="-std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I$kdir"
refs=$(ls "$kdir"/*_ref.c)
newer() { # target sources... : true if target is missing or older than any source
  t=$1; shift
  [ -e "$t" ] || return 0
  # shellcheck disable=SC3013 # dash and bash have -nt
  for s in "$@"; do [ "$s" -nt "$t" ] && return 0; done
  return 1
}
# shellcheck disable=SC2086
if newer "$out/harness" "$kdir/harness.c" "$kdir/kcase.c" "$kdir/kcase.h" $refs; then
  $cc $cflags -I"$src/include/hsa" -o "$out/harness" "$kdir/harness.c" "$kdir/kcase.c" $refs \
    ${BUILD:+-L"$BUILD/lib"} -L/usr/lib/x86_64-linux-gnu -lhsa-runtime64 -lm
fi
# shellcheck disable=SC2086
if newer "$out/pocl_run" "$kdir/pocl_run.c" "$kdir/kcase.c" "$kdir/kcase.h" $refs; then
  $cc $cflags -o "$out/pocl_run" "$kdir/pocl_run.c" "$kdir/kcase.c" $refs -lOpenCL -lm
fi

# Kernels, two compilers at a time (CI has two cores).
jobs=""
for gpu in $gpus; do
  mkdir -p "$out/$gpu"
  for f in "$kdir"/*.cl "$kdir"/*.hip; do
    [ -f "$f" ] || continue
    base=$(basename "$f"); co=$out/$gpu/$base.co
    newer "$co" "$f" || continue
    jobs="$jobs $gpu:$f"
  done
done
compile() { # gpu:file
  gpu=${1%%:*}; f=${1#*:}; co=$out/$gpu/$(basename "$f").co
  case "$f" in
  *.cl)
    std=CL1.2   # what pocl runs too; *_amd.cl only runs on the GPU
    case "$f" in *_amd.cl) std=CL2.0 ;; esac
    kcache "$co.tmp" clang-15 -x cl -cl-std=$std -Xclang -finclude-default-header \
      -target amdgcn-amd-amdhsa -mcpu="$gpu" -mcode-object-version=4 \
      --rocm-device-lib-path="$devlibs" -O2 -o "$co.tmp" "$f" ;;
  *.hip)
    kcache "$co.bundle" hipcc --offload-arch="$gpu" --genco -mcode-object-version=4 -O2 \
      -o "$co.bundle" "$f" 2> "$co.log" || { cat "$co.log"; return 1; }
    "$bundler" --unbundle --type=o --input="$co.bundle" \
      --targets="hipv4-amdgcn-amd-amdhsa--$gpu" --output="$co.tmp"
    rm -f "$co.bundle" "$co.log" ;;
  esac
  mv "$co.tmp" "$co"
}
# Two at a time; a failed compile leaves its log and fails the build.
n=0
for j in $jobs; do
  ( compile "$j" > "$out/$(basename "${j#*:}").${j%%:*}.err" 2>&1 ||
      echo "compile of ${j#*:} for ${j%%:*} failed" >> "$out/failed" ) &
  n=$((n + 1))
  [ $((n % 2)) -eq 0 ] && wait
done
wait
if [ -s "$out/failed" ]; then
  cat "$out/failed"; cat "$out"/*.err; rm -f "$out/failed"; exit 1
fi
rm -f "$out"/*.err

#!/bin/sh
# SPDX-License-Identifier: MIT
# MI300 on our runtime: the OpenCL C kernel corpus (tests/kernels/*.cl) compiled now with
# clang-19 for gfx942 (Debian's device libraries plus an oclc_isa_version_942.bc made here
# with llvm-as-19, DESIGN.md section 4) and dispatched under hsa-sim --gpu gfx942 (MI300X)
# and --gpu gfx942-apu (MI300A): every case's outputs equal the host reference. Also: the
# queues our runtime creates pass the model's 6.12+ queue buffer checks (they could not
# dispatch otherwise), and a gfx900 code object is refused on a gfx942 agent with one line
# naming both targets; the extended-scope fine-grained pools hold a case's buffers on both
# (KFD 1.15 on), and are absent at KFD 1.14 and on gfx900. Skipped (77) when clang-19 or
# llvm-as-19 is missing.
# timeout: 600
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
for t in clang-19 llvm-as-19; do
  command -v $t > /dev/null || { echo "$t is not installed (apt install clang-19 llvm-19)"; exit 77; }
done
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
bitcode=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && echo "$d"; done | head -n 1)
[ -n "$bitcode" ] || { echo "rocm-device-libs is not installed"; exit 77; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
LD_LIBRARY_PATH=$BUILD/lib; export LD_LIBRARY_PATH
work=$BUILD/tests/kernels_gfx942
rm -rf "$work" && mkdir -p "$work/devlibs" "$work/co" "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
kdir=$SRCDIR/tests/kernels

# Debian's device libraries stop at gfx90a: the ISA version constant for gfx942 is made here.
. "$SRCDIR/tests/integration/lib/devlibs19.sh"
devlibs19_make "$work/devlibs" "$bitcode" gfx942

# The harness (kcase tables and host references), built against our headers.
refs=$(ls "$kdir"/*_ref.c)
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -I"$kdir" -I"$SRCDIR/include/hsa" -o "$work/harness" \
  "$kdir/harness.c" "$kdir/kcase.c" $refs -L"$BUILD/lib" -lhsa-runtime64 -lm || fail "cannot build the harness"

# OpenCL 2.0 for all: under 1.2 clang-19 assumes uniform work-groups and folds
# get_local_size to the full size, while the corpus has partial work-groups.
# the code objects come from lib/kcache.sh's cache when another configuration or run compiled
# the same source (they do not depend on the build under test); two compilers at a time
. "$SRCDIR/tests/integration/lib/kcache.sh"
KCACHE_TMP=$work   # (its path differs between configurations; what is under it does not)
cl() { # cpu source out
  kcache "$3" clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
    -mcpu="$1" -mcode-object-version=4 --rocm-device-lib-path="$work/devlibs" -O2 \
    -Wno-linker-warnings -o "$3" "$2"
}
n=0
for f in "$kdir"/*.cl; do
  ( cl gfx942 "$f" "$work/co/${f##*/}.co" ||
      echo "clang-19 cannot compile ${f##*/} for gfx942" >> "$work/cl-failed" ) &
  n=$((n + 1)); [ $((n % 2)) -eq 0 ] && wait
done
wait
[ ! -s "$work/cl-failed" ] || fail "$(cat "$work/cl-failed")"
"$work/harness" --list > "$work/cases" || fail "harness --list"

pass=0 nfail=0 failed=""
run_case() { # gpu name source [mem]
  gpu=$1 name=$2 source=$3 mem=${4:-system}
  log=$work/$name.$gpu.$mem.log
  rc=0
  # shellcheck disable=SC2086 # SIMOPTS: extra launcher options, split on purpose
  timeout 120 "$sim" --gpu "$gpu" ${SIMOPTS:-} -- "$work/harness" --timeout 90 --mem "$mem" \
    "$name" "$work/co/$source.co" > "$log" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); echo "PASS  $name [$gpu${SIMOPTS:+ $SIMOPTS}, $mem memory]"
  else
    nfail=$((nfail + 1)); failed="$failed $name/$gpu/$mem"
    echo "FAIL  $name [$gpu${SIMOPTS:+ $SIMOPTS}, $mem memory] (exit $rc)"
    grep -v '^\[hsa-sim' "$log" | head -n 8 | sed 's/^/      | /'
  fi
}
# Every OpenCL C case on MI300X; a subset, and device memory, on MI300A and MI300X.
# int32_ops is left out: Debian's device library computes abs_diff(int, int) as a `sub nsw`
# of max and min, which clang-19 folds to a signed max that is wrong when the difference
# passes 2^31 (the same code fails on gfx900 too; clang-15 keeps it right).
# HSA_TEST_LIGHT=1 (the sanitizer and clang configurations): a few cases on MI300X only.
light=${HSA_TEST_LIGHT:-0}
while read -r name source _; do
  [ "$light" = 1 ] && case "$name" in vadd|f32_ops|int64_ops|atomics32|private_array) ;; *) continue ;; esac
  case "$name" in int32_ops) echo "SKIP  int32_ops [gfx942] (device library abs_diff under clang-19)"; continue ;; esac
  case "$source" in *.cl) run_case gfx942 "$name" "$source" ;; esac
done < "$work/cases"
src_of() { awk -v n="$1" '$1 == n { print $2 }' "$work/cases"; }
if [ "$light" = 1 ]; then
  echo "gfx942 kernels on our runtime: $pass passed, $nfail failed (HSA_TEST_LIGHT=1: a subset on gfx942)"
  [ $nfail -eq 0 ] || { echo "failed:$failed"; exit 1; }
  exit 0
fi
for name in vadd f32_ops int64_ops private_array reduce_lds atomics32; do
  s=$(src_of $name); [ -n "$s" ] && run_case gfx942-apu "$name" "$s"
done
for name in vadd transpose; do
  s=$(src_of $name); [ -n "$s" ] && run_case gfx942 "$name" "$s" device && run_case gfx942-apu "$name" "$s" device
done

# The extended-scope fine-grained pools (global flag 8) of the newest ROCR: buffers staged in
# the CPU agent's and run from the GPU's, allocated with KFD's EXT_COHERENT (the trace); at
# KFD 1.14, which lacks the flag, and on gfx900 there is no such pool.
s=$(src_of vadd)
for g in gfx942 gfx942-apu; do
  SIMOPTS="--trace=$work/ext.$g.trace"
  run_case $g vadd "$s" ext
  SIMOPTS=""
  n=$(grep -c 'ALLOC_MEMORY_OF_GPU(.*flags=[A-Z|]*0x1000000|COHERENT.*) = 0' "$work/ext.$g.trace")
  [ "$n" -ge 2 ] || fail "$g: $n EXT_COHERENT allocations in the trace"
done
for v in "gfx942 --kfd-version 1.14" "gfx900"; do
  rc=0
  # shellcheck disable=SC2086 # $v: the GPU and its options
  timeout 60 "$sim" --gpu $v -- "$work/harness" --timeout 30 --mem ext vadd "$work/co/$s.co" \
    > "$work/noext.log" 2>&1 || rc=$?
  [ $rc -eq 4 ] && grep -q 'no extended-scope fine-grained pool (CPU 0, GPU 0)' "$work/noext.log" ||
    fail "$v: an extended-scope pool, or another failure (exit $rc): $(tail -n 3 "$work/noext.log")"
done
echo "PASS  no extended-scope pool at KFD 1.14 nor on gfx900"

# Two boards of each kind: each GPU node gets its own queues and buffers checked.
s=$(src_of vadd)
SIMOPTS="--gpus 2"
run_case gfx942 vadd "$s" device
run_case gfx942-apu vadd "$s" device
SIMOPTS=""

# A code object for another chip: refused at load, one line naming both targets.
s=$(src_of vadd)
cl gfx900 "$kdir/$s" "$work/co/vadd.gfx900.co" || fail "clang-19 cannot compile for gfx900"
rc=0
timeout 60 "$sim" --gpu gfx942 -- "$work/harness" --timeout 30 vadd "$work/co/vadd.gfx900.co" \
  > "$work/wrong.log" 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "a gfx900 code object ran on gfx942"
grep -v '^\[hsa-sim' "$work/wrong.log" | grep 'gfx900' | grep -q 'gfx942' ||
  fail "no line names both gfx900 and gfx942: $(grep -v '^\[hsa-sim' "$work/wrong.log" | head -n 5)"
echo "PASS  gfx900 code object refused on gfx942: $(grep 'gfx900' "$work/wrong.log" | grep 'gfx942' | head -n 1)"

echo "gfx942 kernels on our runtime: $pass passed, $nfail failed"
[ $nfail -eq 0 ] || { echo "failed:$failed"; exit 1; }
exit 0

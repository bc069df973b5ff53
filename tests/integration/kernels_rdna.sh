#!/bin/sh
# SPDX-License-Identifier: MIT
# RDNA3 and RDNA4 on our runtime: the OpenCL C corpus (tests/kernels/*.cl) compiled now with
# clang-19 for gfx1100 and gfx1201, wave32 (default) and -mwavefrontsize64, dispatched under
# hsa-sim --gpu gfx1100 / gfx1201, every case against the host reference (the harness); the
# WMMA/SWMMAC builtins (wmma_rdna.cl, wmma_rdna_ref.c: every matrix variant against the host's
# product, both wave sizes); a gfx1100 code object is refused on gfx1201 with one line naming
# both targets.
# timeout: 900
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
work=$BUILD/tests/kernels_rdna
rm -rf "$work" && mkdir -p "$work/devlibs" "$work/co" "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
kdir=$SRCDIR/tests/kernels
# Debian's rocm-device-libs 5.2.3 has no oclc_isa_version_1100/1201.bc: made here
. "$SRCDIR/tests/integration/lib/devlibs19.sh"
devlibs19_make "$work/devlibs" "$bitcode" gfx1100 gfx1201
refs="$(ls "$kdir"/*_ref.c) $SRCDIR/tests/integration/wmma_rdna_ref.c"
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -I"$kdir" -I"$SRCDIR/include/hsa" -o "$work/harness" \
  "$kdir/harness.c" "$kdir/kcase.c" $refs -L"$BUILD/lib" -lhsa-runtime64 -lm || fail "cannot build the harness"
# the code objects come from lib/kcache.sh's cache when another configuration or run compiled
# the same source (they do not depend on the build under test); two compilers at a time
. "$SRCDIR/tests/integration/lib/kcache.sh"
KCACHE_TMP=$work   # (its path differs between configurations; what is under it does not)
cl() { # cpu source out [flags]
  # shellcheck disable=SC2086
  kcache "$3" clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
    -mcpu="$1" -mcode-object-version=4 --rocm-device-lib-path="$work/devlibs" -O2 \
    -Wno-linker-warnings ${4:-} -o "$3" "$2"
}
gpus="gfx1100 gfx1201"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && gpus=gfx1201
n=0
for t in $gpus; do
  for f in "$kdir"/*.cl "$SRCDIR/tests/integration/wmma_rdna.cl"; do
    b=${f##*/}
    for w in w32 w64; do
      wf=""; [ $w = w64 ] && wf=-mwavefrontsize64
      ( cl $t "$f" "$work/co/$b.$t.$w.co" $wf ||
          echo "clang-19 cannot compile $b for $t $w" >> "$work/cl-failed" ) &
      n=$((n + 1)); [ $((n % 2)) -eq 0 ] && wait
    done
  done
done
wait
[ ! -s "$work/cl-failed" ] || fail "$(cat "$work/cl-failed")"
"$work/harness" --list > "$work/cases" || fail "harness --list"
pass=0 nfail=0 failed=""
run_case() { # gpu name source wave
  log=$work/$2.$1.$4.log
  rc=0
  timeout 40 "$sim" --gpu "$1" -- "$work/harness" --timeout 25 --wave "${4#w}" "$2" \
    "$work/co/$3.$1.$4.co" \
    > "$log" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); echo "PASS  $2 [$1 $4]"
  else
    nfail=$((nfail + 1)); failed="$failed $2/$1/$4"
    echo "FAIL  $2 [$1 $4] (exit $rc)"
    grep -v '^\[hsa-sim' "$log" | head -n 8 | sed 's/^/      | /'
  fi
}
# int32_ops is left out as in kernels_gfx942.sh (Debian's abs_diff under clang-19).
for gpu in $gpus; do
  while read -r name source _; do
    case "$name" in
      int32_ops) continue ;;
      wmma_gfx11) [ $gpu = gfx1100 ] || continue ;;
      wmma_gfx12) [ $gpu = gfx1201 ] || continue ;;
    esac
    case "$source" in *.cl) run_case $gpu "$name" "$source" w32; run_case $gpu "$name" "$source" w64 ;; esac
  done < "$work/cases"
done
s=$(awk '$1 == "vadd" { print $2 }' "$work/cases")
cl gfx1100 "$kdir/$s" "$work/co/vadd.gfx1100.co" || fail "clang-19 cannot compile for gfx1100"
rc=0
timeout 60 "$sim" --gpu gfx1201 -- "$work/harness" --timeout 30 vadd "$work/co/vadd.gfx1100.co" \
  > "$work/wrong.log" 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "a gfx1100 code object ran on gfx1201"
grep -v '^\[hsa-sim' "$work/wrong.log" | grep 'gfx1100' | grep -q 'gfx1201' ||
  fail "no line names both gfx1100 and gfx1201: $(grep -v '^\[hsa-sim' "$work/wrong.log" | head -n 5)"
echo "PASS  gfx1100 code object refused on gfx1201"
# a wave64-only code object (gfx900: no wave32 there) on gfx1100, whose kernels default to
# wave32: refused the same way, naming both
cl gfx900 "$kdir/$s" "$work/co/vadd.gfx900.co" || fail "clang-19 cannot compile for gfx900"
rc=0
timeout 60 "$sim" --gpu gfx1100 -- "$work/harness" --timeout 30 vadd "$work/co/vadd.gfx900.co" \
  > "$work/wrong9.log" 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "a gfx900 code object ran on gfx1100"
grep -v '^\[hsa-sim' "$work/wrong9.log" | grep 'gfx900' | grep -q 'gfx1100' ||
  fail "no line names both gfx900 and gfx1100: $(grep -v '^\[hsa-sim' "$work/wrong9.log" | head -n 5)"
echo "PASS  gfx900 (wave64-only) code object refused on gfx1100"
echo "RDNA kernels on our runtime: $pass passed, $nfail failed"
[ $nfail -eq 0 ] || { echo "failed:$failed"; exit 1; }
exit 0

#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the programs in tests/libs with Debian's hipcc against Debian's ROCm libraries
# (rocRAND/hipRAND, rocSPARSE/hipSPARSE, hipRTC, rocPRIM) and runs them under hsa-sim with
# the HSA runtime the dynamic linker finds. Each program checks its results against the
# host and exits 0 only when they are right.
#   sh run_libs.sh LABEL WORKDIR        (env: BUILD, SRCDIR; RUNTIME=rocr|ours)
# Exit 0 all pass, 1 a program failed, 77 a needed Debian package is missing (says which).
#
# Builds are cached in $BUILD/tests/libs-programs and shared by both runtimes: a program is
# rebuilt only when its source or a header of ours it includes is newer or its hipcc
# arguments changed.
# rand prints digests of everything it generated; each runtime's are kept there too, and
# when the other runtime's are as new as the program, the two must be equal bit for bit.
set -u
label=$1 work=$2
ldir=$SRCDIR/tests/libs
sim=$BUILD/bin/hsa-sim
runtime=${RUNTIME:-rocr}
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }

missing=""
need() { # file package
  [ -e "$1" ] || missing="$missing $2"
}
command -v hipcc > /dev/null 2>&1 || missing="$missing hipcc"
need /usr/include/hip/hip_runtime.h libamdhip64-dev
need /usr/include/hip/hiprtc.h libamdhip64-dev
need /usr/include/rocprim/rocprim.hpp librocprim-dev
need /usr/include/rocrand/rocrand.h librocrand-dev
need /usr/include/hiprand/hiprand.h libhiprand-dev
need /usr/include/rocsparse/rocsparse.h librocsparse-dev
need /usr/include/hipsparse/hipsparse.h libhipsparse-dev
ls /usr/lib/*/libamd_comgr.so.2 > /dev/null 2>&1 || missing="$missing libamd-comgr2"
ls /usr/lib/*/libhiprtc-builtins.so.5 > /dev/null 2>&1 || missing="$missing libhiprtc-builtins5"
if [ -n "$missing" ]; then
  echo "Debian packages missing: apt install$missing"; exit 77
fi
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR

# name: hipcc arguments (GPU targets, libraries). rocPRIM needs C++17.
progs=$BUILD/tests/libs-programs
mkdir -p "$progs"
build_args() {
  case $1 in
    prim_device) echo "--offload-arch=gfx900" ;;
    prim_block) echo "--offload-arch=gfx900 --offload-arch=gfx90a" ;;
    rand) echo "--offload-arch=gfx900 -lrocrand -lhiprand" ;;
    sparse) echo "--offload-arch=gfx900 -lrocsparse -lhipsparse" ;;
    sparse_gemm) echo "--offload-arch=gfx900 -lrocsparse" ;;
    rtc) echo "--offload-arch=gfx900" ;;
  esac
}
build_one() { # name: into $progs/name, through a temporary file (an interrupted build leaves nothing)
  f=$ldir/$1.hip p=$progs/$1
  start=$(date +%s)
  # shellcheck disable=SC2046 # the arguments are words
  if hipcc $(build_args "$1") -std=c++17 -O2 -Wall -Werror -o "$p.tmp" "$f" > "$p.log" 2>&1; then
    mv "$p.tmp" "$p"; build_args "$1" > "$p.args"; echo "built $1 in $(( $(date +%s) - start )) s"
  else
    rm -f "$p.tmp"; cat "$p.log"
  fi
}
# Two hipcc at a time: rocPRIM's device algorithms (the slowest by far) in one queue, the
# rest in the other.
all="prim_device prim_block rand rtc sparse sparse_gemm"
q1="" q2=""
headers() { # name: the headers of ours it includes
  echo "$SRCDIR/tests/hip/hip_check.h"
  case $1 in sparse*) echo "$ldir/sparse_common.h" ;; esac
}
stale() { # name: not built, its source or a header newer, or other hipcc arguments
  [ -x "$progs/$1" ] || return 0
  for src in "$ldir/$1.hip" $(headers "$1"); do
    # shellcheck disable=SC3013 # dash and bash have -nt
    [ "$src" -nt "$progs/$1" ] && return 0
  done
  [ "$(build_args "$1")" != "$(cat "$progs/$1.args" 2> /dev/null)" ]
}
for n in $all; do
  if stale "$n"; then
    if [ "$n" = prim_device ]; then q1=$n; else q2="$q2 $n"; fi
  fi
done
if [ -n "$q1$q2" ]; then
  (
    # one builder at a time, should both runtimes' tests start together
    command -v flock > /dev/null 2>&1 && flock 9
    for n in $q1; do build_one "$n"; done &
    for n in $q2; do build_one "$n"; done
    wait
  ) 9> "$progs/.lock"
fi
for n in $all; do
  [ -x "$progs/$n" ] || { echo "FAIL: hipcc could not build $n"; exit 1; }
done

pass=0 fail=0 failed=""
run() { # tag timeout sim-args... -- program args...
  tag=$1 limit=$2; shift 2
  log=$work/$(echo "$tag" | tr ' /,[]' '_____').log
  rc=0 start=$(date +%s)
  timeout "$limit" "$sim" "$@" > "$log" 2>&1 || rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); echo "PASS  $tag  ${secs}s"
  else
    fail=$((fail + 1)); failed="$failed $tag"
    echo "FAIL  $tag  ${secs}s (exit $rc$([ $rc -eq 124 ] && echo ', timed out'))"
    grep -v '^\[hsa-sim' "$log" | grep -v '^digest\|^time' | tail -n 8 | sed 's/^/      | /'
  fi
}

run "prim_device [gfx900]" 240 --gpu gfx900 -- "$progs/prim_device"
run "prim_block [gfx900]" 240 --gpu gfx900 -- "$progs/prim_block"
run "sparse [gfx900]" 240 --gpu gfx900 -- "$progs/sparse"
run "sparse_gemm [gfx900]" 240 --gpu gfx900 -- "$progs/sparse_gemm"
run "rtc [gfx900]" 240 --gpu gfx900 -- "$progs/rtc"
run "rand [gfx900]" 400 --gpu gfx900 -- "$progs/rand"
# The libraries' and hipRTC's code for other chips: rocSPARSE's gfx90a kernels, hipRTC
# compiling for gfx906 and gfx90a (sramecc+), rocPRIM's block and warp code for gfx90a.
run "prim_block [gfx90a]" 240 --gpu gfx90a -- "$progs/prim_block"
run "sparse [gfx90a]" 240 --gpu gfx90a -- "$progs/sparse"
run "rtc [gfx906]" 240 --gpu gfx906 -- "$progs/rtc"
run "rtc [gfx90a]" 240 --gpu gfx90a -- "$progs/rtc"

# rand's numbers: the same on both runtimes, bit for bit
randlog=$work/rand__gfx900_.log
if grep -q '^rand: .*all checks passed' "$randlog"; then
  grep '^digest' "$randlog" > "$progs/rand.digests.$runtime"
  other=rocr; [ "$runtime" = rocr ] && other=ours
  od=$progs/rand.digests.$other
  # shellcheck disable=SC3013
  if [ -e "$od" ] && [ ! "$progs/rand" -nt "$od" ]; then
    if diff "$od" "$progs/rand.digests.$runtime" > "$work/digests.diff"; then
      pass=$((pass + 1)); echo "PASS  rand: the same numbers as on $other ($(wc -l < "$od") digests)"
    else
      fail=$((fail + 1)); failed="$failed rand-digests"
      echo "FAIL  rand: numbers differ between $other (<) and $runtime (>):"; sed 's/^/      | /' "$work/digests.diff"
    fi
  else
    echo "NOTE  rand: no digests of a run on $other of this build yet, not compared (libs_$other compares them)"
  fi
fi
grep -h '^time' "$randlog" 2> /dev/null | sed 's/^/      rand /'

echo "$label: $pass passed, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
exit 0

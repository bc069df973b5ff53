#!/bin/sh
# SPDX-License-Identifier: MIT
# Two queues dispatching at once on hsa-sim's pool of host threads (sim/cp/pool.c): two host
# threads each submit a chain of dependent dispatches to their own queue (sim_threads_client.c:
# packet k reads what every work-group of packet k-1 wrote; LDS, barriers and one atomic per
# group), and the final buffers and atomic sums must equal the host's. Run with --threads 1
# (each engine alone), --threads 2 and --threads 4 (the queues' work-groups share the pool), on
# our runtime and, as the peer, Debian's ROCR 5.2.3 (--threads 4).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads the sanitizer-built libhsa-sim.so into a client built without sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
command -v clang-15 > /dev/null || { echo "clang-15 is not installed"; exit 77; }
devlibs=""
for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && devlibs=$d; done
[ -n "$devlibs" ] || { echo "rocm-device-libs is not installed"; exit 77; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
work=$BUILD/tests/sim_threads
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)

clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900 -mcode-object-version=4 -O2 \
  --rocm-device-lib-path="$devlibs" -o "$work/step.co" "$SRCDIR/tests/integration/sim_threads.cl" ||
  fail "cannot compile sim_threads.cl"
src=$SRCDIR/tests/integration/sim_threads_client.c
${CC:-cc} -std=gnu11 -O2 -pthread -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" -o "$work/ours" \
  "$src" -L"$BUILD/lib" -lhsa-runtime64 -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
if [ -n "$rocr" ]; then
  ${CC:-cc} -std=gnu11 -O2 -pthread -I"$SRCDIR/include" -I"$SRCDIR/tests/integration" -o "$work/rocr" \
    "$src" "$rocr" -Wl,-rpath,"$(dirname "$rocr")" || fail "cannot build the ROCR client"
fi

st=0
# the option itself: out-of-range or malformed counts are refused before the program runs
for bad in 0 257 2x ""; do
  rc=0
  "$sim" --threads "$bad" -- true > "$work/bad.log" 2>&1 || rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "--threads '$bad' is not a number from 1 to 256" "$work/bad.log"; then
    st=1; echo "FAIL  --threads '$bad': exit $rc, $(head -n 1 "$work/bad.log")"
  fi
done
[ $st -eq 0 ] && echo "PASS  --threads 0, 257, 2x and '' are refused (exit 2, named)"
run() { # label client threads
  rc=0
  timeout 300 "$sim" --threads "$3" -- "$work/$2" "$work/step.co" > "$work/$1.log" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then
    echo "PASS  $1"; grep -e '^queue' "$work/$1.log" | sed 's/^/      /'
  else
    st=1; echo "FAIL  $1 (exit $rc)"; grep -v '^\[hsa-sim' "$work/$1.log" | tail -n 8 | sed 's/^/      | /'
  fi
}
run "ours, --threads 1" ours 1
run "ours, --threads 2" ours 2
run "ours, --threads 4" ours 4
if [ -n "$rocr" ]; then
  run "ROCR 5.2.3, --threads 4" rocr 4
else
  echo "(Debian's ROCR is not installed: no peer run)"
fi
exit $st

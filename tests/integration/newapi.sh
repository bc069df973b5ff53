#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 120
# newapi.sh — the entry points of the newest ROCR export list that this runtime implements
# (newapi_client.c, one "name ok" line per check against host-computed results), under
# hsa-sim on gfx900 and gfx942 (gfx900 alone with HSA_TEST_LIGHT). Then:
# - hsa_amd_agent_set_async_scratch_limit around a kernel needing scratch (gfx900): scratch a
#   queue keeps is given back when the limit goes below it, the next grow is single-use;
# - hsa_amd_agent_preload makes one KFD SDMA queue per SDMA engine the topology reports
#   (counted in the simulator's ioctl trace, the client making no copy), at KFD 1.18 each on
#   its own engine (SDMA_BY_ENG_ID); an application queue asked for on engine 1 is there at
#   1.18 and copies bytes, queues without an engine go round-robin, and at 1.16 (no
#   SDMA_BY_ENG_ID) the call is refused as the newest ROCR refuses it;
# - hsa_amd_svm_discard_batch_async with XNACK on (gfx942): ranges go back to system memory;
# - hsa_amd_async_function, the one of them ROCR 5.2.3 has, gives the same answers on
#   Debian's ROCR and on ours.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
fail() { echo "FAIL: $*"; exit 1; }
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads the sanitizer-built libhsa-sim.so into a client built without sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || fail "$sim is not built"
work=$BUILD/tests/newapi
rm -rf "$work" && mkdir -p "$work"
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES GPU_MAX_HW_QUEUES
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/newapi_client.c" -L"$BUILD/lib" -lhsa-runtime64 -lpthread \
  || fail "cannot build the client"
checks=40
gpus="gfx900 gfx942"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && gpus=gfx900
for g in $gpus; do
  LD_LIBRARY_PATH=$BUILD/lib timeout 100 "$sim" --gpu $g -- "$work/client" "$work" \
    > "$work/$g.out" 2> "$work/$g.err" ||
    fail "$g: $(grep -v ' ok$' "$work/$g.out") $(tail -n 3 "$work/$g.err")"
  n=$(grep -c ' ok$' "$work/$g.out")
  [ "$n" -eq $checks ] || fail "$g: $n of $checks checks: $(cat "$work/$g.out")"
done

# scratch limits around a kernel that needs scratch (dispatch_kernels.cl's priv, clang-15)
scratch="no clang-15"
devlibs=""
for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && devlibs=$d; done
if command -v clang-15 > /dev/null && [ -n "$devlibs" ]; then
  clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900 -O2 \
    --rocm-device-lib-path="$devlibs" -o "$work/kernels.co" \
    "$SRCDIR/tests/integration/dispatch_kernels.cl" || fail "cannot compile dispatch_kernels.cl"
  LD_LIBRARY_PATH=$BUILD/lib timeout 100 "$sim" -- "$work/client" scratch "$work/kernels.co" \
    > "$work/scratch.out" 2>&1 || fail "scratch: $(grep -v ' ok$' "$work/scratch.out")"
  [ "$(grep -c ' ok$' "$work/scratch.out")" -eq 4 ] || fail "scratch: $(cat "$work/scratch.out")"
  scratch="4 scratch checks"
fi

# preload: as many SDMA queues as the GPU has SDMA engines, with no copy asked for
LD_LIBRARY_PATH=$BUILD/lib "$sim" --trace="$work/trace" -- "$work/client" preload \
  > "$work/preload.out" 2>&1 || fail "preload: $(cat "$work/preload.out")"
engines=$(LD_LIBRARY_PATH=$BUILD/lib "$sim" -- sh -c \
  'sed -n "s/^num_sdma_engines //p" /sys/class/kfd/kfd/topology/nodes/1/properties')
made=$(grep -c 'CREATE_QUEUE(.*queue_type=SDMA_BY_ENG_ID,.*) = 0' "$work/trace")
[ -n "$engines" ] && [ "$engines" -gt 0 ] && [ "$made" -eq "$engines" ] ||
  fail "preload made $made SDMA queues for $engines engines"
# from KFD 1.17 (the default 1.18) runtime ring k is a queue of engine k itself
k=0
while [ $k -lt "$engines" ]; do
  grep -q "kfd: queue [0-9]* is queue 0 of SDMA engine $k\$" "$work/trace" ||
    fail "preload: no queue on SDMA engine $k: $(grep 'of SDMA engine' "$work/trace")"
  k=$((k + 1))
done

# an application SDMA queue on engine 1 (USE_ENGINE_ID) copies bytes through its ring at
# 1.18 (SDMA_BY_ENG_ID on engine 1), then two without an engine go round-robin (engines 0, 1);
# at 1.16 the newest ROCR refuses every such queue (INVALID_QUEUE_CREATION), none is made
for m in 16 18; do
  LD_LIBRARY_PATH=$BUILD/lib "$sim" --kfd-version 1.$m --trace="$work/engine.$m.trace" -- \
    "$work/client" engine > "$work/engine.$m.out" 2>&1 ||
    fail "engine at 1.$m: $(cat "$work/engine.$m.out")"
done
grep -q '^engine_queue ok$' "$work/engine.18.out" || fail "engine at 1.18: $(cat "$work/engine.18.out")"
[ "$(grep -c 'CREATE_QUEUE(.*queue_type=SDMA_BY_ENG_ID,.*) = 0' "$work/engine.18.trace")" -eq 3 ] &&
  grep -q 'kfd: queue [0-9]* is queue 0 of SDMA engine 1$' "$work/engine.18.trace" &&
  grep -q 'kfd: queue [0-9]* is queue 0 of SDMA engine 0$' "$work/engine.18.trace" &&
  grep -q 'kfd: queue [0-9]* is queue 1 of SDMA engine 1$' "$work/engine.18.trace" ||
  fail "1.18: queues not on engines 1, then 0 and 1: $(grep 'SDMA engine' "$work/engine.18.trace")"
grep -q '^engine_queue refused 0x1002$' "$work/engine.16.out" ||
  fail "1.16: not refused: $(cat "$work/engine.16.out")"
grep -q 'CREATE_QUEUE(.*queue_type=SDMA' "$work/engine.16.trace" &&
  fail "1.16: an SDMA queue was made: $(grep 'CREATE_QUEUE' "$work/engine.16.trace")"

# hsa_amd_svm_discard_batch_async with XNACK (gfx942, HSA_XNACK=1): reserved ranges the GPU
# holds go back to system memory once the dependency is 0 (their prefetch location is then
# the CPU, as ROCR's own test requires); a stack buffer is refused; a destroyed dependency
# drops the discard. The main run above has XNACK off: XNACK_DISABLED there.
HSA_XNACK=1 LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$sim" --gpu gfx942 -- "$work/client" discard \
  > "$work/discard.out" 2>&1 || fail "discard: $(grep -v ' ok$' "$work/discard.out")"
[ "$(grep -c ' ok$' "$work/discard.out")" -eq 3 ] || fail "discard: $(cat "$work/discard.out")"

# hsa_amd_async_function on ROCR 5.2.3 and on ours
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
[ -n "$rocr" ] || fail "Debian's ROCR (libhsa-runtime64-1) is not installed"
mkdir -p "$work/rocr-lib" && ln -sf "$rocr" "$work/rocr-lib/libhsa-runtime64.so.1"
LD_LIBRARY_PATH=$work/rocr-lib "$sim" -- "$work/client" peer > "$work/peer-rocr.out" 2>&1 ||
  fail "peer on ROCR: $(tail -n 3 "$work/peer-rocr.out")"
LD_LIBRARY_PATH=$BUILD/lib "$sim" -- "$work/client" peer > "$work/peer-ours.out" 2>&1 ||
  fail "peer on ours: $(tail -n 3 "$work/peer-ours.out")"
grep -q '^async_function 0 ran 42 other_thread 1 ' "$work/peer-rocr.out" ||
  fail "ROCR's answer is unexpected: $(cat "$work/peer-rocr.out")"
diff -u "$work/peer-rocr.out" "$work/peer-ours.out" > "$work/peer.diff" ||
  fail "hsa_amd_async_function differs from ROCR: $(cat "$work/peer.diff")"
echo "ok: $checks checks on $gpus, $scratch; preload made $made SDMA queues, one per engine; a queue on engine 1 at 1.18; discard with XNACK; async_function as ROCR's"

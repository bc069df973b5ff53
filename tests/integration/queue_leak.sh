#!/bin/sh
# queue_leak.sh — 200 GPU queues created and destroyed (a third of them with a barrier packet
# still waiting): every KFD queue created is destroyed (hsa-sim --trace), and the process has
# as many open files and memory mappings afterwards as after the first queue.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads the sanitizer-built libhsa-sim.so into a client built without sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "$sim is not built"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
work=$BUILD/tests/queue_leak
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/ours" "$SRCDIR/tests/integration/queue_work.c" \
  -L"$BUILD/lib" -lhsa-runtime64 -Wl,-rpath,"$BUILD/lib" -lpthread || fail "cannot build the client"
timeout 300 "$sim" --trace="$work/trace" -- "$work/ours" leak 200 > "$work/out" 2>&1 ||
  fail "client exited $?: $(tail -n 5 "$work/out")"
cat "$work/out"
c=$(grep -c 'kfd CREATE_QUEUE(.*) = 0' "$work/trace")
d=$(grep -c 'kfd DESTROY_QUEUE(.*) = 0' "$work/trace")
[ "$c" = 201 ] || fail "$c KFD queues created, want 201"
[ "$d" = "$c" ] || fail "$c KFD queues created but $d destroyed"
set -- $(grep '^fds ' "$work/out")
[ $# = 3 ] && [ "$2" = "$3" ] || fail "open files before/after: $2 $3"
set -- $(grep '^maps ' "$work/out")
[ $# = 3 ] && [ "$2" = "$3" ] || fail "mappings before/after: $2 $3"
echo "ok"

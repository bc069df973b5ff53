#!/bin/sh
# SPDX-License-Identifier: MIT
# queue_leak.sh — 200 GPU queues created and destroyed (a third of them with a barrier packet
# still waiting), after 30 to warm up: every KFD queue and buffer object created meanwhile is
# destroyed again (hsa-sim --trace), and the process has as many open files and memory
# mappings afterwards as after the warm-up. Then 16 queues live at once add little resident
# memory: their context-save areas (21 MiB each on gfx900) stay untouched until a wave is saved.
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
[ "$c" = 230 ] || fail "$c KFD queues created, want 230"
[ "$d" = "$c" ] || fail "$c KFD queues created but $d destroyed"
# between the client's two markers (GET_CLOCK_COUNTERS after init), every buffer object made
# is freed again: a queue leaking its ring, EOP, CWSR area or descriptor page shows 200 times
set -- $(awk '/kfd GET_CLOCK_COUNTERS/ { m++ } m == 2 && /kfd ALLOC_MEMORY_OF_GPU\(.*\) = 0/ { a++ }
              m == 2 && /kfd FREE_MEMORY_OF_GPU\(.*\) = 0/ { f++ } END { print a + 0, f + 0, m + 0 }' \
         "$work/trace")
[ "$3" = 3 ] || fail "the trace has $3 clock markers, want 3"
[ "$1" -ge 200 ] || fail "only $1 buffer objects allocated during 200 queues"
[ $(( $1 - $2 )) -lt 10 ] || fail "$1 buffer objects allocated, $2 freed during 200 queues"
echo "buffer objects: $1 allocated, $2 freed"
set -- $(grep '^fds ' "$work/out")
[ $# = 3 ] && [ "$2" = "$3" ] || fail "open files before/after: $2 $3"
set -- $(grep '^maps ' "$work/out")
[ $# = 3 ] && [ "$2" = "$3" ] || fail "mappings before/after: $2 $3"
timeout 120 "$sim" -- "$work/ours" rss 16 > "$work/rss" 2>&1 ||
  fail "rss client exited $?: $(tail -n 5 "$work/rss")"
set -- $(grep '^rss_growth_kib ' "$work/rss")
[ $# = 2 ] || fail "no rss_growth_kib line: $(tail -n 5 "$work/rss")"
echo "16 live queues add $2 KiB resident"
[ "$2" -lt 32768 ] || fail "16 live queues add $2 KiB resident (their save areas were touched)"
echo "ok"

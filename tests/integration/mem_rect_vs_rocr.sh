#!/bin/sh
# SPDX-License-Identifier: MIT
# mem_rect_vs_rocr.sh — hsa_amd_memory_async_copy_rect on our runtime answers what Debian's
# ROCR 5.2.3 answers on the same simulated machine (1x and 2x gfx900, 2x gfx90a).
# mem_rect_client.c copies 2-D and 3-D rectangles host to device, device to device (also to
# the other GPU) and device to host, checks every destination byte against the host's own
# computation, and tries the arguments both runtimes refuse. ROCR sends the copies to the
# simulated SDMA engine as COPY_LINEAR_SUB_WINDOW packets; we copy with the CPU where it can
# reach both sides. Every copy must complete (the client gives up after 30 s with a
# message) and the two outputs must be equal line for line.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init mem_rect_vs_rocr
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/client" \
  "$SRCDIR/tests/integration/mem_rect_client.c" -L"$BUILD/lib" -lhsa-runtime64 || exit 1

status=0
for machine in "gfx900 1" "gfx900 2" "gfx90a 2"; do
  set -- $machine
  gpus="$1x$2"
  for who in rocr ours; do
    if [ $who = rocr ]; then
      env -u LD_LIBRARY_PATH timeout 120 "$sim" --gpu $1 --gpus $2 -- "$work/client" \
        >"$work/$who.$gpus" 2>"$work/$who.err.$gpus"
    else
      LD_LIBRARY_PATH="$BUILD/lib" timeout 120 "$sim" --gpu $1 --gpus $2 -- "$work/client" \
        >"$work/$who.$gpus" 2>"$work/$who.err.$gpus"
    fi
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "$who run failed ($gpus, exit $rc):"
      tail -n 5 "$work/$who.$gpus"; cat "$work/$who.err.$gpus"
      status=1
      continue
    fi
    n=$(grep -c ': copy_rect = 0x0$' "$work/$who.$gpus")
    done_ok=$(grep -c ' completes=1$' "$work/$who.$gpus")
    bytes_ok=$(grep -c ': bytes as the host computes=1$' "$work/$who.$gpus")
    if [ "$n" -lt 7 ] || [ "$done_ok" -ne "$n" ] || [ "$bytes_ok" -ne "$n" ]; then
      echo "$who ($gpus): $n copies started, $done_ok completed, $bytes_ok with the right bytes:"
      grep -v '= 0x' "$work/$who.$gpus"
      status=1
    fi
    grep -qxF "h2d 2-D: waits for its dependency=1" "$work/$who.$gpus" ||
      { echo "$who ($gpus): the copy did not wait for its dependency"; status=1; }
  done
  [ -s "$work/rocr.$gpus" ] && [ -s "$work/ours.$gpus" ] || continue
  diff "$work/rocr.$gpus" "$work/ours.$gpus" >"$work/diff.$gpus" ||
    { echo "outputs differ ($gpus; < ROCR, > ours):"; cat "$work/diff.$gpus"; status=1; }
done
[ $status -eq 0 ] && echo "copy_rect matches ROCR 5.2.3 on 1x gfx900, 2x gfx900 and 2x gfx90a"
exit $status

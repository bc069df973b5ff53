#!/bin/sh
# SPDX-License-Identifier: MIT
# agent_info_vs_rocr.sh — under hsa-sim, the information API of our runtime must say what
# Debian's ROCR 5.2.3 says about the same simulated machine: agent_info_dump.c prints every
# system, agent, ISA, cache, region and pool attribute, once with each runtime.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
SIM="$BUILD/bin/hsa-sim"
ROCR=/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1

if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: preloads libhsa-sim.so into programs not built with sanitizers"; exit 77
fi
# Everything below is installed and built by the test command: a missing piece is a failure.
[ -x "$SIM" ] || { echo "$SIM is not built"; exit 1; }
[ -e "$ROCR" ] || { echo "Debian's ROCR (libhsa-runtime64-1) is not installed"; exit 1; }
env -u LD_LIBRARY_PATH "$SIM" -- rocminfo >/dev/null 2>&1 ||
  { echo "'hsa-sim -- rocminfo' fails, so ROCR cannot be the reference"; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# Built against our headers (ABI-equal to ROCR's); the soname is the same for both runtimes.
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$tmp/dump" \
  "$SRCDIR/tests/integration/agent_info_dump.c" -L"$BUILD/lib" -lhsa-runtime64 || exit 1

# Where we knowingly differ from ROCR 5.2.3 (README, "Differences from ROCR 5.2.3"):
#  MAX_SAMPLER_HANDLERS  5.2.3 falls through into CHIP_ID and returns the device id; we say 16.
#  CACHELINE_SIZE        5.2.3 always says 64; newer ROCR (and we) use the KFD's L2 line size.
#  CPU CACHE_SIZE        ROCR multiplies the thunk's CPU cache sizes, already in bytes, by 1024.
#  cache size            ROCR gives GPU cache sizes in KiB through HSA_CACHE_INFO_SIZE; bytes here.
#  ALLOC_MAX_SIZE        ROCR counts system memory twice (fine-grained and kernarg regions).
known='HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS|HSA_AMD_AGENT_INFO_CACHELINE_SIZE'

# ROCR's answers are the reference: every attribute it answers must be answered identically;
# attributes it rejects (newer than 5.2.3) we may answer. Other lines must match exactly.
compare() {
awk -v known="$known" '
  function value(line,   v) { v = line; sub(/.* value=/, "", v); return v }
  function scaled(r, o, f,   a, b, n, i) {  # every number of r is f times that of o
    n = split(value(r), a, ","); if (split(value(o), b, ",") != n) return 0
    for (i = 1; i <= n; i++) if (a[i] + 0 != (b[i] + 0) * f) return 0
    return 1
  }
  FNR == NR { ref[FNR] = $0; n = FNR; next }
  { ours[FNR] = $0; m = FNR }
  END {
    bad = 0
    if (n != m) { printf "line counts differ: ROCR %d, ours %d\n", n, m; bad = 1 }
    for (i = 1; i <= n && i <= m; i++) {
      r = ref[i]; o = ours[i]
      if (r == o) continue
      split(r, a, " status="); split(o, b, " status=")
      same_key = (a[1] == b[1])
      if (same_key && r ~ known) { print "known difference: " r " | ours: " o; continue }
      if (same_key && r ~ /INFO_CACHE_SIZE status=0/ && scaled(r, o, 1024)) continue
      if (same_key && r ~ /ALLOC_MAX_SIZE status=0/ && scaled(r, o, 2)) continue
      if (r ~ / cache level=/) {
        split(r, c, " size="); split(o, d, " size=")
        if (c[1] == d[1] && c[2] * 1024 == d[2]) continue
      }
      if (same_key && r ~ / status=[1-9]/ && index(o, " status=0 ")) continue  # newer attribute
      print "ROCR: " r; print "ours: " o; bad = 1
    }
    exit bad
  }' "$tmp/rocr.txt" "$tmp/ours.txt"
}

# Simulated machines: the default board, two gfx906 and two gfx90a (XGMI-class) boards, and
# a reordered ROCR_VISIBLE_DEVICES.
status=0
for config in "" "--gpu gfx906 --gpus 2" "--gpu gfx90a --gpus 2" "--gpus 2 ROCR_VISIBLE_DEVICES=1,0"; do
  opts=${config%%ROCR_VISIBLE_DEVICES=*}
  rvd=""
  case "$config" in *ROCR_VISIBLE_DEVICES=*) rvd=${config##*ROCR_VISIBLE_DEVICES=} ;; esac
  echo "== hsa-sim $config"
  # shellcheck disable=SC2086
  if ! env -u LD_LIBRARY_PATH ${rvd:+ROCR_VISIBLE_DEVICES=$rvd} "$SIM" $opts -- "$tmp/dump" \
       >"$tmp/rocr.txt" 2>"$tmp/rocr.err"; then
    echo "ROCR failed under hsa-sim $config:"; tail -n 5 "$tmp/rocr.txt" "$tmp/rocr.err"
    status=1; continue
  fi
  # shellcheck disable=SC2086
  if ! env LD_LIBRARY_PATH="$BUILD/lib" ${rvd:+ROCR_VISIBLE_DEVICES=$rvd} "$SIM" $opts -- \
       "$tmp/dump" >"$tmp/ours.txt" 2>"$tmp/ours.err"; then
    echo "our runtime failed under hsa-sim $config:"; tail -n 5 "$tmp/ours.txt" "$tmp/ours.err"
    status=1; continue
  fi
  compare || status=1
  echo "compared $(wc -l <"$tmp/rocr.txt") lines"
done
exit $status

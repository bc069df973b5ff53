#!/bin/sh
# SPDX-License-Identifier: MIT
# rocminfo_vs_rocr.sh — Debian's rocminfo on our library and on Debian's ROCR 5.2.3, both
# under hsa-sim on the same simulated machine (1x gfx900, 2x gfx906, 1x gfx90a, 2x gfx90a):
# the outputs are compared line by line (system attributes, every agent, pool and ISA
# field). A line may differ only where rocminfo_vs_rocr.allowed lists the field for that
# agent kind, and then the listed rule must hold; everything else must be equal.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init rocminfo_vs_rocr
[ -x /usr/bin/rocminfo ] || { echo "Debian's rocminfo is not installed (apt install rocminfo)"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_TOOLS_LIB
allowed=$SRCDIR/tests/integration/rocminfo_vs_rocr.allowed

for machine in gfx900:1 gfx906:2 gfx90a:1 gfx90a:2; do
  gpu=${machine%:*} n=${machine#*:}
  for rt in rocr ours; do
    lib=$rocr_lib; [ $rt = ours ] && lib=$BUILD/lib
    st=0
    LD_LIBRARY_PATH=$lib timeout 120 "$sim" --gpu "$gpu" --gpus "$n" -- rocminfo \
      > "$work/$rt.$gpu.$n" 2> "$work/$rt.$gpu.$n.err" || st=$?
    [ $st -eq 0 ] || fail "rocminfo on $rt, $n x $gpu: exit $st: $(tail -n 3 "$work/$rt.$gpu.$n.err")"
    grep -q '^\*\*\* Done \*\*\*' "$work/$rt.$gpu.$n" || fail "rocminfo on $rt, $n x $gpu did not finish"
  done
  # Our library says nothing on stderr (no stub was reached).
  [ -s "$work/ours.$gpu.$n.err" ] && fail "$n x $gpu: ours wrote on stderr: $(head -n 3 "$work/ours.$gpu.$n.err")"
  [ "$(grep -c 'Device Type: *GPU' "$work/ours.$gpu.$n")" -eq "$n" ] || fail "$n x $gpu: not $n GPU agents"
  awk -v allowed="$allowed" -v what="$n x $gpu" '
    BEGIN {
      while ((getline l < allowed) > 0) {
        if (l ~ /^#/ || l ~ /^[ \t]*$/) continue
        split(l, f, /[ \t]+/); gsub(/_/, " ", f[2]); rule[f[1] "/" f[2]] = f[3]
      }
    }
    function key(l,   k) { k = l; sub(/:.*/, "", k); gsub(/^ +| +$/, "", k); return k }
    function num(l,   v) { v = l; sub(/^[^:]*: */, "", v); return v + 0 }
    FNR == NR { r[FNR] = $0; nr = FNR; next }
    {
      no = FNR
      if ($0 ~ /Device Type:/) { kind = $0; sub(/.*: */, "", kind); sub(/ +$/, "", kind) }
      if ($0 == r[FNR]) next
      k = kind "/" key($0)
      has = k in rule
      if (has && rule[k] == "x1024" && num(r[FNR]) == 1024 * num($0) && num($0) > 0) { allowed_n++; next }
      if (has && rule[k] == "rocr64" && num(r[FNR]) == 64 && key(r[FNR]) == key($0)) { allowed_n++; next }
      printf "FAIL: %s, line %d differs%s:\n  ROCR: %s\n  ours: %s\n", what, FNR,
             has ? " breaking its rule " rule[k] : "", r[FNR], $0
      bad = 1
    }
    END {
      if (nr != no) { printf "FAIL: %s: ROCR printed %d lines, ours %d\n", what, nr, no; bad = 1 }
      if (!bad) printf "%s: %d lines, equal but for %d allowed differences\n", what, no, allowed_n + 0
      exit bad
    }' "$work/rocr.$gpu.$n" "$work/ours.$gpu.$n" || exit 1
done
echo "ok"

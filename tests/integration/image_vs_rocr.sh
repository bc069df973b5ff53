#!/bin/sh
# SPDX-License-Identifier: MIT
# image_vs_rocr.sh — the images extension against Debian's ROCR 5.2.3, both under hsa-sim:
#  1. image_dump.c prints the agent's image limits, hsa_ext_image_get_capability(_with_layout)
#     of every geometry x channel order x channel type, hsa_ext_image_data_get_info(
#     _with_layout) of every supported format on six sizes per geometry, read-only and
#     read-write, opaque and linear with explicit pitches, sizes in unused dimensions, and the
#     T#/V# words of a linear image of every supported format and geometry and the S# of every
#     sampler, and the T# of an OPAQUE image (gfx9's tiled SW_MODE and PITCH): every line must
#     be equal (the dump masks the descriptor fields that knowingly differ);
#  2. image_bad_client.c: bad input, ROCR's statuses (where ROCR aborts or crashes, ours are
#     checked against the documented error instead);
#  3. image_data_client.c: import/export/clear/copy against host results, on ours and on ROCR
#     (whose blit kernels run on hsa-sim's image instructions), and the raw bytes of the
#     OPAQUE (tiled) images equal between the two.
# gfx900, and gfx90a unless HSA_TEST_LIGHT=1. Env: BUILD, SRCDIR. Exit 0 pass, 77 skip.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init image_vs_rocr

cc=${CC:-cc}
for c in image_dump image_bad_client image_data_client; do
  $cc -std=gnu11 -O1 -I"$SRCDIR/include/hsa" -o "$work/$c" "$SRCDIR/tests/integration/$c.c" \
    -L"$BUILD/lib" -lhsa-runtime64 -lm || fail "cannot build $c"
done
rocr() { env LD_LIBRARY_PATH="$rocr_lib" "$sim" "$@"; }
ours() { env LD_LIBRARY_PATH="$BUILD/lib" "$sim" "$@"; }

# The OPAQUE layout of 2D, 3D, 2DA, 2DDEPTH and 2DADEPTH images is tiled on both (addrlib's
# preferred 4 KiB/64 KiB swizzle modes, src/image/tile_gfx9.c): sizes, alignments and T#s equal.
gpus="gfx900 gfx90a"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && gpus=gfx900
status=0
for g in $gpus; do
  rocr --gpu "$g" -- "$work/image_dump" > "$work/rocr-$g.txt" 2> "$work/rocr-$g.err" ||
    { tail -n 5 "$work/rocr-$g.err"; fail "image_dump on ROCR ($g) failed"; }
  ours --gpu "$g" -- "$work/image_dump" > "$work/ours-$g.txt" 2> "$work/ours-$g.err" ||
    { tail -n 5 "$work/ours-$g.err"; fail "image_dump on ours ($g) failed"; }
  n=$(wc -l < "$work/rocr-$g.txt")
  [ "$n" -gt 10000 ] || fail "ROCR's dump on $g has only $n lines"
  if ! awk '
    FNR == NR { ref[FNR] = $0; n = FNR; next }
    { m = FNR; o = $0; r = ref[FNR]
      # an OPAQUE T# whose SW_MODE (word3 bits 24:20) is not 0
      if (r == o) { if (o ~ /^srdo .* status=0 / && (substr($10, 3, 1) != "0" ||
                        index("13579bdf", substr($10, 2, 1)) > 0)) tiled++; next }
      print "ROCR: " r; print "ours: " o; bad++ }
    END { if (n != m) { print "line counts differ: " n " and " m; bad++ }
          printf "%d lines equal, %d opaque tiled T#s among them\n", n, tiled; exit bad > 0 }' \
      "$work/rocr-$g.txt" "$work/ours-$g.txt"; then
    echo "FAIL: capabilities/data_get_info differ on $g"; status=1
  fi
  grep -q '^cap 2D o=8 t=2 status=0,4097,0 mask=0x7,0,0x7$' "$work/ours-$g.txt" ||
    { echo "FAIL: RGBA unorm8 2D is not read-write on $g"; status=1; }
done

# gfx942 has no image hardware (ROCR 5.2.3 does not know it): ours must say no everywhere.
ours --gpu gfx942 -- "$work/image_dump" --quick > "$work/ours-gfx942.txt" 2>&1 ||
  fail "image_dump on ours (gfx942) failed"
grep -q '^agent extensions images bit=0$' "$work/ours-gfx942.txt" &&
  [ "$(grep -c '^cap ' "$work/ours-gfx942.txt")" = 2560 ] &&
  ! grep '^cap ' "$work/ours-gfx942.txt" | grep -qv 'status=0,4097,0 mask=0,0,0$' &&
  ! grep -E '^(agent_info|max_dim) IMAGE' "$work/ours-gfx942.txt" | grep -qv 'status=0 value=0[,0]*$' &&
  grep -q '^extra 2D 16x8x1x0 opaque status=12288 ' "$work/ours-gfx942.txt" ||
  { echo "FAIL: gfx942 claims image support"; status=1; }

# Bad input. Cases where ROCR 5.2.3 has no status to compare (it crashes or aborts, or
# accepts what later ROCR refuses): ours must give the documented error.
#  22-24 sampler modes outside the enums: 5.2.3 accepts them; INVALID_ARGUMENT (later ROCR too)
#  35 an agent handle that is no agent: ROCR crashes; INVALID_AGENT
#  38, 39 an image / sampler destroyed twice: ROCR aborts; INVALID_ARGUMENT
#  44 hsa_amd_image_create without a layout: ROCR crashes; INVALID_ARGUMENT
#  47 an import region outside the image: ROCR says success (its blit kernel's stores outside
#     are dropped); INVALID_ARGUMENT
#  48 clear of a destroyed image: ROCR crashes; INVALID_ARGUMENT
cases=$("$work/image_bad_client" list)
shared="" own=""
i=0
while [ "$i" -lt "$cases" ]; do
  case $i in 22 | 23 | 24 | 35 | 38 | 39 | 44 | 47 | 48) own="$own $i" ;; *) shared="$shared $i" ;; esac
  i=$((i + 1))
done
# shellcheck disable=SC2086
rocr -- "$work/image_bad_client" $shared > "$work/bad-rocr.txt" 2> "$work/bad-rocr.err" ||
  { tail -n 5 "$work/bad-rocr.err"; fail "image_bad_client on ROCR failed"; }
# shellcheck disable=SC2086
ours -- "$work/image_bad_client" $shared > "$work/bad-ours.txt" 2> "$work/bad-ours.err" ||
  { tail -n 5 "$work/bad-ours.err"; fail "image_bad_client on ours failed"; }
[ "$(wc -l < "$work/bad-rocr.txt")" -eq "$(echo $shared | wc -w)" ] || fail "ROCR's bad-input run is short"
if ! diff "$work/bad-rocr.txt" "$work/bad-ours.txt"; then
  echo "FAIL: bad-input statuses differ from ROCR's"; status=1
fi
# shellcheck disable=SC2086
ours -- "$work/image_bad_client" $own > "$work/bad-own.txt" 2>&1 || fail "image_bad_client (own cases) failed"
cat > "$work/bad-own.expected" <<'EOF'
case 22 sampler address mode 7 status=0x1001
case 23 sampler filter mode 2 status=0x1001
case 24 sampler coordinate mode 2 status=0x1001
case 35 capability bad agent status=0x1004
case 38 destroy twice status=0x1001
case 39 sampler destroy twice status=0x1001
case 44 amd_image_create NULL layout status=0x1001
case 47 import region outside the image status=0x1001
case 48 clear destroyed image status=0x1001
EOF
if ! grep '^case' "$work/bad-own.txt" | diff "$work/bad-own.expected" -; then
  echo "FAIL: documented statuses"; status=1
fi
echo "bad input: $(echo $shared | wc -w) cases equal to ROCR's, $(echo $own | wc -w) documented"

# Data through import/export/clear/copy, against the host.
ours --gpu gfx900 -- "$work/image_data_client" > "$work/data-ours.txt" 2>&1
grep -q '^ok' "$work/data-ours.txt" || { tail -n 3 "$work/data-ours.txt"; echo "FAIL: image data on ours"; status=1; }
echo "ours: $(tail -n 1 "$work/data-ours.txt")"
# (ROCR 5.2.3 exports 1DA layers packed, ignoring the pitches: --rocr expects that.)
rocr --gpu gfx900 -- "$work/image_data_client" --rocr > "$work/data-rocr.txt" 2>&1
if grep -q '^ok' "$work/data-rocr.txt"; then
  echo "ROCR: $(grep '^ok' "$work/data-rocr.txt")"
else
  tail -n 3 "$work/data-rocr.txt"; echo "FAIL: image data on ROCR"; status=1
fi
# The OPAQUE images' bytes in memory after import, clear and copy: ROCR's blit kernels store
# through its tiled T#s (hsa-sim's swizzle), ours on the host (src/image/tile_gfx9.c); equal.
grep '^raw ' "$work/data-ours.txt" > "$work/raw-ours.txt"
grep '^raw ' "$work/data-rocr.txt" > "$work/raw-rocr.txt"
if [ -s "$work/raw-ours.txt" ] && diff "$work/raw-rocr.txt" "$work/raw-ours.txt"; then
  echo "raw bytes of $(wc -l < "$work/raw-ours.txt") opaque images equal to ROCR's"
else
  echo "FAIL: opaque images' bytes differ from ROCR's"; status=1
fi
exit $status

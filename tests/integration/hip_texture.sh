#!/bin/sh
# SPDX-License-Identifier: MIT
# HIP texture and surface objects (hip_texture.hip, built by Debian's hipcc for gfx900):
# hipCreateTextureObject over arrays (every address mode, point/linear, normalized or not;
# tex2DLod and tex2DGrad (image_sample_l/_d), tex2Dgather;
# uchar4 read as normalized floats), tex1Dfetch over linear memory, surf2Dread/surf2Dwrite;
# on Debian's HIP 5.2 and ROCR 5.2.3 under hsa-sim, and on ours when it claims the image
# extension (image_client --probe; else "skip ours: images not implemented"). The program
# checks every result against a host reference of the texture rules.
# timeout: 300
set -u
: "${BUILD:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/integration/lib/peer.sh"
peer_init hip_texture
command -v hipcc > /dev/null 2>&1 || { echo "hipcc is not installed (apt install hipcc)"; exit 77; }
[ -e /usr/include/hip/hip_runtime.h ] || { echo "HIP headers missing (apt install libamdhip64-dev)"; exit 77; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
T=$SRCDIR/tests/integration
mkdir -p "$work/tmp"
TMPDIR=$work/tmp hipcc --offload-arch=gfx900 -O2 -Wall -Werror -I"$SRCDIR/tests/hip" \
  -o "$work/hip_texture" "$T/hip_texture.hip" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "hipcc cannot build hip_texture.hip"; }
${CC:-cc} -std=gnu11 -O1 -I"$SRCDIR/include" -I"$T" -o "$work/probe" "$T/image_client.c" \
  -L"$BUILD/lib" -lhsa-runtime64 -lm || fail "cannot build the probe"

status=0
LD_LIBRARY_PATH=$rocr_lib timeout 240 "$sim" --gpu gfx900 -- "$work/hip_texture" > "$work/rocr.log" 2>&1
rc=$?
grep -v '^\[hsa-sim' "$work/rocr.log" | sed 's/$/ [HIP on ROCR 5.2.3]/'
[ $rc = 0 ] || { echo "FAIL: hip_texture on ROCR 5.2.3 (exit $rc)"; status=1; }

LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$sim" --gpu gfx900 -- "$work/probe" --probe > "$work/probe.log" 2>&1
if [ $? = 3 ]; then
  echo "skip ours: images not implemented"
else
  LD_LIBRARY_PATH=$BUILD/lib timeout 240 "$sim" --gpu gfx900 -- "$work/hip_texture" > "$work/ours.log" 2>&1
  rc=$?
  grep -v '^\[hsa-sim' "$work/ours.log" | sed 's/$/ [HIP on ours]/'
  [ $rc = 0 ] || { echo "FAIL: hip_texture on our runtime (exit $rc)"; status=1; }
fi
exit $status

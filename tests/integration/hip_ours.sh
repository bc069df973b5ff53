#!/bin/sh
# SPDX-License-Identifier: MIT
# The HIP programs of hip_rocr.sh on Debian's HIP 5.2 over our runtime under hsa-sim. Skips,
# saying why, while our runtime cannot set up a dispatch; turns on by itself when it can.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into HIP programs, which are not built with sanitizers"; exit 77
fi
[ -e "$BUILD/lib/libhsa-runtime64.so.1" ] || { echo "FAIL: $BUILD/lib/libhsa-runtime64.so.1 not built"; exit 1; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
LD_LIBRARY_PATH=$BUILD/lib; export LD_LIBRARY_PATH
RUNTIME=ours exec sh "$SRCDIR/tests/hip/run_hip.sh" "HIP on our runtime" "$BUILD/tests/hip_ours"

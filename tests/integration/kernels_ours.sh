#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel corpus (see kernels_rocr.sh) on our runtime under hsa-sim. Skips, saying why,
# while our runtime cannot set up a dispatch (init, pools, loader or queue creation fail);
# turns on by itself when it can.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
[ -e "$BUILD/lib/libhsa-runtime64.so.1" ] || { echo "FAIL: $BUILD/lib/libhsa-runtime64.so.1 not built"; exit 1; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
LD_LIBRARY_PATH=$BUILD/lib; export LD_LIBRARY_PATH
RUNTIME=ours exec sh "$SRCDIR/tests/kernels/run_corpus.sh" "kernels on our runtime" "$BUILD/tests/kernels_ours"

#!/bin/sh
# SPDX-License-Identifier: MIT
# The programs of libs_rocr.sh (Debian's rocRAND/hipRAND, rocSPARSE/hipSPARSE, hipRTC and
# rocPRIM, driven by programs built with Debian's hipcc) on Debian's HIP 5.2 over our runtime
# under hsa-sim. A program failing here but passing in libs_rocr points at our runtime.
# timeout: 600
set -eu
if [ "${HSA_TEST_LIGHT:-0}" = 1 ]; then
  echo "skip: the ROCm library programs run in the first configuration only (CI time)"; exit 77
fi
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into HIP programs, which are not built with sanitizers"; exit 77
fi
[ -e "$BUILD/lib/libhsa-runtime64.so.1" ] || { echo "FAIL: $BUILD/lib/libhsa-runtime64.so.1 not built"; exit 1; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
LD_LIBRARY_PATH=$BUILD/lib; export LD_LIBRARY_PATH
RUNTIME=ours exec sh "$SRCDIR/tests/libs/run_libs.sh" "ROCm libraries on our runtime" "$BUILD/tests/libs_ours"

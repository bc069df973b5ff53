#!/bin/sh
# SPDX-License-Identifier: MIT
# Programs built with Debian's hipcc against Debian's ROCm libraries (tests/libs: rocRAND and
# hipRAND generators, host and device API; rocSPARSE/hipSPARSE SpMV plain and adaptive,
# conversions, triangular solves; hipRTC; rocPRIM device algorithms and block/warp
# primitives) on Debian's HIP 5.2 and ROCR 5.2.3 under hsa-sim: the simulator's own check.
# Each program compares its results with the host's. libs_ours.sh runs the same builds on
# our runtime.
# timeout: 600
set -eu
if [ "${HSA_TEST_LIGHT:-0}" = 1 ]; then
  echo "skip: the ROCm library programs run in the first configuration only (CI time)"; exit 77
fi
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into HIP programs, which are not built with sanitizers"; exit 77
fi
ls /usr/lib/*/libhsa-runtime64.so.1 > /dev/null 2>&1 || { echo "FAIL: Debian's ROCR (libhsa-runtime64-1) is not installed"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
RUNTIME=rocr exec sh "$SRCDIR/tests/libs/run_libs.sh" "ROCm libraries on ROCR 5.2.3" "$BUILD/tests/libs_rocr"

#!/bin/sh
# SPDX-License-Identifier: MIT
# HIP programs built with Debian's hipcc (tests/hip: memory, kernels with shared memory and
# atomics, streams and events, device properties) on Debian's HIP 5.2 and ROCR 5.2.3 under
# hsa-sim. Each program checks its results; device properties are compared with the
# simulated topology.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into HIP programs, which are not built with sanitizers"; exit 77
fi
ls /usr/lib/*/libamdhip64.so* > /dev/null 2>&1 || { echo "Debian's HIP runtime is not installed (apt install libamdhip64-dev)"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
RUNTIME=rocr exec sh "$SRCDIR/tests/hip/run_hip.sh" "HIP on ROCR 5.2.3" "$BUILD/tests/hip_rocr"

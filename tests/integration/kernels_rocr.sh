#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel corpus (tests/kernels: OpenCL C and HIP kernels compiled now with clang-15 and
# hipcc) on Debian's ROCR 5.2.3 under hsa-sim: every case's outputs equal the host
# reference and, for OpenCL C, pocl's outputs on the CPU (bitwise for integers, within the
# documented ulp for floats). Proves the simulator with a runtime no one here wrote.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into programs using Debian's ROCR, which is not built with sanitizers"; exit 77
fi
ls /usr/lib/*/libhsa-runtime64.so.1 > /dev/null 2>&1 ||
  { echo "Debian's ROCR is not installed (apt install libhsa-runtime64-1)"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES
RUNTIME=rocr exec sh "$SRCDIR/tests/kernels/run_corpus.sh" "kernels on ROCR 5.2.3" "$BUILD/tests/kernels_rocr"

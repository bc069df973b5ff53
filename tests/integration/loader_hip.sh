#!/bin/sh
# SPDX-License-Identifier: MIT
# loader_hip.sh — a HIP 5.2 program (Debian's hipcc) runs a kernel reading a __device__
# variable on our runtime under hsa-sim: HIP's code object loading goes through our loader;
# its _amdgpu_r_debug entry names the program file and the code object's bytes in it.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
SIM="$BUILD/bin/hsa-sim"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: preloads libhsa-sim.so into programs not built with sanitizers"; exit 77
fi
command -v hipcc >/dev/null || { echo "hipcc is not installed"; exit 1; }
[ -x "$SIM" ] || { echo "$SIM is not built"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
hipcc --offload-arch=gfx900:xnack- -o "$tmp/hip" "$SRCDIR/tests/integration/loader_hip.hip" \
  >"$tmp/cc.log" 2>&1 || { cat "$tmp/cc.log"; exit 1; }
LD_LIBRARY_PATH="$BUILD/lib" timeout 300 "$SIM" -- "$tmp/hip"

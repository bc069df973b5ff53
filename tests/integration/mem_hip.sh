#!/bin/sh
# SPDX-License-Identifier: MIT
# mem_hip.sh — HIP 5.2 programs on our runtime's memory layer under hsa-sim (2 gfx900):
# mem_hip.hip registers host memory and lets a kernel write it, asks pointer attributes,
# copies 2D and between GPUs, and checks every result itself. (Debian's ROCR 5.2.3 stops
# in hipMemcpy2D on the simulator, so it is not the peer here.)
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
SIM="$BUILD/bin/hsa-sim"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: preloads libhsa-sim.so into programs not built with sanitizers"; exit 77
fi
[ -x "$SIM" ] || { echo "$SIM is not built"; exit 1; }
command -v hipcc > /dev/null 2>&1 || { echo "hipcc is not installed (apt install hipcc)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
TMPDIR=$tmp; export TMPDIR
hipcc --offload-arch=gfx900 -O2 -Wall -o "$tmp/mem_hip" "$SRCDIR/tests/integration/mem_hip.hip" \
  > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
LD_LIBRARY_PATH="$BUILD/lib" timeout 300 "$SIM" --gpu gfx900 --gpus 2 -- "$tmp/mem_hip" \
  > "$tmp/out" 2>&1
rc=$?
grep -v '^\[hsa-sim' "$tmp/out"
[ $rc -eq 0 ] || { echo "mem_hip exited $rc"; exit 1; }
for line in 'gpus 2' 'registered attr type=0' 'device attr type=1 dev=0' '2d ok' 'peer ok can=1' PASS; do
  grep -qxF "$line" "$tmp/out" || { echo "missing: $line"; exit 1; }
done

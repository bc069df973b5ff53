#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh — the main job of the README: set up, build, compile the sample kernel for the GPU
# and run the sample dispatch, which checks the kernel's result on the host.
# On a real AMD GPU when /dev/kfd is usable; otherwise under the hsa-sim software GPU.
# Exit status: the sample's (0 only for a correct result).
set -eu
cd "$(dirname "$0")/.."
sh scripts/bootstrap.sh >&2

# The kernel compiler: clang-15 (amdgcn target, lld) and the ROCm device libraries.
need=""
command -v clang-15 > /dev/null 2>&1 || need="$need clang-15"
command -v ld.lld-15 > /dev/null 2>&1 || need="$need lld-15"
devlibs=""
for d in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /usr/lib/*/amdgcn/bitcode \
         "${ROCM_PATH:-/opt/rocm}/amdgcn/bitcode"; do
  if [ -f "$d/ockl.bc" ]; then devlibs=$d; break; fi
done
[ -n "$devlibs" ] || need="$need rocm-device-libs"
if [ -n "$need" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "demo: missing Debian packages:$need; install them: sudo apt-get install$need" >&2
    exit 1
  fi
  echo "demo: installing$need" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q > /dev/null
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $need > /dev/null
  devlibs=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
fi

sample=build/bin/sample_dispatch
if [ -r /dev/kfd ] && [ -w /dev/kfd ]; then
  echo "demo: /dev/kfd is usable: running on the real GPU" >&2
  set --
elif [ -x build/bin/hsa-sim ]; then
  echo "demo: no usable /dev/kfd: running under the hsa-sim software GPU" >&2
  set -- build/bin/hsa-sim --
else
  echo "demo: no usable /dev/kfd and no hsa-sim: there is no GPU to run on" >&2
  exit 2
fi

# Compile the kernel for the GPU the runtime finds (its target ID, e.g. gfx900:xnack-).
target=$("$@" "$sample" --isa) || { echo "demo: no GPU agent found" >&2; exit 2; }
mkdir -p build/demo
co=build/demo/vector_add-$(echo "$target" | tr ':+' '_p').co
echo "demo: compiling samples/kernels/vector_add.cl for $target" >&2
# v4 pinned: the sample fills explicit kernel arguments only (v5 kernels need hidden ones).
clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$target" -O2 -mcode-object-version=4 \
  --rocm-device-lib-path="$devlibs" -o "$co" samples/kernels/vector_add.cl
exec "$@" "$sample" "$co"

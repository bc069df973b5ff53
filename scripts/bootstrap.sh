#!/bin/sh
# SPDX-License-Identifier: MIT
# bootstrap.sh — make a fresh Debian 12 machine ready to build and test, then build.
# Installs the Debian packages that are missing (as root; otherwise it names them and
# stops), generates configure, configures build/ and runs make. Safe to run again.
set -eu
cd "$(dirname "$0")/.."

# What building, testing and the peer programs (ROCR, rocminfo) need, by Debian name; the
# second line: the kernel corpus and HIP tests (clang-15 + device libraries, hipcc, pocl),
# then clang-19/llvm-19 for the gfx942 (MI300) kernels and decoder checks;
# last: the ROCm libraries the tests/libs programs use (hipRTC comes with libamdhip64-dev).
PACKAGES="make gcc g++ clang lld llvm autoconf automake pkg-config libdrm-dev libelf-dev
libmsgpack-dev libnuma-dev check python3 binutils cmake kmod libhsa-runtime-dev rocminfo
clang-15 lld-15 rocm-device-libs hipcc libamdhip64-dev pocl-opencl-icd ocl-icd-opencl-dev clinfo
clang-19 lld-19 llvm-19
librocrand-dev libhiprand-dev librocsparse-dev libhipsparse-dev librocprim-dev
libclang-rt-14-dev gdb python3-matplotlib
debhelper dpkg-dev fakeroot"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "bootstrap: missing Debian packages:$missing" >&2
    echo "bootstrap: run as root, or install them: sudo apt-get install$missing" >&2
    exit 1
  fi
  echo "bootstrap: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs" ${BUILD:+BUILD="$BUILD"} all

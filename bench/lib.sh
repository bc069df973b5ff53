# SPDX-License-Identifier: MIT
# lib.sh — sourced by bench/*.sh: the preamble they share.
#   . "$(dirname "$0")/lib.sh"; bench_setup NAME
# sets src (the source tree), BUILD (absolute), sim (hsa-sim), rocr (Debian's ROCR 5.2.3),
# work ($BUILD/bench/NAME, whose rocr/ holds ROCR's library under its soname, for
# LD_LIBRARY_PATH) and makes bench/out; stops with a message when hsa-sim is not built or
# ROCR is not installed.
bench_setup() {
  src=$(cd "$(dirname "$0")/.." && pwd)
  BUILD=$(cd "${BUILD:-$src/build}" && pwd)
  sim=$BUILD/bin/hsa-sim
  rocr=/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1
  [ -x "$sim" ] || { echo "$1: $sim is not built (make)"; exit 1; }
  [ -e "$rocr" ] || { echo "$1: Debian's ROCR (libhsa-runtime64-1) is not installed"; exit 1; }
  work=$BUILD/bench/$1
  mkdir -p "$work/rocr" "$src/bench/out"
  ln -sf "$rocr" "$work/rocr/libhsa-runtime64.so.1"
}

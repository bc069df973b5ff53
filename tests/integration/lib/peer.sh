# SPDX-License-Identifier: MIT
# peer.sh — sourced by the integration tests that run a client on hsa-sim twice: on Debian's
# ROCR 5.2.3 (the peer) and on ours. peer_init NAME skips in the sanitizer build (the
# simulator would be preloaded into Debian's uninstrumented programs), finds hsa-sim and
# ROCR (a missing one fails the test: the test command installs both), and makes a clean
# $work = $BUILD/tests/NAME, and $rocr_lib: a directory holding only a link to ROCR, for
# LD_LIBRARY_PATH.
fail() { echo "FAIL: $*"; exit 1; }

peer_init() {
  if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
    echo "preloads libhsa-sim.so into Debian's ROCm programs, not built with sanitizers"; exit 77
  fi
  sim=$BUILD/bin/hsa-sim
  rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
  [ -x "$sim" ] || fail "$sim is not built"
  [ -n "$rocr" ] || fail "Debian's ROCR (libhsa-runtime64-1) is not installed"
  work=$BUILD/tests/$1
  rocr_lib=$work/rocr-lib
  rm -rf "$work" && mkdir -p "$rocr_lib" && ln -s "$rocr" "$rocr_lib/libhsa-runtime64.so.1"
}

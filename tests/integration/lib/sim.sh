# SPDX-License-Identifier: MIT
# sim.sh — sourced by the integration tests whose clients, built here, run on our runtime
# under hsa-sim. sim_init NAME skips in the sanitizer build (the clients are built without
# sanitizers and the simulator is preloaded into them), finds hsa-sim ($sim; missing fails
# the test) and makes a clean $work = $BUILD/tests/NAME. sim_devlibs finds clang-15 and
# Debian's device libraries ($devlibs) for tests that compile kernels.
fail() { echo "FAIL: $*"; exit 1; }

sim_init() {
  if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
    echo "the client is built here without sanitizers and hsa-sim is preloaded into it"; exit 77
  fi
  sim=$BUILD/bin/hsa-sim
  [ -x "$sim" ] || fail "$sim is not built"
  work=$BUILD/tests/$1
  rm -rf "$work" && mkdir -p "$work"
}

sim_devlibs() {
  command -v clang-15 > /dev/null || fail "clang-15 is not installed"
  devlibs=$(for d in /usr/lib/*/amdgcn/bitcode; do [ -d "$d" ] && echo "$d"; done | head -n 1)
  [ -n "$devlibs" ] || fail "rocm-device-libs is not installed"
}

#!/bin/sh
# SPDX-License-Identifier: MIT
# deb.sh — `make deb` builds the Debian packages (dpkg-buildpackage, debian/); they are
# unpacked into a scratch root (dpkg -x), and a small HSA program is built against the
# packaged headers and library, once with `pkg-config hsa-runtime64` and once with CMake's
# find_package(hsa-runtime64), then run under the packaged hsa-sim with the packaged
# library. Checks the package relations (drop-in for Debian's libhsa-runtime64-1) too.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "the packages are built with Debian's flags, not with sanitizers"; exit 77
fi
if [ "${HSA_TEST_LIGHT:-0}" = 1 ]; then
  echo "the packages are built with Debian's compiler and flags whatever CC says: the first configuration builds them"; exit 77
fi
for tool in dpkg-buildpackage dh dpkg-deb pkg-config cmake; do
  command -v $tool > /dev/null ||
    { echo "$tool is missing (apt install debhelper dpkg-dev fakeroot pkg-config cmake)"; exit 77; }
done
unset LD_LIBRARY_PATH PKG_CONFIG_PATH HSA_TOOLS_LIB ROCR_VISIBLE_DEVICES
work=$BUILD/tests/deb
rm -rf "$work" && mkdir -p "$work/root"
fail() { echo "FAIL: $*"; exit 1; }
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
root=$work/root

make -s -C "$SRCDIR" BUILD="$BUILD" DEB_BUILD_OPTIONS=noddebs deb > "$work/make.log" 2>&1 || fail "make deb: $(tail -n 20 "$work/make.log")"
debs=$(ls "$BUILD"/deb/*.deb | sed 's|^\([^/]\)|./\1|')
[ "$(echo "$debs" | wc -l)" -eq 3 ] || fail "expected 3 packages: $debs"
for d in $debs; do dpkg -x "$d" "$root" || fail "dpkg -x $d"; done

lib=$BUILD/deb/libhsa-runtime64-1-dropin_*.deb
[ "$(dpkg-deb -f $lib Provides)" = "libhsa-runtime64-1 (= 5.2.3)" ] || fail "Provides: $(dpkg-deb -f $lib Provides)"
[ "$(dpkg-deb -f $lib Conflicts)" = "libhsa-runtime64-1" ] || fail "Conflicts: $(dpkg-deb -f $lib Conflicts)"
so=$root/usr/lib/$ma/libhsa-runtime64.so.1
[ -f "$so" ] || fail "no $so"
readelf -d "$so" | grep -q 'SONAME.*\[libhsa-runtime64.so.1\]' || fail "soname of $so"
[ -f "$root/usr/share/man/man7/hsa-runtime64.7.gz" ] && [ -f "$root/usr/share/man/man1/hsa-sim.1.gz" ] ||
  fail "manual pages missing"
[ -x "$root/usr/bin/hsa-sim" ] && [ -f "$root/usr/lib/$ma/hsa-sim/libhsa-sim.so" ] || fail "hsa-sim missing"

# apt (simulated) takes ours in place of Debian's ROCR and keeps its users (rocminfo, HIP).
if dpkg-query -W -f='${Status}' libhsa-runtime64-1 2>/dev/null | grep -q 'ok installed'; then
  # shellcheck disable=SC2086
  apt-get -s install $debs > "$work/apt.log" 2>&1 || fail "apt-get -s install: $(tail -n 5 "$work/apt.log")"
  grep -q '^Remv libhsa-runtime64-1 ' "$work/apt.log" || fail "apt keeps Debian's ROCR: $(cat "$work/apt.log")"
  grep -E '^Remv (rocminfo|libamdhip64)' "$work/apt.log" && fail "apt would remove ROCR's users"
fi

# pkg-config, with the packaged .pc file read through the scratch root.
flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$ma/pkgconfig \
        pkg-config --cflags --libs hsa-runtime64) || fail "pkg-config does not find hsa-runtime64"
case "$flags" in *"-I$root/usr/include"*"-L$root/usr/lib/$ma"*) ;; *) fail "pkg-config flags: $flags" ;; esac
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -o "$work/client-pc" "$SRCDIR/tests/integration/deb_client.c" $flags -ldl ||
  fail "cannot build with pkg-config's flags ($flags)"

# CMake, finding the packaged package first.
mkdir -p "$work/cmake-src" "$work/cmake-build"
cp "$SRCDIR/tests/integration/deb_client.c" "$work/cmake-src/"
cat > "$work/cmake-src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(deb_client C)
find_package(hsa-runtime64 REQUIRED)
add_executable(client-cmake deb_client.c)
target_link_libraries(client-cmake PRIVATE hsa-runtime64::hsa-runtime64 ${CMAKE_DL_LIBS})
CMAKE
cmake -S "$work/cmake-src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DCMAKE_C_COMPILER="${CC:-cc}" > "$work/cmake.log" 2>&1 || fail "cmake: $(tail -n 20 "$work/cmake.log")"
grep -q "^hsa-runtime64_DIR:PATH=$root/usr/lib/$ma/cmake/hsa-runtime64\$" "$work/cmake-build/CMakeCache.txt" ||
  fail "CMake found another package: $(grep hsa-runtime64_DIR "$work/cmake-build/CMakeCache.txt")"
cmake --build "$work/cmake-build" > "$work/cmake-build.log" 2>&1 || fail "cmake --build: $(tail -n 20 "$work/cmake-build.log")"

for c in "$work/client-pc" "$work/cmake-build/client-cmake"; do
  out=$(LD_LIBRARY_PATH=$root/usr/lib/$ma "$root/usr/bin/hsa-sim" --gpu gfx906 -- "$c" 2>&1) ||
    fail "$c under the packaged hsa-sim: $out"
  printf '%s\n' "$out" | grep -qx "library $root/usr/lib/$ma/libhsa-runtime64.so.1" ||
    fail "$c did not run on the packaged library: $out"
  printf '%s\n' "$out" | grep -qx "gpu gfx906" || fail "$c saw no simulated gfx906: $out"
  printf '%s\n' "$out" | grep -qx "signal 42" || fail "$c: signal round trip: $out"
done
echo "ok"

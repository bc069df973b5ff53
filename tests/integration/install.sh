#!/bin/sh
# SPDX-License-Identifier: MIT
# make install into a DESTDIR, then use the result the ways clients do: pkg-config,
# CMake's find_package(hsa-runtime64) with the hsa-runtime64::hsa-runtime64 target, and
# the <hsa/hsa.h> include path; each client program runs and checks a real answer.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "install layout is checked in the plain build; client programs here are not sanitized"; exit 77
fi
dest=$BUILD/tests/install/root
rm -rf "$BUILD/tests/install" && mkdir -p "$dest"
make -s -C "$SRCDIR" BUILD="$BUILD" install DESTDIR="$dest" > "$BUILD/tests/install/make.log" 2>&1 ||
  { cat "$BUILD/tests/install/make.log"; exit 1; }
prefix=$(sed -n 's/^prefix *:= *//p' "$BUILD/config.mk")
libdir=$(sed -n 's/^libdir *:= *//p' "$BUILD/config.mk" | sed "s|\${exec_prefix}|$prefix|")
root=$dest$prefix
lib=$dest$libdir
for f in "$lib/libhsa-runtime64.so.1" "$lib/libhsa-runtime64.so" "$root/include/hsa/hsa.h" \
         "$root/include/hsa/hsa_ext_amd.h" "$lib/pkgconfig/hsa-runtime64.pc" \
         "$lib/cmake/hsa-runtime64/hsa-runtime64-config.cmake"; do
  [ -e "$f" ] || { echo "not installed: $f"; exit 1; }
done

# A client: asks the installed library for a status string and checks the text.
cat > "$BUILD/tests/install/client.c" <<'C'
#include <hsa/hsa.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  const char *s = NULL;
  if (hsa_status_string(HSA_STATUS_ERROR_INVALID_AGENT, &s) != HSA_STATUS_SUCCESS) return 1;
  if (strncmp(s, "HSA_STATUS_ERROR_INVALID_AGENT", 30) != 0) return 2;
  puts("client ok");
  return 0;
}
C
# pkg-config
flags=$(PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" pkg-config --cflags --libs hsa-runtime64)
# shellcheck disable=SC2086
cc -o "$BUILD/tests/install/client-pc" "$BUILD/tests/install/client.c" $flags
[ "$(LD_LIBRARY_PATH="$lib" "$BUILD/tests/install/client-pc")" = "client ok" ] ||
  { echo "pkg-config client failed"; exit 1; }
echo "pkg-config: $flags"

# CMake
if command -v cmake >/dev/null; then
  cm=$BUILD/tests/install/cmake
  mkdir -p "$cm/src"
  cp "$BUILD/tests/install/client.c" "$cm/src/"
  cat > "$cm/src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(client C)
find_package(hsa-runtime64 1.0 REQUIRED)
add_executable(client client.c)
target_link_libraries(client hsa-runtime64::hsa-runtime64)
CM
  cmake -S "$cm/src" -B "$cm/build" -DCMAKE_PREFIX_PATH="$root" > "$cm/log" 2>&1 &&
    cmake --build "$cm/build" >> "$cm/log" 2>&1 || { cat "$cm/log"; exit 1; }
  [ "$(LD_LIBRARY_PATH="$lib" "$cm/build/client")" = "client ok" ] ||
    { echo "CMake client failed"; exit 1; }
  echo "cmake: find_package(hsa-runtime64) and hsa-runtime64::hsa-runtime64 work"
else
  echo "cmake is not installed"; exit 1
fi

#!/bin/sh
# SPDX-License-Identifier: MIT
# install.sh DESTDIR PREFIX LIBDIR INCLUDEDIR BINDIR MANDIR BUILD VERSION
# Called by `make install`: the library and its dev link, the public headers under
# include/hsa/, hsa-runtime64.pc, the CMake package, and hsa-sim when it is built.
set -eu
dest=$1 prefix=$2 libdir=$3 includedir=$4 bindir=$5 mandir=$6 build=$7 version=$8
top=$(cd "$(dirname "$0")/.." && pwd)

# Relative path from directory $1 up to the prefix, for the relocatable CMake package.
rel() { echo "${1#"$prefix"/}"; }
up_from() { echo "$1" | sed 's|[^/][^/]*|..|g'; }

install -d "$dest$libdir" "$dest$includedir/hsa" "$dest$libdir/pkgconfig" \
  "$dest$libdir/cmake/hsa-runtime64"
install -m 755 "$build/lib/libhsa-runtime64.so.1" "$dest$libdir/libhsa-runtime64.so.1"
ln -sf libhsa-runtime64.so.1 "$dest$libdir/libhsa-runtime64.so"
install -m 644 "$top"/include/hsa/*.h "$dest$includedir/hsa/"

subst() {
  sed -e "s|@prefix@|$prefix|g" -e "s|@libdir@|$libdir|g" -e "s|@includedir@|$includedir|g" \
      -e "s|@version@|$version|g" -e "s|@version_major@|${version%%.*}|g" \
      -e "s|@rel_libdir@|$(rel "$libdir")|g" -e "s|@rel_includedir@|$(rel "$includedir")|g" \
      -e "s|@rel_up@|$(up_from "$(rel "$libdir")/cmake/hsa-runtime64")|g" "$1"
}
subst "$top/dist/hsa-runtime64.pc.in" > "$dest$libdir/pkgconfig/hsa-runtime64.pc"
subst "$top/dist/hsa-runtime64-config.cmake.in" \
  > "$dest$libdir/cmake/hsa-runtime64/hsa-runtime64-config.cmake"
subst "$top/dist/hsa-runtime64-config-version.cmake.in" \
  > "$dest$libdir/cmake/hsa-runtime64/hsa-runtime64-config-version.cmake"

if [ -x "$build/bin/hsa-sim" ]; then
  install -d "$dest$bindir" "$dest$libdir/hsa-sim"
  install -m 755 "$build/bin/hsa-sim" "$dest$bindir/hsa-sim"
  install -m 755 "$build/lib/libhsa-sim.so" "$dest$libdir/hsa-sim/libhsa-sim.so"
fi
for page in "$top"/man/*.[1-9]; do
  [ -f "$page" ] || continue
  sec=${page##*.}
  install -d "$dest$mandir/man$sec"
  install -m 644 "$page" "$dest$mandir/man$sec/"
done

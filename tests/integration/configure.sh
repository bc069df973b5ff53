#!/bin/sh
# SPDX-License-Identifier: MIT
# configure names the Debian package to install when a dependency is missing: each
# pkg-config module is hidden in turn (a pkg-config directory holding all the others),
# libnuma's header check is made to fail through its autoconf cache variable, and llvm-mc
# (the trap handler's assembler) is pointed at nothing.
set -eu
if [ "${HSA_TEST_LIGHT:-0}" = 1 ]; then
  echo "configure's checks do not depend on the configuration's compiler: the first configuration runs them"; exit 77
fi
work=$BUILD/tests/configure
rm -rf "$work" && mkdir -p "$work/pc"
sysdirs=$(pkg-config --variable pc_path pkg-config)

expect() { # what-is-hidden debian-package [configure args...]
  hidden=$1 package=$2; shift 2
  rm -rf "$work/b" && mkdir -p "$work/b"
  if (cd "$work/b" && PKG_CONFIG_LIBDIR="$work/pc" "$SRCDIR/configure" "$@") > "$work/log" 2>&1; then
    echo "configure succeeded with $hidden missing"; exit 1
  fi
  if ! grep -q "error: .*install the Debian package $package" "$work/log"; then
    echo "with $hidden missing, configure did not name $package:"; tail -n 3 "$work/log"; exit 1
  fi
  echo "$hidden missing -> $(grep 'error:' "$work/log" | head -n 1 | sed 's/^configure: //')"
}

# Fill the private pkg-config directory with every system .pc file except $1's.
link_all_except() {
  rm -f "$work/pc"/*.pc
  for d in $(echo "$sysdirs" | tr ':' ' '); do
    for f in "$d"/*.pc; do
      if [ -e "$f" ] && [ "$(basename "$f" .pc)" != "$1" ] && [ ! -e "$work/pc/$(basename "$f")" ]; then
        ln -s "$f" "$work/pc/"
      fi
    done
  done
}

for pair in libdrm:libdrm-dev libdrm_amdgpu:libdrm-dev libelf:libelf-dev msgpack:libmsgpack-dev \
            check:check; do
  link_all_except "${pair%%:*}"
  expect "${pair%%:*}" "${pair#*:}"
done
link_all_except none
expect "numa.h" libnuma-dev ac_cv_header_numa_h=no
expect "llvm-mc" llvm LLVM_MC=/nonexistent/llvm-mc

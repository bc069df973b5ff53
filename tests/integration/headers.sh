#!/bin/sh
# SPDX-License-Identifier: MIT
# Every public header compiles on its own, as C (gcc and clang, gnu11 and c11)
# and as C++ (g++/clang++ -std=c++17), warning-free, found either as <hsa/x.h> or <x.h>.
set -eu
work=$BUILD/tests/headers
mkdir -p "$work"
status=0
for h in "$SRCDIR"/include/hsa/*.h; do
  name=$(basename "$h")
  printf '#include <hsa/%s>\n#include <%s>\nint probe_unused;\n' "$name" "$name" > "$work/t.c"
  cp "$work/t.c" "$work/t.cpp"
  for cmd in "gcc -std=gnu11" "clang -std=gnu11" "gcc -std=c11" \
             "g++ -std=c++17" "clang++ -std=c++17"; do
    case "$cmd" in *++*) src=$work/t.cpp ;; *) src=$work/t.c ;; esac
    if ! $cmd -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$SRCDIR/include/hsa" \
         -fsyntax-only "$src" > "$work/err.txt" 2>&1; then
      echo "FAIL: $name with $cmd:"; head -n 15 "$work/err.txt"; status=1
    fi
  done
done
[ $status -eq 0 ] && echo "all $(ls "$SRCDIR"/include/hsa/*.h | wc -l) headers compile as C and C++"
exit $status

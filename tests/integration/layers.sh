#!/bin/sh
# SPDX-License-Identifier: MIT
# timeout: 60
# The runtime's modules depend downwards only (DESIGN.md §2):
#   kfd < core < mem < signals < loader, aql, tools, image < copy < src/runtime.c (the lifetime).
# Fails on any #include of a higher module's header from a lower one, or of a module beside
# it (loader, aql, tools and image are side by side), of another module's internal.h, and on
# anything that includes src/runtime.c, the lifetime at the top. With $BUILD's objects, also
# on a call (an undefined symbol) into a higher or side-by-side module.
# Usage: layers.sh [TREE] (default $SRCDIR).
set -eu
root=${1:-$SRCDIR}
cd "$root/src"

rank() {
  case $1 in
  kfd) echo 1 ;; core) echo 2 ;; mem) echo 3 ;; signals) echo 4 ;;
  loader | aql | tools | image) echo 5 ;; copy) echo 6 ;;
  *) echo "" ;;
  esac
}

# Known exceptions, each "file -> included module" (none today: the copy engine, src/copy, took
# the copies, copy profiling and the SVM prefetch that used signals out of src/mem). A line
# added here must go once the include is gone (the test says so).
known=""

bad=0 used=""
for f in */*.c */*.h; do
  [ -f "$f" ] || continue
  from=${f%%/*}
  rf=$(rank "$from")
  if [ -z "$rf" ]; then
    echo "src/$f: module '$from' has no place in the layer order (add it to $0 and DESIGN.md)"
    bad=1
    continue
  fi
  for to in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/[^"]*".*/\1/p' "$f" |
              sort -u); do
    [ "$to" = "$from" ] && continue
    if grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$to/internal\.h\"" "$f"; then
      echo "src/$f includes $to/internal.h: a module's internal.h is for its own files"
      bad=1
    fi
    rt=$(rank "$to")
    [ -n "$rt" ] || continue   # not a module of src/ (e.g. the kfd/shim ABI headers' folders)
    [ "$rt" -lt "$rf" ] && continue
    if printf '%s\n' "$known" | grep -qxF "$f -> $to"; then
      used="$used
$f -> $to"
      continue
    fi
    echo "src/$f includes $to/: $from (layer $rf) may only include modules below it ($to is layer $rt)"
    bad=1
  done
done
# The kernel interface lives in kfd/: no other module names the uapi's KFD_IOC_* / KFD_IOCTL_*
# constants (kfd/ exports its own: KFD_MEM_*, KFD_SVM_*, KFD_EVENT_TYPE_*, KFD_WAIT_*).
# Known exceptions, by file (none today).
abi_known=""
for f in $(grep -lE '\bKFD_IOCT?L?_[A-Z]' */*.c */*.h 2>/dev/null | grep -v '^kfd/'); do
  # comments may name them; code may not
  code=$(sed -e 's|/\*.*\*/||g' -e 's|^[[:space:]]*\*.*||' "$f" | grep -nE '\bKFD_IOCT?L?_[A-Z]' || true)
  [ -n "$code" ] || continue
  if printf '%s\n' "$abi_known" | grep -qxF "$f"; then continue; fi
  echo "src/$f names the kernel's uapi constants outside src/kfd:"; echo "$code" | head -3
  bad=1
done
# Calls as well as includes: with a build at hand, no object of a module uses a symbol that a
# higher (or side-by-side) module's object defines (a call needs no include to go up).
obj=${BUILD:-}/obj/src
if [ -n "${BUILD:-}" ] && [ -d "$obj" ]; then
  # the symbol table first: an empty one would let every call pass
  [ -n "$(nm --defined-only -g "$obj"/core/runtime.o 2>/dev/null)" ] ||
    { echo "cannot read the objects under $obj"; exit 1; }
  # the objects of today's sources only: a build directory keeps those of files since moved
  objs=$(for c in *.c */*.c; do [ ! -f "$obj/${c%.c}.o" ] || echo "$obj/${c%.c}.o"; done)
  calls=$(
    # shellcheck disable=SC2086
    { nm -A --defined-only -g $objs | awk 'NF == 3 { print "D", $1, $3 }'
      # shellcheck disable=SC2086
      nm -A -u $objs | awk '{ print "U", $1, $NF }'
    } | sed "s|$obj/||" | awk '
      function rank(m) {
        if (m == "kfd") return 1
        if (m == "core") return 2
        if (m == "mem") return 3
        if (m == "signals") return 4
        if (m == "loader" || m == "aql" || m == "tools" || m == "image") return 5
        if (m == "copy") return 6
        return 7
      }
      function module(f) {   # "mem/alloc.o:" -> mem, "runtime.o:" -> top
        sub(/:.*/, "", f)
        return f ~ /\// ? substr(f, 1, index(f, "/") - 1) : "top"
      }
      $1 == "D" { def[$3] = module($2); next }
      { f = $2; sub(/:.*/, "", f); use[++n] = f " " module($2) " " $3 }
      END {
        for (i = 1; i <= n; i++) {
          split(use[i], u, " ")
          d = def[u[3]]
          if (d != "" && d != u[2] && rank(d) >= rank(u[2])) print u[1], d, u[3]
        }
      }' | sort -u)
  for f in $(printf '%s\n' "$calls" | awk 'NF { print $1 "|" $2 }' | sort -u); do
    src=${f%%|*}; to=${f#*|}
    src=${src%.o}.c
    printf '%s\n' "$known" | grep -qxF "$src -> $to" && continue
    echo "src/$src calls into $to/ (above or beside it):"
    printf '%s\n' "$calls" | awk -v o="${src%.c}.o" -v t="$to" '$1 == o && $2 == t { print "  " $3 }'
    bad=1
  done
fi
# The lifetime: nothing includes it, and no header declares it as a module.
if grep -rlE '#[[:space:]]*include[[:space:]]*"(\.\./)*runtime\.c"' . 2>/dev/null | grep -q .; then
  echo "something includes src/runtime.c, the lifetime at the top"; bad=1
fi
[ ! -f runtime.h ] || { echo "src/runtime.h exists: the lifetime offers nothing to include"; bad=1; }
printf '%s\n' "$known" | while read -r k; do
  printf '%s\n' "$used" | grep -qxF "$k" ||
    echo "note: known exception '$k' is gone; remove it from $0"
done
[ $bad -eq 0 ] || exit 1
echo "layers: every include points down"

# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# kcache.sh — a cache of what the integration tests build with the system's compilers
# (kernels, objects, llvm-objdump listings), shared by the three configurations of
# scripts/test.sh and by later runs: the output of a command does not depend on the build
# being tested, only on the command and its inputs. Sourced; needs SRCDIR.
#
#   kcache OUT CMD...      runs CMD, which writes the file OUT, unless the cache has OUT from
#                          the same command on the same inputs; then copies it from there
#   kcache_out OUT CMD...  the same for a command that writes OUT on its standard output
#
# The key: the command's words (OUT, and the test's scratch directories KCACHE_TMP, as
# placeholders), the resolved program's path, size and time, the content of every word that
# names a file (with the headers beside it) and of every file of a directory a word names
# (-I, --rocm-device-lib-path=). A command that fails leaves nothing in the cache.
# HSA_TEST_CACHE sets the directory (default: build-cache/ in the source tree, which git and
# the Debian source copy leave out); HSA_TEST_CACHE=off runs every command.

KCACHE_DIR=${HSA_TEST_CACHE:-$SRCDIR/build-cache}/kernels

kcache_files=""
kcache_add() { # a file (with the headers beside it) or a directory's files, to hash
  if [ -f "$1" ]; then
    kcache_files="$kcache_files$1
"
    for h in "${1%/*}"/*.h; do [ -f "$h" ] && kcache_files="$kcache_files$h
"; done
  elif [ -d "$1" ]; then
    for h in "$1"/*; do [ -f "$h" ] && kcache_files="$kcache_files$h
"; done
  fi
  return 0
}

kcache_key() { # out cmd...
  out=$1; shift
  prog=$(command -v "$1" 2>/dev/null) || return 1
  kcache_files=""
  {
    ls -lL --time-style=+%s "$prog" | awk '{ print $5, $6, $7 }'
    for a in "$@"; do
      if [ "$a" = "$out" ]; then echo "@OUT@"; continue; fi
      w=$a
      case ${KCACHE_TMP:-} in ?*) case $w in *"$KCACHE_TMP"*)
        w="${w%%"$KCACHE_TMP"*}@TMP@${w#*"$KCACHE_TMP"}" ;; esac ;; esac
      printf '%s\n' "$w"
      case $a in
        -I?*) kcache_add "${a#-I}" ;;
        -*=/*) kcache_add "${a#*=}" ;;
        *) kcache_add "$a" ;;
      esac
    done
    # the names (without the directory, which differs between configurations), then the bytes
    printf '%s' "$kcache_files" | sed 's|.*/||'
    printf '%s' "$kcache_files" | xargs -r -d '\n' cat
  } | sha256sum | cut -c1-40
}

kcache_do() { # stdout out cmd...
  so=$1 out=$2; shift 2
  key=""
  [ "${HSA_TEST_CACHE:-}" = off ] || key=$(kcache_key "$out" "$@") || key=""
  if [ -n "$key" ] && [ -f "$KCACHE_DIR/$key" ]; then
    cp "$KCACHE_DIR/$key" "$out" && return 0
  fi
  if [ "$so" = 1 ]; then "$@" > "$out" || return 1; else "$@" || return 1; fi
  [ -f "$out" ] || return 1
  if [ -n "$key" ] && mkdir -p "$KCACHE_DIR" 2>/dev/null; then
    # a private name first: parallel jobs and configurations never see half a file
    cp "$out" "$KCACHE_DIR/$key.$$" 2>/dev/null && mv -f "$KCACHE_DIR/$key.$$" "$KCACHE_DIR/$key"
  fi
  return 0
}

kcache() { kcache_do 0 "$@"; }
kcache_out() { kcache_do 1 "$@"; }

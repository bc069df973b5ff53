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
    for _kc_h in "${1%/*}"/*.h; do [ -f "$_kc_h" ] && kcache_files="$kcache_files$_kc_h
"; done
  elif [ -d "$1" ]; then
    for _kc_h in "$1"/*; do [ -f "$_kc_h" ] && kcache_files="$kcache_files$_kc_h
"; done
  fi
  return 0
}

kcache_key() { # out cmd...
  _kc_out=$1; shift
  _kc_prog=$(command -v "$1" 2>/dev/null) || return 1
  kcache_files=""
  {
    ls -lL --time-style=+%s "$_kc_prog" | awk '{ print $5, $6, $7 }'
    for _kc_a in "$@"; do
      if [ "$_kc_a" = "$_kc_out" ]; then echo "@OUT@"; continue; fi
      _kc_w=$_kc_a
      case ${KCACHE_TMP:-} in ?*) case $_kc_w in *"$KCACHE_TMP"*)
        _kc_w="${_kc_w%%"$KCACHE_TMP"*}@TMP@${_kc_w#*"$KCACHE_TMP"}" ;; esac ;; esac
      printf '%s\n' "$_kc_w"
      case $_kc_a in
        -I?*) kcache_add "${_kc_a#-I}" ;;
        -*=/*) kcache_add "${_kc_a#*=}" ;;
        *) kcache_add "$_kc_a" ;;
      esac
    done
    # the names (without the directory, which differs between configurations), then the bytes
    printf '%s' "$kcache_files" | sed 's|.*/||'
    printf '%s' "$kcache_files" | xargs -r -d '\n' cat
  } | sha256sum | cut -c1-40
}

kcache_do() { # stdout out cmd...
  _kc_so=$1 _kc_out=$2; shift 2
  _kc_key=""
  [ "${HSA_TEST_CACHE:-}" = off ] || _kc_key=$(kcache_key "$_kc_out" "$@") || _kc_key=""
  if [ -n "$_kc_key" ] && [ -f "$KCACHE_DIR/$_kc_key" ]; then
    cp "$KCACHE_DIR/$_kc_key" "$_kc_out" && return 0
  fi
  if [ "$_kc_so" = 1 ]; then "$@" > "$_kc_out" || return 1; else "$@" || return 1; fi
  [ -f "$_kc_out" ] || return 1
  if [ -n "$_kc_key" ] && mkdir -p "$KCACHE_DIR" 2>/dev/null; then
    # a private name first: parallel jobs and configurations never see half a file
    cp "$_kc_out" "$KCACHE_DIR/$_kc_key.$$" 2>/dev/null && mv -f "$KCACHE_DIR/$_kc_key.$$" "$KCACHE_DIR/$_kc_key"
  fi
  return 0
}

kcache() { kcache_do 0 "$@"; }
kcache_out() { kcache_do 1 "$@"; }

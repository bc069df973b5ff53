#!/bin/sh
# SPDX-License-Identifier: MIT
# add-spdx.sh [--check] [ROOT]
# Puts "SPDX-License-Identifier: MIT" at the top of every source file (C, C headers, OpenCL
# C, HIP, shell, Python) under src/ sim/ include/ tests/ bench/ samples/ fuzz/ scripts/: as
# the first line, or right after a "#!" line; the file's own first comment follows it.
# Idempotent: a file that already has the line in its first three lines is left alone, so
# run it again after merges. Test data (tests/fixtures, fuzz/corpus, the assembler corpus)
# is not source and is left out. --check changes nothing and fails, listing them, when
# files lack the line.
set -eu
check=false
if [ "${1:-}" = --check ]; then check=true; shift; fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
id="SPDX-License-Identifier: MIT"

list() {
  if git rev-parse --git-dir > /dev/null 2>&1; then
    git ls-files -- src sim include tests bench samples fuzz scripts
  else
    find src sim include tests bench samples fuzz scripts -type f
  fi | grep -E '\.(c|h|cl|hip|sh|py)$' | grep -vE '^(tests/fixtures|fuzz/corpus)/' | sort
}

if $check; then
  # One awk over every file (not two processes per file): the check runs in CI under load.
  list | xargs -r awk -v id="$id" '
    FNR == 1 { if (prev != "" && !ok) { print "no SPDX line: " prev; bad = 1 } prev = FILENAME; ok = 0; seen[FILENAME] = 1 }
    FNR <= 3 && ($0 ~ "^/\\* " id || $0 ~ "^# " id) { ok = 1 }
    END { if (prev != "" && !ok) { print "no SPDX line: " prev; bad = 1 }
          for (i = 1; i < ARGC; i++) if (!(ARGV[i] in seen)) { print "no SPDX line: " ARGV[i]; bad = 1 }
          if (bad) { print "run scripts/add-spdx.sh"; exit 1 } }'
  exit $?
fi

missing=0
for f in $(list); do
  [ -f "$f" ] || continue
  head -n 3 "$f" | grep -qE '^(/\* |# )SPDX-License-Identifier:' && continue
  if $check; then
    echo "no SPDX line: $f"
    missing=1
    continue
  fi
  case $f in
  *.sh | *.py) line="# $id" ;;
  *) line="/* $id */" ;;
  esac
  tmp="$f.spdx.$$"
  if head -n 1 "$f" | grep -q '^#!'; then
    { head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } > "$tmp"
  else
    { echo "$line"; cat "$f"; } > "$tmp"
  fi
  # keep the mode (scripts stay executable)
  chmod "$(stat -c %a "$f")" "$tmp"
  mv "$tmp" "$f"
done
$check && [ $missing -ne 0 ] && { echo "run scripts/add-spdx.sh"; exit 1; }
exit 0

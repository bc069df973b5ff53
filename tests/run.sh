#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every test program and script; prints one line per test and a summary.
# Env: BUILD (absolute build dir), SRCDIR (source tree), TESTS (optional substring filter).
# Integration scripts exit 0 (pass), 77 (skip: say why on stdout) or anything else (fail).
set -u
: "${BUILD:?}" "${SRCDIR:?}"
export BUILD SRCDIR
# Check's 4 s per test is short for a loaded 2-core CI machine or a sanitizer build.
export CK_TIMEOUT_MULTIPLIER="${CK_TIMEOUT_MULTIPLIER:-5}"
logdir="$BUILD/tests/logs"
mkdir -p "$logdir"
pass=0 fail=0 skip=0 failed="" flaky=""

run_one() { # name command...
  name=$1; shift
  case "$name" in *"${TESTS:-}"*) ;; *) return ;; esac
  log="$logdir/$(echo "$name" | tr '/' '_').log"
  start=$(date +%s)
  "$@" >"$log" 2>&1
  rc=$?
  case "$name" in integration/*)
    # Debian's ROCR 5.2.3, a peer in many of these tests, can hang for good: a signal
    # store that lands between its value check and its KFD wait, while its async-event
    # thread waits on the same event, is lost (KFD before 1.14 has no event age; hsa-sim
    # models that kernel faithfully). So an integration test gets a time limit and one
    # more run; one that passes only then is reported as flaky, never hidden.
    if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
      mv "$log" "$log.1"
      "$@" >"$log" 2>&1
      rc=$?
      [ $rc -eq 0 ] && flaky="$flaky $name"
    fi ;;
  esac
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); printf 'PASS  %-40s %3ss\n' "$name" "$secs"
  elif [ $rc -eq 77 ]; then
    skip=$((skip + 1)); printf 'SKIP  %-40s (%s)\n' "$name" "$(tail -n 1 "$log")"
  else
    fail=$((fail + 1)); failed="$failed $name"
    printf 'FAIL  %-40s %3ss  (exit %s; log: %s)\n' "$name" "$secs" "$rc" "$log"
    sed 's/^/      | /' "$log" | tail -n 40
  fi
}

for t in "$BUILD"/tests/unit/test_* "$BUILD"/tests/sim/test_*; do
  [ -x "$t" ] || continue
  run_one "${t#"$BUILD"/tests/}" "$t"
done
for t in "$SRCDIR"/tests/integration/*.sh; do
  [ -f "$t" ] || continue
  shell=sh; head -n 1 "$t" | grep -q bash && shell=bash   # the script's own #! interpreter
  # 300 s each, unless the script's header says "# timeout: SECONDS" (long hipcc builds)
  limit=$(sed -n '1,20s/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$t" | head -n 1)
  run_one "integration/$(basename "$t" .sh)" timeout "${limit:-300}" "$shell" "$t"
done

echo "----"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ -z "$flaky" ] || echo "flaky (failed once, passed on the second run; first log: <log>.1):$flaky"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }

#!/usr/bin/env bash
# Runs the built sqlite-domain example under one backend and says what
# happened, judged from each run's output and exit status (never assumed):
#   steps.sh mpk  BIN_DIR EXAMPLE_DIR   the workload, the theft, the crash
#   steps.sh none BIN_DIR EXAMPLE_DIR   the control: the theft unenforced
# Exits 1 when an outcome is not what the backend promises.
set -uo pipefail
[[ $# -eq 3 && ($1 == mpk || $1 == none) ]] ||
  { echo "usage: steps.sh mpk|none BIN_DIR EXAMPLE_DIR" >&2; exit 2; }
backend=$1 bin=$2 dir=$3
. "$(dirname "$0")/../steps-common.sh"
plain=$(mktemp)
trap 'rm -f "$log" "$plain"' EXIT

if [[ $backend == mpk ]]; then
  "$dir/sqlite-domain-plain" >"$plain" 2>&1
  step "dipc-run --backend=mpk sqlite-domain: 10,000 inserts and queries"
  run --backend=mpk "$dir/sqlite-domain"
  if [[ $rc -eq 0 ]] && says "results match" &&
    diff -q "$plain" <(grep -v '^dipc:' "$log") >/dev/null; then
    verdict "every answer right, output identical to the plain build's"
  else
    verdict "WRONG: exit status $rc, or output differs from the plain build's"
    wrong=1
  fi

  step "dipc-run --backend=mpk sqlite-domain --steal: main reads SQLite's heap"
  run --backend=mpk "$dir/sqlite-domain" --steal
  if says "main: stole"; then
    verdict "the row LEAKED to main (exit status $rc)"
    wrong=1
  elif says "protection-key fault" && says "domain db)" && ((rc > 128)); then
    verdict "stopped by a protection-key fault on db's page (exit status $rc)"
  else
    verdict "neither leaked nor stopped by a protection-key fault ($rc)"
    wrong=1
  fi

  step "dipc-run --backend=mpk sqlite-domain --crash: a crash in sqlite3_step"
  run --backend=mpk "$dir/sqlite-domain" --crash
  if [[ $rc -eq 0 ]] && says "dipc_errno 14 (DIPC_EFAULT" &&
    says "main: still running"; then
    verdict "db crashed inside sqlite3_step; main got DIPC_EFAULT and went on"
    if says "second thread: db_query(1) returned" &&
      says "COMMIT: rc 0" && says "before the crash: committed"; then
      verdict "db's fault hook released the connection: another thread" \
        "queried it and COMMIT committed"
    else
      verdict "WRONG: the connection is not usable after the crash"
      wrong=1
    fi
  else
    verdict "main did NOT survive the crash (exit status $rc)"
    wrong=1
  fi
else
  step "control: dipc-run --backend=none sqlite-domain --steal (not enforced)"
  run --backend=none "$dir/sqlite-domain" --steal
  if [[ $rc -eq 0 ]] && says "main: stole 'sqlite-secret-row'"; then
    verdict "the row leaked, as nothing is enforced under none"
  else
    verdict "UNEXPECTED: no leak under none (exit status $rc)"
    wrong=1
  fi
fi
exit "$wrong"

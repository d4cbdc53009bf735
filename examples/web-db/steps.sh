#!/usr/bin/env bash
# Runs the built web/db example under one backend and says what happened,
# judged from each run's output and exit status (never assumed):
#   steps.sh mpk  BIN_DIR PROGRAM   the call, the theft, the crash
#   steps.sh sfi  BIN_DIR PROGRAM   the same with the checks compiled in:
#                                   runs PROGRAM-sfi (built with -fdipc-sfi)
#   steps.sh none BIN_DIR PROGRAM   the control: the theft without enforcement
#   steps.sh --backends             the backends above, for demo-backends.sh
# Exits 1 when an outcome is not what the backend promises.
set -uo pipefail
if [[ $# -eq 1 && $1 == --backends ]]; then
  echo "mpk sfi none"
  exit 0
fi
[[ $# -eq 3 && ($1 == mpk || $1 == sfi || $1 == none) ]] ||
  { echo "usage: steps.sh mpk|sfi|none BIN_DIR PROGRAM" >&2; exit 2; }
backend=$1 bin=$2 prog=$3
[[ $backend != sfi ]] || prog=$prog-sfi
. "$(dirname "$0")/../steps-common.sh"
expect() { # expect WANTED GOT: a wrong outcome fails the demo
  [[ $1 == "$2" ]] && return
  verdict "UNEXPECTED under $backend: wanted $1"
  wrong=1
}
signal_of() { ((rc > 128)) && kill -l $((rc - 128)) 2>/dev/null; }

steal() {
  local outcome
  if says 'web: stole "'; then
    outcome=leaked
    verdict "the secret LEAKED: web printed it (exit status $rc)"
  elif says 'dipc: protection-key fault' && [[ $(signal_of) == SEGV ]]; then
    outcome=pkey-fault
    verdict "stopped by a protection-key fault: SIG$(signal_of), exit" \
      "status $rc; the loader named $(grep -o '(key [0-9]*, domain [a-z]*)' "$log")"
  elif says 'dipc: sfi fault' && [[ $(signal_of) == SEGV ]]; then
    outcome=sfi-fault
    verdict "stopped by a compiled-in check: SIG$(signal_of), exit status" \
      "$rc; the loader named $(grep -o '(domain [a-z]*) denied to the running domain ([a-z]*)' "$log")"
  else
    outcome=other
    verdict "neither leaked nor stopped by a protection-key fault (exit status $rc)"
  fi
  expect "$1" "$outcome"
}

if [[ $backend != none ]]; then
  name=${prog##*/}
  step "dipc-run --backend=$backend --info $name: web calls db's query across domains"
  run --backend="$backend" --info "$prog"
  if [[ $rc -eq 0 ]] && says 'web: query "select 1" -> row(select 1)'; then
    verdict "the cross-domain call answered (exit status 0)"
  else
    verdict "the cross-domain call FAILED (exit status $rc)"
    wrong=1
  fi

  step "dipc-run --backend=$backend $name --steal: web reads db's secret directly"
  run --backend="$backend" "$prog" --steal
  if [[ $backend == mpk ]]; then steal pkey-fault; else steal sfi-fault; fi

  step "dipc-run --backend=$backend $name --crash: a query crashes the db domain"
  run --backend="$backend" "$prog" --crash
  if [[ $rc -eq 0 ]] && says 'answering 500' &&
    says 'web: query "select 2" -> row(select 2)'; then
    verdict "db crashed, web answered 500 and went on serving (exit status 0)"
  else
    verdict "web did NOT survive the db crash (exit status $rc)"
    wrong=1
  fi
else
  step "control: dipc-run --backend=none web-db --steal (isolation not enforced)"
  run --backend=none "$prog" --steal
  steal leaked
fi
exit "$wrong"

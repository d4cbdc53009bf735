# steps-common.sh - sourced by the examples' steps.sh: running dipc-run and
# judging its outcome from the output and exit status. Needs $bin (dipc-run's
# directory); sets $log (removed at exit), $rc and $wrong.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
wrong=0

step() { printf '\n== %s\n' "$*"; }
# run ARGS...: runs dipc-run, shows its output, leaves it in $log, the exit
# status in $rc.
run() {
  { "$bin/dipc-run" "$@"; } >"$log" 2>&1 # the shell's "Segmentation fault" too
  rc=$?
  cat "$log"
}
says() { grep -qF -- "$1" "$log"; }
verdict() { printf -- '-> %s\n' "$*"; }

#!/usr/bin/env bash
# demo-backends.sh NAME BUILD_DIR STEPS ARGS...: an example's demo steps
# under each backend STEPS knows (`bash STEPS --backends`; mpk and none if
# it does not say): `bash STEPS mpk ARGS...` (natively when this CPU has
# protection keys, else in scripts/vm.sh's QEMU guest, whose CPU has them),
# `bash STEPS sfi ARGS...` and `bash STEPS none ARGS...` (the control). STEPS judges each outcome
# from the run and exits 1 when one is not what its backend promises; so
# does this script, after saying so.
set -uo pipefail
[[ $# -ge 3 ]] || { echo "usage: demo-backends.sh NAME BUILD_DIR STEPS ARGS..." >&2; exit 2; }
name=$1 build=$2 steps=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)

status=0
# The backends STEPS knows (`bash STEPS --backends`), mpk and none at least.
backends=$(bash "$steps" --backends 2>/dev/null) || backends="mpk none"
for backend in $backends; do
  if [[ $backend != mpk ]]; then
    bash "$steps" "$backend" "$@" || status=1
  elif grep -qw pku /proc/cpuinfo && grep -qw ospke /proc/cpuinfo; then
    bash "$steps" mpk "$@" || status=1
  else
    printf '\n== %s\n' "this CPU has no protection keys: the mpk steps run in a QEMU guest whose CPU has them (scripts/vm.sh; boots in ~10 s)"
    (cd "$root" && bash scripts/vm.sh --rw "$build" -- bash "$steps" mpk "$@") ||
      status=1
  fi
done

if [[ $status -eq 0 ]]; then
  printf '\n%s: every outcome was the one its backend promises\n' "$name"
else
  printf '\n%s: FAILED: an outcome above is not the one its backend promises\n' "$name"
fi
exit "$status"

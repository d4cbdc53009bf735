#!/usr/bin/env bash
# Fetches SQLite (once, fetch.py), builds examples/sqlite-domain (SQLite's
# amalgamation, unchanged, in domain db; CMake builds it once the source is
# there) and runs it: the same results as the plain build, main stopped
# reading SQLite's heap, a crash inside sqlite3_step contained (steps.sh).
# Where this CPU has no protection keys the mpk steps run in a QEMU guest
# that has them (scripts/vm.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
out=$build/examples/sqlite-domain
bin=$build/bin

step() { printf '\n== %s\n' "$*"; }

step "fetch.py: SQLite 3.46.0's amalgamation (libsqlite3-sys 0.30.1 crate)"
DIPC_BUILD_DIR=$build python3 "$here/fetch.py" || exit 1
step "build (dipc-clang -fdipc -fdipc-domain=db -c sqlite3.c, the wrapper" \
  "db.c in db, main.c in the default domain; and the plain build)"
bash "$root/scripts/build.sh" >/dev/null || exit 1
[[ -x $out/sqlite-domain ]] ||
  { echo "run.sh: $out/sqlite-domain was not built" >&2; exit 1; }

step "dipc-readelf sqlite-domain: db owns SQLite's code, data and heap"
"$bin/dipc-readelf" "$out/sqlite-domain" | grep -v '^import' || exit 1

step "the plain build (no -fdipc)"
"$out/sqlite-domain-plain" || exit 1

exec bash "$root/scripts/demo-backends.sh" sqlite-domain "$build" "$here/steps.sh" "$bin" "$out"

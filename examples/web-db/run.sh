#!/usr/bin/env bash
# Builds the web/db example (paper Figure 3) with -fdipc and runs it under
# the dIPC loader (steps.sh): a cross-domain call, a stopped attempt to read
# db's secret, and a db crash that web survives, under `mpk` and under
# `sfi` (built again with -fdipc-sfi); then the control, the same theft
# under `none`. Where this CPU has no protection keys, the `mpk` steps run
# in a QEMU guest that has them (scripts/vm.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
out=$build/examples/web-db
bin=$build/bin
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "dipc-clang -fdipc -O2 web.c db.c -o web-db"
"$bin/dipc-clang" -fdipc -O2 "$here/web.c" "$here/db.c" -o "$out/web-db" || exit 1

step "dipc-clang -fdipc -fdipc-sfi -O2 web.c db.c -o web-db-sfi: the checks compiled in"
"$bin/dipc-clang" -fdipc -fdipc-sfi -O2 "$here/web.c" "$here/db.c" -o "$out/web-db-sfi" || exit 1

step "dipc-readelf web-db: the domains, entries, imports and grants"
"$bin/dipc-readelf" "$out/web-db" || exit 1

exec bash "$root/scripts/demo-backends.sh" demo "$build" "$here/steps.sh" "$bin" "$out/web-db"

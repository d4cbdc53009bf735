#!/usr/bin/env bash
# Builds the web/db example (paper Figure 3) with -fdipc and runs it under
# the dIPC loader: a cross-domain call, a stopped attempt to read db's
# secret, and a db crash that web survives.
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

step "dipc-readelf web-db: the domains, entries, imports and grants"
"$bin/dipc-readelf" "$out/web-db" || exit 1

step "dipc-run --info web-db: web calls db's query across domains"
"$bin/dipc-run" --info "$out/web-db" || exit 1

step "dipc-run web-db --steal: web reads db's secret directly"
"$bin/dipc-run" "$out/web-db" --steal
echo "(exit status $?: stopped by a protection-key fault)"

step "dipc-run web-db --crash: a query crashes the db domain"
"$bin/dipc-run" "$out/web-db" --crash || exit 1

step "control: dipc-run --backend=none web-db --steal (isolation not enforced)"
"$bin/dipc-run" --backend=none "$out/web-db" --steal
echo "(exit status $?: without enforcement the secret leaks)"

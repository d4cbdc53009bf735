#!/usr/bin/env bash
# Builds the web/db example with -fdipc and shows its domain facts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
out=$build/examples/web-db
cc=$build/bin/dipc-clang
mkdir -p "$out"

echo "== compiling web.c and db.c with dipc-clang -fdipc"
for f in web db; do
  "$cc" -fdipc -O2 -c "$here/$f.c" -o "$out/$f.o"
  "$cc" -fdipc -O2 -S -emit-llvm "$here/$f.c" -o "$out/$f.ll"
done
"$cc" -fdipc "$out/web.o" "$out/db.o" -o "$out/web-db"

echo "== dIPC facts the compiler recorded (symbol: fact)"
for f in web db; do
  echo "-- $f.c"
  # Each @llvm.global.annotations element pairs a symbol with a fact string.
  python3 - "$out/$f.ll" <<'PY'
import re, sys
ir = open(sys.argv[1]).read()
strings = dict(re.findall(r'^(@\.str[.\d]*) = .*c"(dipc\.[^"\\]*)\\00"', ir, re.M))
for sym, s in re.findall(r'\{ ptr (@[\w.]+), ptr (@\.str[.\d]*),', ir):
    if s in strings:
        print(f"  {sym[1:]}: {strings[s]}")
PY
done

echo "== the same source, compiled without -fdipc (unisolated baseline)"
"$build/bin/dipc-clang" -O2 "$here/web.c" "$here/db.c" -o "$out/web-db-plain"
"$out/web-db-plain"

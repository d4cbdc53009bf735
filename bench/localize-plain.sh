#!/bin/sh
# localize-plain.sh LLVM_BIN OUT IN.o... - links IN.o into one relocatable
# OUT whose defined symbols are all local except db_*, renamed plain_db_*:
# the plain build of examples/sqlite-domain then links into the same
# program as the -fdipc build (bench/sqlite.cc) without a clash.
set -eu
llvm=$1 out=$2
shift 2
"$llvm/ld.lld" -r "$@" -o "$out.combined.o"
"$llvm/llvm-nm" --defined-only --extern-only --format=just-symbols \
  "$out.combined.o" >"$out.symbols"
grep -v '^db_' "$out.symbols" >"$out.local" || true
sed -n 's/^db_.*/& plain_&/p' "$out.symbols" >"$out.renames"
[ -s "$out.renames" ] || { echo "localize-plain.sh: no db_* symbol in $*" >&2; exit 1; }
"$llvm/llvm-objcopy" --localize-symbols="$out.local" \
  --redefine-syms="$out.renames" "$out.combined.o" "$out"

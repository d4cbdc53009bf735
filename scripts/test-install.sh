#!/usr/bin/env bash
# The installed toolchain works on its own (docs/install.md). From this
# checkout, as on a clean machine:
#   1. configures and builds the toolchain in a build tree of its own with
#      -DDIPC_BENCHMARKS=OFF (without Google Benchmark, TI-RPC or rpcgen);
#   2. `cmake --install --prefix` into a temporary prefix, then deletes the
#      build tree;
#   3. checks that no installed file names the build or the source tree
#      (contents, RUNPATHs);
#   4. with the prefix alone: builds examples/cmake-project through
#      find_package(Dipc) and examples/web-db with the installed
#      dipc-clang, both from the prefix's copies, runs them with the
#      installed dipc-run, and judges what they printed.
# The programs run under `mpk` where this CPU has protection keys, else
# under `none` (the calls, the records and the loader are the same).
#
#   scripts/test-install.sh [--keep]   --keep leaves the work directory
#
# Takes a few minutes (a build of its own). Exits 1 at the first check that
# fails, saying which and why.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keep=0
case "${1-}" in
  --keep) keep=1 ;;
  "") ;;
  *) echo "usage: test-install.sh [--keep]" >&2; exit 2 ;;
esac

# Without symbolic links: the paths the tools print are compared with it.
work=$(readlink -f "$(mktemp -d "${TMPDIR:-/tmp}/dipc-install.XXXXXX")")
if [[ $keep -eq 0 ]]; then
  trap 'rm -rf "$work"' EXIT
fi
build=$work/build
prefix=$work/prefix
examples=$prefix/share/doc/dipc/examples

fail() {
  echo "test-install: FAILED: $*" >&2
  exit 1
}
# phase NAME [WHAT]: says WHAT the next phase does; each phase's time goes
# to the last line, under NAME.
phase_name= phase_start=$SECONDS times=()
phase() {
  [[ -z $phase_name ]] || times+=("$phase_name $((SECONDS - phase_start))s")
  phase_name=$1 phase_start=$SECONDS
  [[ $# -lt 2 ]] || echo "== test-install: $2"
}
# logged LOG COMMAND...: runs COMMAND into LOG; shows LOG if it fails.
logged() {
  local log=$1
  shift
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  [[ $rc -eq 0 ]] || { cat "$log"; fail "$* (exit status $rc)"; }
}
host_has_pku() { grep -qw pku /proc/cpuinfo && grep -qw ospke /proc/cpuinfo; }
backend=none
host_has_pku && backend=mpk

phase configure "configure $build (-DDIPC_BENCHMARKS=OFF)"
logged "$work/configure.log" cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DDIPC_BENCHMARKS=OFF
# Never looked for, not merely found.
looked=$(grep -oE '^(benchmark_DIR|TIRPC_FOUND|RPCGEN):' "$build/CMakeCache.txt" | cut -d: -f1 || true)
[[ -z $looked ]] || fail "configured with -DDIPC_BENCHMARKS=OFF, CMake" \
  "still looked for Google Benchmark, TI-RPC or rpcgen (CMakeCache.txt:" \
  $looked")"

phase build "build ($(nproc) cores)"
cmake --build "$build" || fail "the build failed (above)"

phase install "install into $prefix, delete the build tree"
logged "$work/install.log" cmake --install "$build" --prefix "$prefix"
rm -rf "$build"
for f in bin/dipc-clang bin/dipc-clang++ bin/dipc-run bin/dipc-readelf \
  lib/dipc/DipcAttrs.so lib/dipc/DipcPass.so lib/dipc/libdipc.so \
  lib/dipc/libdipc-loader.so include/dipc.h include/dipc/rt.h \
  lib/cmake/Dipc/DipcConfig.cmake share/doc/dipc/README.md \
  share/doc/dipc/docs/install.md; do
  [[ -e $prefix/$f ]] || fail "the install has no $f"
done

phase paths "no installed file names the build or the source tree"
# The documentation may show paths of its own; the code may not name
# the source tree, and nothing may name the build tree.
leaks=$(grep -rlF -e "$root/" "$prefix/bin" "$prefix/lib" "$prefix/include" || true)
leaks+=$(grep -rlF -e "$build" "$prefix" || true)
[[ -z $leaks ]] || fail "these installed files name $root or $build: $leaks"
while IFS= read -r -d '' f; do
  readelf -h "$f" >/dev/null 2>&1 || continue
  runpath=$(readelf -d "$f" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
  echo "${f#"$prefix"/}: RUNPATH ${runpath:-none}"
done < <(find "$prefix" -type f -print0)

phase cmake-project "examples/cmake-project: find_package(Dipc) from the prefix, run under $backend"
ledger=$work/cmake-project
logged "$work/cmake-project.log" cmake -S "$examples/cmake-project" \
  -B "$ledger" -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
logged "$work/cmake-project-build.log" cmake --build "$ledger" --verbose
grep -qF -- "$prefix/bin/dipc-clang" "$work/cmake-project-build.log" ||
  fail "the example was not compiled by the installed dipc-clang: $(cat "$work/cmake-project-build.log")"
program=$ledger/ledger-demo
runpath=$(readelf -d "$program" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
[[ $runpath == "$prefix/lib/dipc" ]] ||
  fail "ledger-demo's RUNPATH is '$runpath', not the prefix's lib/dipc"
records=$("$prefix/bin/dipc-readelf" "$program") || fail "dipc-readelf ledger-demo: $records"
grep -qx 'domain ledger' <<<"$records" &&
  grep -q '^entry ledger_deposit domain=ledger ' <<<"$records" &&
  grep -q '^import ledger_deposit from=default to=ledger ' <<<"$records" ||
  fail "ledger-demo's records lack domain ledger, its entry or the import: $records"
# Deposits drawn now: the balance printed must be their sum, as returned by
# the ledger domain through the entry.
deposits=() sum=0
for _ in 1 2 3 4; do
  deposits+=($((RANDOM - 16384)))
  sum=$((sum + deposits[-1]))
done
rc=0
out=$("$prefix/bin/dipc-run" --backend="$backend" --info "$program" \
  "${deposits[@]}" 2>&1) || rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "dipc-run ledger-demo ${deposits[*]}: exit status $rc"
grep -qx "balance $sum after ${#deposits[@]} deposits" <<<"$out" ||
  fail "ledger-demo ${deposits[*]} did not print the balance $sum"
grep -q '^dipc: import ledger_deposit from default to ledger' <<<"$out" ||
  fail "the installed loader did not set up the import of ledger_deposit"
# Its call goes through an import only the loader resolves.
rc=0
"$program" 1 >"$work/no-loader.log" 2>&1 || rc=$?
[[ $rc -eq 78 ]] || fail "ledger-demo without dipc-run: exit status $rc, not 78 (no loader): $(cat "$work/no-loader.log")"

phase web-db "examples/web-db: the installed dipc-clang, run under $backend"
webdb=$work/web-db
"$prefix/bin/dipc-clang" -fdipc -O2 "$examples/web-db/web.c" \
  "$examples/web-db/db.c" -o "$webdb" || fail "dipc-clang web.c db.c"
version=$("$prefix/bin/dipc-clang++" --version) &&
  grep -q "^plugins: $prefix/lib/dipc/DipcAttrs.so " <<<"$version" ||
  fail "the installed dipc-clang++ does not run with the prefix's plugins: $version"
grep -qx 'domain db' <<<"$("$prefix/bin/dipc-readelf" "$webdb")" ||
  fail "web-db has no records of domain db"
if [[ $backend == mpk ]]; then
  # The call, the stopped theft and the survived crash.
  bash "$examples/web-db/steps.sh" mpk "$prefix/bin" "$webdb" ||
    fail "web-db under mpk (above)"
else
  rc=0
  out=$("$prefix/bin/dipc-run" --backend=none "$webdb" --crash 2>&1) || rc=$?
  echo "$out"
  [[ $rc -eq 0 ]] || fail "dipc-run web-db --crash: exit status $rc"
  # db answers each query with row(<the query>); the crashing one gets 500.
  for query in 'select 1' 'select 2'; do
    grep -qxF "web: query \"$query\" -> row($query)" <<<"$out" ||
      fail "web-db did not get db's answer to \"$query\""
  done
  grep -qxF 'web: query "crash" crashed the db domain; answering 500' <<<"$out" ||
    fail "web-db did not survive db's crash"
fi
# The control: without enforcement the theft succeeds.
bash "$examples/web-db/steps.sh" none "$prefix/bin" "$webdb" ||
  fail "web-db's control under none (above)"

phase end
echo "test-install: PASSED in ${SECONDS}s ($(IFS=,; echo "${times[*]}" | sed 's/,/, /g'))"
[[ $keep -eq 0 ]] || echo "test-install: kept $work"

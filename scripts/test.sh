#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every
# test (the lit suite under test/) on any x86-64 host, in lanes:
#   host   every test, natively;
#   vm     on a host without protection keys: rt/, e2e/ and loader/ (every
#          test whose outcome depends on the backend, `REQUIRES: pku` ones
#          included) and any other test the host skipped for lack of keys,
#          in a QEMU guest that has them (scripts/vm.sh);
#   no-pku on a host with protection keys: rt/, e2e/ and loader/ again with
#          DIPC_NO_PKU=1, the runtime acting as on a CPU without them.
# Then the toolchain is built apart, installed and used from the prefix
# alone (scripts/test-install.sh, docs/install.md).
# Ends with "lit: N passed, N failed, N skipped"; skipped counts tests that
# no lane ran; then "install: passed" or "install: FAILED". Extra arguments
# go to every lit run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
# A hung test fails after this many seconds instead of stalling the run
# (lit's --timeout needs python3-psutil, scripts/bootstrap.sh).
per_test=(--timeout 300)
# Debian's interpreter, which has lit's and psutil's packages (a python3
# earlier in PATH, e.g. pyenv's, may not).
python=/usr/bin/python3

bash "$root/scripts/bootstrap.sh"
bash "$root/scripts/build.sh"

# Inside the build tree: the VM lane writes its results there too.
results=$build/test-results
rm -rf "$results"
mkdir -p "$results"
status=0

# lane NAME [lit arguments...]: one lit run writing $results/NAME.xml.
lane() {
  local name=$1
  shift
  echo "== test lane $name"
  "$python" "$lit" -sv --time-tests "${per_test[@]}" \
    --xunit-xml-output "$results/$name.xml" "$@" ||
    status=1
  [[ -f "$results/$name.xml" ]] || {
    echo "test: lane $name wrote no results" >&2
    status=1
  }
}

host_has_pku() { grep -qw pku /proc/cpuinfo && grep -qw ospke /proc/cpuinfo; }

lane host "$build/test" "$@"

if host_has_pku; then
  DIPC_NO_PKU=1 lane no-pku "$build/test/rt" "$build/test/e2e" \
    "$build/test/loader" "$@"
elif [[ -f "$results/host.xml" ]]; then
  # The runtime suites again under `mpk` (what a PKU host's host lane
  # does), and anything else the host skipped for lack of keys.
  vm_tests=("$build/test/rt" "$build/test/e2e" "$build/test/loader")
  while IFS= read -r t; do
    [[ $t == rt/* || $t == e2e/* || $t == loader/* ]] || vm_tests+=("$build/test/$t")
  done < <(python3 "$root/scripts/lit-results.py" missing pku "$results/host.xml")
  echo "test: this CPU has no protection keys: rt/, e2e/ and loader/ run" \
    "again under mpk in the VM lane (scripts/vm.sh, a QEMU guest with them)"
  echo "== test lane vm"
  (cd "$root" && bash scripts/vm.sh --rw "$build" -- "$python" "$lit" -sv \
    --time-tests "${per_test[@]}" --xunit-xml-output "$results/vm.xml" "$@" \
    "${vm_tests[@]}") ||
    status=1
  [[ -f "$results/vm.xml" ]] || {
    echo "test: lane vm wrote no results" >&2
    status=1
  }
fi

echo "== test install"
install_result=passed
bash "$root/scripts/test-install.sh" || {
  install_result="FAILED (scripts/test-install.sh, above)"
  status=1
}

shopt -s nullglob
python3 "$root/scripts/lit-results.py" summary "$results"/*.xml || status=1
echo "install: $install_result"
exit "$status"

#!/usr/bin/env bash
# Prints the name the benchmark reports of this machine go by
# (docs/benchmarks.md): $DIPC_BENCH_MACHINE, else
# <os><version>-<N>core-<hostname>, e.g. debian12-2core-vm.
set -euo pipefail
if [[ -n ${DIPC_BENCH_MACHINE:-} ]]; then
  echo "$DIPC_BENCH_MACHINE"
else
  . /etc/os-release
  echo "${ID}${VERSION_ID}-$(nproc)core-$(hostname -s)"
fi

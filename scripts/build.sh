#!/usr/bin/env bash
# Configures (once) and builds the toolchain into build/ (or $DIPC_BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
if [[ ! -f "$build/build.ninja" ]]; then
  echo "build: configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build"

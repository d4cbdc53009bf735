#!/usr/bin/env bash
# The README's main command: installs what is missing, builds the toolchain,
# and builds and runs the main example (examples/web-db).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/bootstrap.sh"
bash "$root/scripts/build.sh"
exec bash "$root/examples/web-db/run.sh"

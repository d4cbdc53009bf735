#!/usr/bin/env bash
# Installs exactly the Debian 12 packages the toolchain needs that are missing
# (or, given package names, those: scripts/vm.sh names the VM lane's).
# Idempotent and silent when everything is present.
set -euo pipefail

packages=(
  clang-19 llvm-19-dev libclang-19-dev lld-19 libclang-rt-19-dev
  libunwind-19-dev llvm-19-tools libbenchmark-dev cmake ninja-build
  python3 binutils file libtirpc-dev rpcsvc-proto python3-matplotlib
  python3-psutil ca-certificates libc-l10n
)
[[ $# -eq 0 ]] || packages=("$@")

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "bootstrap: missing packages: ${missing[*]}; run as root or install them" >&2
  exit 1
fi
echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# Installs the Debian packages the VM lane needs that are missing (QEMU, a
# static busybox for the initramfs, cpio to pack it, xz for the kernel's
# compressed modules). Idempotent and silent when everything is present.
set -euo pipefail

packages=(qemu-system-x86 busybox-static cpio xz-utils)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "vm: missing packages: ${missing[*]}; run as root or install them" >&2
  exit 1
fi
echo "vm: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

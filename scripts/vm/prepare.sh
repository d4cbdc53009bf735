#!/usr/bin/env bash
# Prepares (once) the guest kernel and initramfs in the cache directory $1 and
# prints their paths, the kernel on line 1 and the initramfs on line 2.
# The kernel is Debian's generic one, unpacked from its .deb (never
# installed): 6.1 kills a process that faults inside a protection domain and
# the cloud flavour has no 9p. The initramfs is rebuilt when init or this
# script changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=$1
meta=${DIPC_VM_KERNEL_PKG:-linux-image-6.12-amd64}
wanted=(9p 9pnet_virtio virtio_rng) # the rest (virtio PCI, console) is built in

key=$(cat "$here/init" "$here/prepare.sh" | sha256sum | cut -c1-12)
kernel=$cache/$meta.vmlinuz
initrd=$cache/$meta-$key.initrd
done_() { printf '%s\n%s\n' "$kernel" "$initrd"; exit 0; }
[[ -f $kernel && -f $initrd ]] && done_

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9 # concurrent first runs: one prepares, the others wait
[[ -f $kernel && -f $initrd ]] && done_

tmp=$(mktemp -d "$cache/.prep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The metapackage's dependency names the real image package (and version).
resolve() {
  apt-cache depends "$meta" 2>/dev/null |
    sed -n 's/^ *Depends: \(linux-image-[^ <>]*\)$/\1/p' | head -n1
}
deb=$cache/$meta.deb
if [[ ! -f $deb ]]; then
  echo "vm: preparing kernel $meta (once)" >&2
  if ! apt-cache show "$meta" >/dev/null 2>&1; then
    [[ $(id -u) -eq 0 ]] || { echo "vm: apt does not know $meta; run 'apt-get update' as root" >&2; exit 1; }
    apt-get update -qq
  fi
  pkg=$(resolve)
  pkg=${pkg:-$meta} # already a real image package
  sandbox=()
  [[ $(id -u) -eq 0 ]] && sandbox=(-o APT::Sandbox::User=root)
  (cd "$tmp" && apt-get download -qq "${sandbox[@]}" "$pkg") >&2
  mv "$tmp"/*.deb "$deb"
else
  echo "vm: preparing initramfs (once per change of scripts/vm)" >&2
fi

dpkg-deb -x "$deb" "$tmp/k"
kver=$(ls "$tmp/k/lib/modules")
mods=$tmp/k/lib/modules/$kver

# The .deb ships no modules.dep (depmod runs at install time, and takes
# seconds); each module's own "depends=" field names what it needs. Names are
# normalised to underscores as the kernel does.
declare -A file loaded
while IFS= read -r f; do
  n=${f##*/}; n=${n%%.ko*}; file[${n//-/_}]=$f
done < <(cd "$mods" && find kernel -name '*.ko*')

ir=$tmp/ir
mkdir -p "$ir"/{bin,lib/modules,proc,sys,dev,newroot}
order=()
load() { # dependencies first
  local name=$1 f ko d
  [[ -n ${loaded[$name]:-} ]] && return
  f=${file[$name]:?vm: module $name not in kernel $kver}
  ko=$ir/lib/modules/$name.ko
  case $f in
    *.xz) xz -dc "$mods/$f" >"$ko" ;;
    *) cp "$mods/$f" "$ko" ;;
  esac
  for d in $(tr '\0' '\n' <"$ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
    load "${d//-/_}"
  done
  loaded[$name]=1
  order+=("$name")
}
for m in "${wanted[@]}"; do load "$m"; done
printf '%s\n' "${order[@]}" >"$ir/modules"

cp "$(command -v busybox)" "$ir/bin/busybox"
cp "$here/init" "$ir/init"
chmod 755 "$ir/init"
(cd "$ir" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$tmp/initrd"

cp "$tmp"/k/boot/vmlinuz-* "$tmp/vmlinuz"
mv "$tmp/vmlinuz" "$kernel"
rm -f "$cache/$meta"-*.initrd
mv "$tmp/initrd" "$initrd"
done_

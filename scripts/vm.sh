#!/usr/bin/env bash
# The VM lane: runs a command inside a QEMU guest whose CPU has protection
# keys (TCG, -cpu max), on any x86-64 Linux host, and exits with its status.
# The guest's root is the host's / (read-only); writable: the build dir and
# every --rw DIR. See docs/vm-lane.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vm=$root/scripts/vm

usage() {
  cat <<'EOF'
usage: scripts/vm.sh [options] [--] COMMAND [ARG...]
       scripts/vm.sh --check | --prepare
  --rw DIR          writable in the guest at the same path (repeatable);
                    ${DIPC_BUILD_DIR:-<repo>/build} is writable if it exists
  --env NAME=VALUE  set in the command's environment (repeatable); the
                    caller's DIPC_* variables are passed on as well
  --timeout SECS    kill the VM after SECS seconds (default 3600), status 124
  --mem SIZE        guest memory (default 4G)
  --smp N           guest CPUs (default 2)
  --check           boot and verify pku and ospke in the guest's cpuinfo
  --prepare         only install packages and build the kernel+initramfs cache
Exit status: the command's; 124 on timeout; 125 if the VM failed (no
status came back). DIPC_VM_DEBUG=1 prints the guest's kernel log.
EOF
}

rw=() envs=() timeout=3600 mem=4G smp=2 mode=run
while [[ $# -gt 0 ]]; do
  case $1 in
    --rw) d=$(realpath -e -- "${2:?--rw needs a directory}") || exit 2
          [[ -d $d && $d != / ]] || { echo "vm: --rw needs a directory other than /" >&2; exit 2; }
          rw+=("$d"); shift 2 ;;
    --env) [[ ${2:-} == [A-Za-z_]*=* ]] || { echo "vm: --env needs NAME=VALUE" >&2; exit 2; }
           envs+=("$2"); shift 2 ;;
    --timeout) timeout=${2:?}; shift 2
               [[ $timeout =~ ^[0-9]+$ ]] || { echo "vm: --timeout needs seconds" >&2; exit 2; } ;;
    --mem) mem=${2:?}; shift 2 ;;
    --smp) smp=${2:?}; shift 2 ;;
    --check) mode=check; shift ;;
    --prepare) mode=prepare; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) echo "vm: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done

# QEMU, a static busybox for the initramfs, cpio to pack it, xz for the
# kernel's compressed modules.
bash "$root/scripts/bootstrap.sh" qemu-system-x86 busybox-static cpio xz-utils
if [[ -n ${DIPC_VM_CACHE:-} ]]; then cache=$DIPC_VM_CACHE
elif [[ $(id -u) -eq 0 ]]; then cache=/var/cache/dipc-vm
else cache=${XDG_CACHE_HOME:-$HOME/.cache}/dipc-vm; fi
paths=$(bash "$vm/prepare.sh" "$cache") || { echo "vm: kernel preparation failed" >&2; exit 125; }
{ read -r kernel; read -r initrd; } <<<"$paths"

case $mode in
  prepare) exit 0 ;;
  check)
    start=$SECONDS
    if (cd / && "$root/scripts/vm.sh" --timeout "$timeout" --mem "$mem" --smp "$smp" -- sh -c 'grep -qw pku /proc/cpuinfo && grep -qw ospke /proc/cpuinfo'); then
      echo "vm: guest CPU has pku and ospke ($((SECONDS - start)) s)"; exit 0
    fi
    echo "vm: guest CPU lacks pku/ospke (or the VM failed)" >&2; exit 1 ;;
esac
[[ $# -gt 0 ]] || { usage >&2; exit 2; }

# The build tree is where tests write; the source tree is shared too, since
# a clone under /tmp or /run would be hidden by the guest's fresh ones. Keep
# only the outermost of nested dirs (the inner ones are writable through
# them).
build=${DIPC_BUILD_DIR:-$root/build}
[[ -d $build ]] && rw+=("$(realpath -e -- "$build")")
rw+=("$(realpath -e -- "$root")")
mapfile -t rw < <(printf '%s\n' "${rw[@]}" | LC_ALL=C sort -u)
shares=()
for d in "${rw[@]}"; do
  [[ -z $d ]] && continue
  for s in "${shares[@]}"; do [[ $d == "$s" || $d == "$s"/* ]] && continue 2; done
  shares+=("$d")
done

job=$(mktemp -d "${TMPDIR:-/tmp}/dipc-vm.XXXXXX")
trap 'rm -rf "$job"' EXIT

# job.sh runs in the guest, chrooted into the host's /.
base=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
      HOME=/root USER=root LOGNAME=root LANG=C.UTF-8)
for v in $(compgen -e); do
  [[ $v == DIPC_* && $v != DIPC_VM_* ]] && base+=("$v=${!v}")
done
envs=("${base[@]}" "${envs[@]}")
{
  printf 'd=%q\n' "$PWD"
  echo 'cd -- "$d" 2>/dev/null || { echo "vm: cannot enter $d in the guest (fresh /tmp and /run there; pass --rw)"; exit 125; }'
  printf 'exec env -i --'
  printf ' %q' "${envs[@]}" "$@"
  printf '\n'
} >"$job/job.sh"
# The command's output is a terminal in the guest iff ours is.
[[ -t 1 ]] && touch "$job/tty"

# One 9p share per writable dir, listed for the guest's init. QEMU option
# values escape ',' as ',,'.
fsdevs=()
for i in "${!shares[@]}"; do
  printf 'rw%d %s\n' "$i" "${shares[$i]}" >>"$job/mounts"
  fsdevs+=(-fsdev "local,id=rw$i,path=${shares[$i]//,/,,},security_model=none,multidevs=remap"
           -device "virtio-9p-pci,fsdev=rw$i,mount_tag=rw$i")
done
touch "$job/mounts"

# The command's output comes through a fifo (virtconsole -> file chardev);
# cat forwards it live. Kernel messages go to console.log, shown on failure.
# fd 3 keeps the fifo open both ways until QEMU is done, so neither cat's
# nor QEMU's open blocks, whatever QEMU does.
mkfifo "$job/out"
exec 3<>"$job/out"
cat "$job/out" 3>&- &
catpid=$!

# QEMU runs in the background so that a signal to this script is handled at
# once (forwarded), not after QEMU exits; timeout stops it after --timeout.
timeout -k 10 "$timeout" qemu-system-x86_64 \
  -accel tcg -cpu max -m "$mem" -smp "$smp" \
  -nodefaults -no-user-config -display none -monitor none -no-reboot -nic none \
  -kernel "$kernel" -initrd "$initrd" \
  -append "console=ttyS0 quiet panic=-1 rdinit=/init" \
  -serial "file:$job/console.log" \
  -device virtio-serial-pci -chardev "file,id=out,path=${job//,/,,}/out" \
  -device virtconsole,chardev=out \
  -device virtio-rng-pci \
  -fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
  -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
  -fsdev "local,id=dipcjob,path=${job//,/,,},security_model=none" \
  -device virtio-9p-pci,fsdev=dipcjob,mount_tag=dipcjob \
  "${fsdevs[@]}" </dev/null 3>&- &
qpid=$! interrupted=
trap 'interrupted=130; kill "$qpid" 2>/dev/null' INT
trap 'interrupted=143; kill "$qpid" 2>/dev/null' TERM HUP
status=0
wait "$qpid" || status=$?
while kill -0 "$qpid" 2>/dev/null; do status=0; wait "$qpid" || status=$?; done
exec 3>&-
wait "$catpid" || true

if [[ -n ${DIPC_VM_DEBUG:-} ]]; then
  echo "vm: qemu status $status; kernel console:" >&2; cat "$job/console.log" >&2
fi
if [[ -n $interrupted ]]; then
  echo "vm: interrupted" >&2; exit "$interrupted"
fi
if [[ $status -eq 124 ]]; then
  echo "vm: timed out after $timeout s" >&2; exit 124
fi
if [[ ! -s $job/status ]]; then
  echo "vm: the VM failed (qemu status $status, no exit status came back)" >&2
  if [[ -s $job/console.log ]]; then
    echo "vm: last lines of the guest's kernel console:" >&2
    tail -n 30 "$job/console.log" >&2
  fi
  exit 125
fi
exit "$(cat "$job/status")"

#!/usr/bin/env bash
# The web/db example (paper Figure 3) as two processes
# (docs/cross-process.md): db-server serves domain db's entries on a UNIX
# socket, web-client calls them from another process, and the client's
# thread runs the database's code as the database's process. Under `sfi`
# (both built with -fdipc-sfi): the calls, a db crash that web survives,
# and web's theft of db's secret, stopped; then the control, the same
# theft under `none`, which succeeds. Every verdict is judged from the
# programs' output and exit status.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
out=$build/examples/web-db-processes
bin=$build/bin
. "$root/examples/steps-common.sh"
mkdir -p "$out"

step "dipc-clang -fdipc -fdipc-sfi -O2 db-server.c -o db-server; web-client.c -o web-client (and without -fdipc-sfi, for the control)"
for variant in sfi none; do
  flags=(-fdipc -O2)
  [[ $variant == sfi ]] && flags+=(-fdipc-sfi)
  "$bin/dipc-clang" "${flags[@]}" "$here/db-server.c" -o "$out/db-server-$variant" || exit 1
  "$bin/dipc-clang" "${flags[@]}" "$here/web-client.c" -o "$out/web-client-$variant" || exit 1
done

socket=$(mktemp -u /tmp/dipc-web-db.XXXXXX)
server=
trap 'kill -KILL $server 2>/dev/null; rm -f "$log" "$socket"' EXIT

# serve BACKEND: starts the db-server built for BACKEND, listening.
serve() {
  backend=$1
  step "dipc-run --backend=$backend --listen=$socket db-server &"
  rm -f "$socket"
  "$bin/dipc-run" --backend="$backend" --listen="$socket" "$out/db-server-$backend" &
  server=$!
  for _ in $(seq 100); do
    [[ -S $socket ]] && break
    sleep 0.1
  done
  [[ -S $socket ]] || { echo "db-server did not listen on $socket" >&2; exit 1; }
}

# stop: asks the db-server to stop; judges how it ended.
stop() {
  step "kill -TERM db-server"
  kill -TERM "$server"
  wait "$server"
  local status=$?
  if ((status == 0)); then
    verdict "db-server stopped cleanly (exit status 0)"
  else
    verdict "UNEXPECTED: db-server ended with status $status"
    wrong=1
  fi
}

client() {
  run --backend="$backend" --connect=db="$socket" "$out/web-client-$backend" "$@"
}

serve sfi
step "dipc-run --backend=sfi --connect=db=$socket web-client: calls into the db process"
client
if [[ $rc -eq 0 ]] && says "web: query \"select 2\" -> row(select 2)" &&
    says "db's code ran as pid $server"; then
  verdict "the calls worked, and db's code ran as the db process (pid $server)"
else
  verdict "UNEXPECTED: the calls failed (exit status $rc)"
  wrong=1
fi

step "web-client --crash: a query crashes the db's code"
client --crash
if [[ $rc -eq 0 ]] && says 'crashed the db; answering 500' &&
    says "web: query \"select 2\" -> row(select 2)" &&
    kill -0 "$server" 2>/dev/null; then
  verdict "web got DIPC_EFAULT, answered 500 and went on; the db process still runs"
else
  verdict "UNEXPECTED: the crash was not recovered (exit status $rc)"
  wrong=1
fi

step "web-client --steal: web reads db's secret directly"
client --steal
if says 'web: stole "'; then
  verdict "UNEXPECTED under sfi: the secret LEAKED (exit status $rc)"
  wrong=1
elif says 'dipc: sfi fault' && ((rc == 139)); then
  verdict "stopped by a compiled-in check: SIGSEGV, exit status $rc; the" \
    "loader named $(grep -o '(domain [a-z]*) denied to the running domain ([a-z]*)' "$log")"
else
  verdict "UNEXPECTED under sfi: neither leaked nor stopped by a check (exit status $rc)"
  wrong=1
fi
stop

serve none
step "web-client --steal under none: the control"
client --steal
if says 'web: stole "db-password-1234"'; then
  verdict "the secret LEAKED: none enforces nothing (the negative control)"
else
  verdict "UNEXPECTED under none: the theft did not succeed (exit status $rc)"
  wrong=1
fi
stop
exit "$wrong"

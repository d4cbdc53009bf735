#!/usr/bin/env bash
# The web/db example (paper Figure 3) as two processes
# (docs/cross-process.md): db-server serves domain db's entries on a UNIX
# socket, web-client calls them from another process, and the client's
# thread runs the database's code as the database's process. Steps: the
# calls, a db crash that web survives, and the theft of db's secret, which
# succeeds: processes are not isolated from each other yet (`none` only).
# Every verdict is judged from the programs' output and exit status.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
out=$build/examples/web-db-processes
bin=$build/bin
. "$root/examples/steps-common.sh"
mkdir -p "$out"

step "dipc-clang -fdipc -O2 db-server.c -o db-server; web-client.c -o web-client"
"$bin/dipc-clang" -fdipc -O2 "$here/db-server.c" -o "$out/db-server" || exit 1
"$bin/dipc-clang" -fdipc -O2 "$here/web-client.c" -o "$out/web-client" || exit 1

socket=$(mktemp -u /tmp/dipc-web-db.XXXXXX)
step "dipc-run --backend=none --listen=$socket db-server &"
"$bin/dipc-run" --backend=none --listen="$socket" "$out/db-server" &
server=$!
trap 'kill -KILL $server 2>/dev/null; rm -f "$log" "$socket"' EXIT
for _ in $(seq 100); do
  [[ -S $socket ]] && break
  sleep 0.1
done
[[ -S $socket ]] || { echo "db-server did not listen on $socket" >&2; exit 1; }

client() { run --backend=none --connect=db="$socket" "$out/web-client" "$@"; }

step "dipc-run --backend=none --connect=db=$socket web-client: calls into the db process"
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
if says 'web: stole "db-password-1234"'; then
  verdict "the secret LEAKED: processes are not isolated from each other yet" \
    "(--backend=none only; docs/cross-process.md §8)"
else
  verdict "UNEXPECTED under none: the theft neither leaked nor failed clearly"
  wrong=1
fi

step "kill -TERM db-server"
kill -TERM "$server"
wait "$server"
status=$?
if ((status == 0)); then
  verdict "db-server stopped cleanly (exit status 0)"
else
  verdict "UNEXPECTED: db-server ended with status $status"
  wrong=1
fi
exit "$wrong"

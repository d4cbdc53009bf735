#!/usr/bin/env bash
# run-pair.sh DIPC_RUN SOCKET SERVER CLIENT [CLIENT ARGS...]: runs SERVER
# under `dipc-run --listen=SOCKET`, then CLIENT under `--connect=db=SOCKET`
# with the server's pid as its first argument, then stops the server
# (SIGTERM) and reports how each ended. The two processes' layouts (ASLR)
# can collide (docs/cross-process.md §2): the client then stops saying so,
# and the pair runs again with new layouts, at most three times. Both run
# under $BACKEND (default none). The socket goes in a fresh directory
# under $TMPDIR with SOCKET's name: the VM lane's shared build directory
# (9p) cannot hold one.
set -u
backend=${BACKEND:-none}
dipc_run=$1 name=$(basename "$2") server=$3 client=$4
shift 4
out=$(mktemp)
dir=$(mktemp -d)
socket=$dir/$name
trap 'rm -f "$out"; rm -rf "$dir"' EXIT
for attempt in 1 2 3; do
  rm -f "$socket"
  "$dipc_run" --backend="$backend" --listen="$socket" "$server" &
  server_pid=$!
  for _ in $(seq 600); do
    [[ -S $socket ]] && break
    sleep 0.1
  done
  [[ -S $socket ]] || { echo "run-pair: the server did not listen"; exit 1; }
  "$dipc_run" --backend="$backend" --connect=db="$socket" "$client" "$server_pid" "$@" >"$out" 2>&1
  status=$?
  if ((attempt < 3)) && grep -q "the two layouts collide" "$out"; then
    echo "run-pair: attempt $attempt: the layouts collided" >&2
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null
    continue
  fi
  break
done
cat "$out"
echo "client exit $status"
kill -TERM "$server_pid" 2>/dev/null
wait "$server_pid"
echo "server exit $?"

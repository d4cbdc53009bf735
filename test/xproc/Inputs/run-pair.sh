#!/usr/bin/env bash
# run-pair.sh DIPC_RUN SOCKET SERVER CLIENT [CLIENT ARGS...]: runs SERVER
# under `dipc-run --listen=SOCKET`, then CLIENT under `--connect=db=SOCKET`
# with the server's pid as its first argument, then stops the server
# (SIGTERM) and reports how each ended.
set -u
dipc_run=$1 socket=$2 server=$3 client=$4
shift 4
rm -f "$socket"
"$dipc_run" --backend=none --listen="$socket" "$server" &
server_pid=$!
for _ in $(seq 100); do
  [[ -S $socket ]] && break
  sleep 0.1
done
[[ -S $socket ]] || { echo "run-pair: the server did not listen"; exit 1; }
"$dipc_run" --backend=none --connect=db="$socket" "$client" "$server_pid" "$@"
echo "client exit $?"
kill -TERM "$server_pid"
wait "$server_pid"
echo "server exit $?"

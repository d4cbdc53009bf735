/* rpc_server.h - the callee of the local RPC benchmark. */
#ifndef DIPC_BENCH_RPC_SERVER_H
#define DIPC_BENCH_RPC_SERVER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Serves BENCH_SUM_PROG on the connected UNIX socket `fd` until a STOP call.
 * Returns 0 after STOP, nonzero on failure. */
int bench_rpc_serve(int fd);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_RPC_SERVER_H */

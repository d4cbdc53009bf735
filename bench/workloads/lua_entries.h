/* lua_entries.h - domain lua (lua_domain.c: Lua 5.4 and the benchmark
 * script). */
#ifndef DIPC_WORKLOAD_LUA_ENTRIES_H
#define DIPC_WORKLOAD_LUA_ENTRIES_H
#include <dipc.h>

/* Runs the script in a new Lua state: its result (an integer), or -1 if
 * Lua failed. */
__dom("lua") __entry long long lw_run(void);
#endif

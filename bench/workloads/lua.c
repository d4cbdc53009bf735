/* lua.c - the Lua workload: a script (lua_domain.c) run by Lua 5.4 inside
 * domain lua in the dIPC builds (lua_entries.h). One run: one entry call
 * that makes a Lua state, runs the script and closes the state. */
#include "lua_entries.h"
#include "workload.h"

const char workload_name[] = "lua";

int workload_prepare(void) { return 0; }

int workload_run(unsigned long long *result) {
  long long r = lw_run();
  *result = (unsigned long long)r;
  return r < 0 ? -1 : 0;
}

/* The script's result is compared across builds by the script; here,
 * only that it ran. */
int workload_check(unsigned long long result) {
  return result > 0 ? 0 : -1;
}

/* lua_domain.c - domain lua: Lua 5.4 in one translation unit (as Lua's own
 * onelua.c builds it, from the sources bench/workloads/fetch.py fetched)
 * and the entry that runs the benchmark script, all compiled with
 * -fdipc-domain=lua. The Lua state lives in the domain's own heap; the
 * domain reads libc's data and the GOT in the default domain. */
#include "lua_entries.h"

/* Lua's sources, as onelua.c includes them: internal symbols static. */
#include "lprefix.h"
#define LUA_CORE
#define LUA_LIB
#define ltable_c
#define lvm_c
#include "luaconf.h"
#undef LUAI_FUNC
#undef LUAI_DDEC
#undef LUAI_DDEF
#define LUAI_FUNC static
#define LUAI_DDEC(def) /* empty */
#define LUAI_DDEF static
#include "lzio.c"
#include "lctype.c"
#include "lopcodes.c"
#include "lmem.c"
#include "lundump.c"
#include "ldump.c"
#include "lstate.c"
#include "lgc.c"
#include "llex.c"
#include "lcode.c"
#include "lparser.c"
#include "ldebug.c"
#include "lfunc.c"
#include "lobject.c"
#include "ltm.c"
#include "lstring.c"
#include "ltable.c"
#include "ldo.c"
#include "lvm.c"
#include "lapi.c"
#include "lauxlib.c"
#include "lbaselib.c"
#include "lcorolib.c"
#include "ldblib.c"
#include "liolib.c"
#include "lmathlib.c"
#include "loadlib.c"
#include "loslib.c"
#include "lstrlib.c"
#include "ltablib.c"
#include "lutf8lib.c"
#include "linit.c"

__perm("default", read) long long lw_run(void);

/* A mix of what Lua programs do: recursive calls, integer arithmetic,
 * table inserts and sorting, string formatting, concatenation and
 * pattern matching, hashing string keys, closures. */
static const char script[] =
    "local function fib(n) if n < 2 then return n end "
    "  return fib(n - 1) + fib(n - 2) end\n"
    "local acc = fib(25)\n"
    "local t = {}\n"
    "for i = 1, 100000 do t[i] = (i * 7919) % 100003 end\n"
    "table.sort(t)\n"
    "for i = 1, #t, 97 do acc = acc + t[i] end\n"
    "local parts = {}\n"
    "for i = 1, 20000 do parts[#parts + 1] = string.format('%d:%x', i, i * i) "
    "end\n"
    "local s = table.concat(parts, ',')\n"
    "for w in s:gmatch('(%d+):') do acc = acc + #w end\n"
    "local m = {}\n"
    "for i = 1, 50000 do local k = 'k' .. (i % 5000); m[k] = (m[k] or 0) + i "
    "end\n"
    "for _, v in pairs(m) do acc = acc + v % 7 end\n"
    "local function counter() local c = 0; return function() c = c + 1; "
    "return c end end\n"
    "local next_value = counter()\n"
    "for _ = 1, 100000 do acc = acc + next_value() % 3 end\n"
    "return acc\n";

long long lw_run(void) {
  lua_State *L = luaL_newstate();
  if (!L)
    return -1;
  luaL_openlibs(L);
  long long result = -1;
  if (luaL_loadstring(L, script) == LUA_OK &&
      lua_pcall(L, 0, 1, 0) == LUA_OK && lua_isinteger(L, -1))
    result = (long long)lua_tointeger(L, -1);
  lua_close(L);
  return result;
}

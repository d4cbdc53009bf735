/* sfi-plugin-lib.c - an instrumented library (-fdipc -fdipc-sfi) the
 * program of attack-sfi-library-file-rewritten.c loads as a plugin: the
 * loader validates it. lib_fn (default domain, no entry) is checked code,
 * harmless as compiled. */
#include <dipc.h>
int plugin_total __dom("plugin");
int plugin_add(int x) __dom("plugin") __entry { plugin_total += x; return plugin_total; }
long lib_fn(const volatile char *src, char *dst) {
  (void)src, (void)dst;
  return 0x1234;
}

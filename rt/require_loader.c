/* require_loader.c - a -fdipc program run without dipc-run stops at start
 * instead of running unisolated. Objects with dIPC records call this from a
 * constructor; the loader (or a test harness acting as one) defines
 * __dipc_loader_version. A weak reference resolves at load time, whatever
 * order constructors run in. */
#include <stdio.h>
#include <unistd.h>

#include "internal.h"

extern const int __dipc_loader_version __attribute__((weak));

DIPC_EXPORT void __dipc_require_loader(void) {
  if (&__dipc_loader_version)
    return;
  fputs("dipc: this program was built with -fdipc and must run under the "
        "dIPC loader: dipc-run PROGRAM [ARGS...]\n",
        stderr);
  _exit(DIPC_EXIT_REFUSED);
}

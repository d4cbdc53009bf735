/* unresolved.c - what an import slot holds until the loader fills it: a
 * -fdipc program run without dipc-run stops here instead of running
 * unisolated. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((visibility("default"), noreturn)) void
__dipc_unresolved_import(void) {
  fputs("dipc: cross-domain call through an unresolved import: this program "
        "was built with -fdipc; run it with `dipc-run PROGRAM`\n",
        stderr);
  abort();
}

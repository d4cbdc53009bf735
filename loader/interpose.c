/* interpose.c - the definitions the loader's stand-ins call on to. */
#define _GNU_SOURCE
#include "interpose.h"

#include <dipc/abi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

void *interpose_next(const char *name) {
  void *fn = dlsym(RTLD_NEXT, name);
  if (!fn) {
    const char *why = dlerror();
    fprintf(stderr, "dipc-loader: no definition of %s after the loader's: %s\n",
            name, why ? why : "not found");
    _exit(DIPC_EXIT_REFUSED);
  }
  return fn;
}

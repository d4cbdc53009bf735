/* sfi_dl.h - the dynamic linker's handles as instrumented code may pass
 * them, and the interceptors of dlsym and dlvsym under other names
 * (sfi_dl.c), which the alias table binds instrumented objects to. */
#ifndef DIPC_LOADER_SFI_DL_H
#define DIPC_LOADER_SFI_DL_H

#include <stdint.h>

struct sfi_renamed {
  uintptr_t real, interceptor;
};

/* Whether h is a loaded object's link_map (the main namespace's; dlmopen
 * is refused to domains), as dlopen returns. */
int sfi_dl_loaded_object(const void *h);

#define SFI_DL_RENAMED 2
extern const struct sfi_renamed sfi_dl_renamed[SFI_DL_RENAMED];

#endif

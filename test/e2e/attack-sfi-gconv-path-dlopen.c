// iconv_open loads conversion modules from GCONV_PATH with libc's internal
// dlopen, which the loader's dlopen (refusing a plain library to a domain
// under sfi, attack-sfi-dlopen-plain-library.c) never sees. `evil` writes
// a gconv-modules file into a directory, sets GCONV_PATH to it and opens a
// conversion: libc loads the plain module, whose constructor copies
// vault's secret unchecked. Under `sfi` setenv (and putenv) of GCONV_PATH
// is refused to instrumented code: the module is never loaded. Control:
// `none`, where it steals the secret.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -shared -fPIC -O2 %S/Inputs/gconv-peek.c -o %t.dir/gconv-peek.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.dir 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi %t.dir 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI: dipc: sfi: setenv of GCONV_PATH refused to the running domain (it would undo the isolation)
// SFI: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <iconv.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  char path[512], v[64];
  snprintf(path, sizeof path, "%s/gconv-modules", mode);
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fprintf(f, "module EVIL// INTERNAL gconv-peek 1\n"
             "module INTERNAL EVIL// gconv-peek 1\n");
  fclose(f);
  setenv("GCONV_PATH", mode, 1);
  snprintf(v, sizeof v, "%p", (const void *)secret);
  setenv("PEEK_FROM", v, 1);
  snprintf(v, sizeof v, "%p", (void *)loot);
  setenv("PEEK_TO", v, 1);
  iconv_t cd = iconv_open("EVIL//", "UTF-8");
  printf("iconv_open: %s\n", cd == (iconv_t)-1 ? "failed" : "opened");
  return 1;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : ".", NULL);
}

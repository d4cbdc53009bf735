// libc's directory walks and globbing call the domain's functions from
// libc itself, where no check of the call runs: `evil` hands scandir a
// filter (`scandir`), nftw a function (`nftw`), glob a directory opener
// (`glob`, GLOB_ALTDIRFUNC) one byte into a function of its own, past its
// start, where the middle of a function passes over its checks. Under
// `sfi` scandir's and nftw's are refused when handed over
// (loader/sfi_callbacks.c, as qsort's comparator) and main gets
// DIPC_EFAULT; GLOB_ALTDIRFUNC is refused outright (its functions sit in
// the glob_t, which libc reads again after any check): GLOB_ABORTED.
// `start`: the function's own start, accepted.
// Control: under `none` libc calls into the middle of the function.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scandir 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi nftw 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi glob 2>&1 | FileCheck %s --check-prefix=SFI-GLOB
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi start 2>&1 | FileCheck %s --check-prefix=START
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi scandir 2>&1 | FileCheck %s --check-prefix=REACHED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi nftw 2>&1 | FileCheck %s --check-prefix=REACHED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi glob 2>&1 | FileCheck %s --check-prefix=REACHED
// SFI-NOT: reached
// SFI: attack returned 0, dipc_errno 14
// SFI-GLOB-NOT: reached
// SFI-GLOB: dipc: sfi: glob with GLOB_ALTDIRFUNC refused to the running domain (it would undo the isolation)
// SFI-GLOB: attack returned 2, dipc_errno 0
// START: function start reached
// REACHED: middle of a function reached
#define _GNU_SOURCE
#include <dirent.h> /* before dipc.h: it names a parameter __entry */
#include <ftw.h>
#include <glob.h>
#include <unistd.h>

#include "Inputs/vault.h"

static const char *mode;

__attribute__((noinline)) static int target(void) {
  const char *msg = strcmp(mode, "start") ? "middle of a function reached\n"
                                          : "function start reached\n";
  (void)!write(STDOUT_FILENO, msg, strlen(msg));
  _exit(0);
}

long attack(const char *m, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)secret, (void)key, (void)loot;
  mode = m;
  char *p = (char *)target;
  if (strcmp(mode, "start") != 0)
    p += (p[0] == (char)0xf3) ? 4 : 1; /* past endbr64 or the first byte */
  if (strcmp(mode, "nftw") == 0)
    return nftw("/", (__nftw_func_t)p, 4, FTW_PHYS);
  if (strcmp(mode, "glob") == 0) {
    glob_t g;
    memset(&g, 0, sizeof g);
    g.gl_opendir = (void *(*)(const char *))p;
    return glob("/*", GLOB_ALTDIRFUNC, NULL, &g);
  }
  struct dirent **list;
  return scandir("/", &list, (int (*)(const struct dirent *))p, NULL);
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "scandir", NULL);
}

// A loaded library's data and constants are private mappings of its file:
// pages the process has not written show the file's current bytes, and
// Linux lets a shared library's file be written while it is mapped (only
// the running executable is ETXTBSY). Domain `zeta` (a write grant on the
// default domain, as a plugin has: under mpk libc's TLS needs it; none on
// vault) opens the library's file (its path from /proc/self/cmdline, in
// its own memory) and rewrites two things of domain vault that nothing in
// this process wrote: the bound its entry checks, a constant in its
// .rodata, from 16 to 32 (the entry then hands out the secret half of
// vault's record), and the public half of that record, in its .data. The
// loader puts private copies in place of every file mapping of a loaded
// object (loader/scan.c): under `sfi` at start and after each dlopen;
// under `mpk` at start and after each dlopen too, before the pages get
// their domains' keys (this test found the mpk escape in stop 41). So
// neither write reaches memory. Control: under `none` zeta reads the
// secret and rewrites vault's data. The library linked in, and opened
// with dlopen (-DDLOPEN). Under sfi also a library of data alone (no code,
// no executable mapping: -DDATA_ONLY, vault's entry in the program),
// which the first form of the fix missed (attack round 26); under mpk
// vault's entry cannot read such a library's data at all (its address is
// in the program's GOT, the default domain's memory), so that form is not
// run there.
// Found by attack round 25 (issue #15's session, 2026-11-27).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.dir/libdata.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -L%t.dir -ldata -Wl,-rpath,%t.dir
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DDLOPEN %s -o %t.dl
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t %t.dir/libdata.so 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.dir/libdata.so
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.dl %t.dir/libdata.so 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.dir/libdata.so
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.dir/libdata.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.dir/libdata.so
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.dl %t.dir/libdata.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC -nostartfiles %S/Inputs/library-data-only-lib.c -o %t.dir/libdataonly.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DDATA_ONLY %s -o %t.only -L%t.dir -ldataonly -Wl,-rpath,%t.dir
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.only %t.dir/libdataonly.so 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC -nostartfiles %S/Inputs/library-data-only-lib.c -o %t.dir/libdataonly.so
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.only %t.dir/libdataonly.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: rm -rf %t.mpk && mkdir -p %t.mpk
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.mpk/libdata.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t.m -L%t.mpk -ldata -Wl,-rpath,%t.mpk
// RUN: %dipc-clang -fdipc -O2 -DDLOPEN %s -o %t.m.dl
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.m %t.mpk/libdata.so 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.mpk/libdata.so
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.m.dl %t.mpk/libdata.so 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/library-data-lib.c -o %t.mpk/libdata.so
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.m %t.mpk/libdata.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// STOPPED: word 2 before: -1
// STOPPED-NEXT: zeta wrote 20 bytes of the library's file
// STOPPED-NEXT: vault's public half: 'public-info-abc'
// STOPPED-NEXT: nothing stolen
// STOLEN: word 2 before: -1
// STOLEN-NEXT: zeta wrote 20 bytes of the library's file
// STOLEN-NEXT: vault's public half: 'ZETA-WROTE-THIS'
// STOLEN-NEXT: stole 'vault-secret-42'
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef DATA_ONLY
#define VAULT_ENTRY_HERE
#endif
#include "Inputs/library-data.h"

static char zpath[4096] __dom("zeta");
static char zbuf[65536] __dom("zeta");
static const char marker[] __dom("zeta") = "VAULT-LEN-MARKR";
static const unsigned wider __dom("zeta") = 32;
static const char pub[] __dom("zeta") = "public-info-abc";
static const char forged[] __dom("zeta") = "ZETA-WROTE-THIS";
static long zloot[3] __dom("zeta");

// Widens the bound in the library's file, then asks vault's entry for the
// words past the public half. Returns the bytes written, or -1.
long zeta_attack(void) __dom("zeta") __entry __perm("default", write) {
  int fd = open("/proc/self/cmdline", O_RDONLY); // argv[1]: the library
  ssize_t got = fd < 0 ? -1 : read(fd, zbuf, sizeof zbuf - 1);
  close(fd);
  if (got <= 0)
    return -1;
  zbuf[got] = 0;
  strcpy(zpath, zbuf + strlen(zbuf) + 1);
  fd = open(zpath, O_RDWR);
  if (fd < 0)
    return -1;
  long written = 0;
  ssize_t n = pread(fd, zbuf, sizeof zbuf, 0);
  for (ssize_t i = 0; i + 20 <= n; i++) {
    if (!memcmp(zbuf + i, marker, 16))
      written += pwrite(fd, &wider, sizeof wider, i + 16);
    if (!memcmp(zbuf + i, pub, 16))
      written += pwrite(fd, forged, 16, i);
  }
  close(fd);
  zloot[0] = vault_public_word(2);
  zloot[1] = vault_public_word(3);
  return written;
}
long zeta_loot(long i) __dom("zeta") __entry { return zloot[i]; }

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
#ifdef DLOPEN
  if (!dlopen(argv[1], RTLD_NOW)) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
#endif
  printf("word 2 before: %ld\n", vault_public_word(2));
  long w = zeta_attack();
  printf("zeta wrote %ld bytes of the library's file\n", w);
  long half[3] = {vault_public_word(0), vault_public_word(1), 0};
  printf("vault's public half: '%s'\n", (char *)half);
  long loot[3] = {zeta_loot(0), zeta_loot(1), 0};
  if (loot[0] != -1)
    printf("stole '%s'\n", (char *)loot);
  else
    printf("nothing stolen\n");
  return 0;
}

// A page kept its tag after a domain unmapped it (found in stop 38's own
// attack): domain `zeta`, with no grant, unmapped the work area main gave
// it (dom_mmap, zeta's pages) and main's next mapping at that address was
// still zeta's: zeta wrote into it, and main, denied its own memory, died
// at its first store (what libc's unchecked code wrote there, zeta could
// read). Now the runtime makes the call for the loader
// (rt/sfi.c dipc_op_sfi_unmap), the pages the runtime's during the call
// and 0 after; an mremap that shrinks is a munmap of the tail. main maps
// at the old address with a hint, which the kernel honours for a free
// range (libc's own mappings take such holes too: a big malloc block did
// in a first try). mremap that moves, grows or maps again is refused to
// instrumented code: the pages it brings are the mapping's object's,
// which another mapping may hold under another tag, and versions of this
// fix that tagged them let zeta read vault's page (the second of a
// shared area of zeta's whose second page main had moved to vault)
// through its first page grown to two, a duplicate (an old size of 0),
// MREMAP_DONTUNMAP and races (attack round 23). The same object seen
// twice without mremap: zeta put a file it made over both pages of its
// area, main moved the first to vault, and zeta read vault's secret
// through the second: dom_remap moves no page of a shared mapping under
// an enforcing backend (rt/domain.c). Control: under `none` zeta writes
// and reads main's mapping and steals through its alias.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t unmap 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t shrink 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t unmap 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t shrink 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t alias 2>&1 | FileCheck %s --check-prefix=SFI-ALIAS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t alias 2>&1 | FileCheck %s --check-prefix=NONE-ALIAS
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t again 2>&1 | FileCheck %s --check-prefix=SFI-AGAIN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t again 2>&1 | FileCheck %s --check-prefix=NONE-AGAIN
// SFI: main's mapping at zeta's old address: yes
// SFI: zeta's write: refused
// SFI: zeta's read: refused
// SFI: main reads back 'main-secret-77'
// NONE: main's mapping at zeta's old address: yes
// NONE: zeta's write: done
// NONE: zeta's read: 'main-se'
// SFI-ALIAS: main moves the first page to vault: refused
// SFI-ALIAS: nothing stolen
// NONE-ALIAS: main moves the first page to vault: done
// NONE-ALIAS: zeta stole 'vault-s'
// SFI-AGAIN: zeta's shared page grown: refused, duplicated: refused
// NONE-AGAIN: zeta's shared page grown: done, duplicated: done
#define _GNU_SOURCE /* mremap */
#include <dipc.h>
#include <dipc/rt.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define AREA (1ul << 20)

long zeta_unmap(char *work) __dom("zeta") __entry {
  return munmap(work, AREA);
}

// Keeps the first half of the area (mremap): 0, or -1.
long zeta_shrink(char *work) __dom("zeta") __entry {
  return mremap(work, AREA, AREA / 2, 0) == work ? 0 : -1;
}

// Grows its first page to two (1) or maps both again (0): 1 if done.
long zeta_again(char *area, int grow) __dom("zeta") __entry {
  return mremap(area, grow ? 4096 : 0, 2 * 4096, MREMAP_MAYMOVE) != MAP_FAILED;
}

static const char alias_path[] __dom("zeta") = "/tmp/dipc-zeta-alias";

// Puts one page of a file of its own over both pages of area.
long zeta_alias(char *area) __dom("zeta") __entry {
  int fd = open(alias_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  long ok = fd >= 0 && ftruncate(fd, 4096) == 0 &&
            mmap(area, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 fd, 0) == area &&
            mmap(area + 4096, 4096, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, fd, 0) == area + 4096;
  if (fd >= 0)
    close(fd);
  unlink(alias_path);
  return ok;
}

long zeta_read(const volatile char *where) __dom("zeta") __entry;

long vault_keep(char *page) __dom("vault") __entry {
  strcpy(page, "vault-secret-42");
  return 0;
}

static char *zeta_area(int shared) {
  char *area = dom_mmap(dipc_domain_named("zeta"), NULL, 2 * 4096,
                        PROT_READ | PROT_WRITE,
                        (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS,
                        -1, 0);
  return (unsigned long)area > -4096ul ? NULL : area;
}

static int again(void) {
  char *area = zeta_area(1);
  if (!area)
    return 1;
  long duplicated = zeta_again(area, 0), grown = zeta_again(area, 1);
  printf("zeta's shared page grown: %s, duplicated: %s\n",
         grown > 0 ? "done" : "refused", duplicated > 0 ? "done" : "refused");
  return 0;
}

static int alias(void) {
  char *area = zeta_area(0);
  if (!area || zeta_alias(area) != 1) {
    printf("zeta's alias failed\n");
    return 1;
  }
  int moved = dom_remap(dipc_domain_named("vault"),
                        dipc_domain_named("zeta"), area, 4096);
  printf("main moves the first page to vault: %s\n",
         moved == 0 ? "done" : "refused");
  if (moved == 0)
    vault_keep(area);
  long loot = zeta_read(area + 4096);
  if (!dipc_errno && loot > 0)
    printf("zeta stole '%.7s'\n", (const char *)&loot);
  else
    printf("nothing stolen\n");
  return 0;
}

long zeta_write(char *where) __dom("zeta") __entry {
  memcpy(where, "PWNED", 6);
  return 1;
}

// The first seven bytes, packed: zeta's loot, which main may print.
long zeta_read(const volatile char *where) __dom("zeta") __entry {
  long v = 0;
  for (int i = 0; i < 7; i++)
    v |= (long)(unsigned char)where[i] << (8 * i);
  return v;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "unmap";
  if (!strcmp(mode, "again"))
    return again();
  if (!strcmp(mode, "alias"))
    return alias();
  char *work = dom_mmap(dipc_domain_named("zeta"), NULL, AREA,
                        PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
  if ((unsigned long)work > -4096ul) {
    printf("dom_mmap failed\n");
    return 1;
  }
  char *hole = work;
  size_t size = AREA;
  if (!strcmp(mode, "shrink")) {
    hole += AREA / 2, size /= 2;
    if (zeta_shrink(work) != 0) {
      printf("zeta's mremap failed\n");
      return 1;
    }
  } else if (zeta_unmap(work) != 0) {
    printf("zeta's munmap failed\n");
    return 1;
  }
  char *mine = mmap(hole, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("main's mapping at zeta's old address: %s\n",
         mine == hole ? "yes" : "no");
  fflush(stdout);
  if (mine != hole)
    return 1;
  zeta_write(mine);
  printf("zeta's write: %s\n", dipc_errno ? "refused" : "done");
  fflush(stdout);
  strcpy(mine, "main-secret-77");
  long loot = zeta_read(mine);
  if (dipc_errno)
    printf("zeta's read: refused\n");
  else
    printf("zeta's read: '%.7s'\n", (const char *)&loot);
  printf("main reads back '%s'\n", mine);
  return 0;
}

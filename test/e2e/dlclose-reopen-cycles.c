// A domain library opened, called and closed again and again: each dlopen
// sets it up as the first one did (pages given to its domain, entry
// registered, the program's import bound again), each call crosses into a
// fresh copy of its data (plugin_total starts at 0), and dlclose gives
// back what the runtime and the loader kept of it. Every other cycle the
// program holds the page where the library was, so that it is loaded at
// another address (a loader that kept the old object's entry refuses the
// new one as a redefinition). 100 cycles with a call
// each keep the mapping count and RSS flat; 700 cycles (a call every
// 100th) would fill the runtime's entry-set table (512) without that
// cleanup.
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t %t.so 100 1 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t %t.so 700 100 2>&1 | FileCheck %s --check-prefix=MANY
// CHECK: 100 cycles, 100 calls: every call returned 1 with errno 0
// CHECK: reopened at another address: every other cycle
// CHECK: mappings flat: yes
// CHECK: rss flat: yes
// MANY: 700 cycles, 7 calls: every call returned 1 with errno 0
#include <dipc.h>
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int plugin_add(int x) __dom("plugin") __entry;

static long count_mappings(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  long n = 0;
  for (int c; (c = fgetc(f)) != EOF;)
    n += c == '\n';
  fclose(f);
  return n;
}

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0)
      kb = atol(line + 6);
  fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  int cycles = atoi(argv[2]), every = atoi(argv[3]), calls = 0, bad = 0;
  int moved = 0;
  long maps_at_10 = 0, rss_at_10 = 0;
  void *block = MAP_FAILED;
  for (int i = 0; i < cycles; i++) {
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
      printf("cycle %d: dlopen: %s\n", i, dlerror());
      return 1;
    }
    struct link_map *map;
    dlinfo(lib, RTLD_DI_LINKMAP, &map);
    void *base = (void *)map->l_addr;
    if (block != MAP_FAILED) {
      moved += base != block;
      munmap(block, 4096);
      block = MAP_FAILED;
    }
    if (i % every == 0) {
      int r = plugin_add(1);
      calls++;
      if (r != 1 || dipc_errno != 0) {
        printf("cycle %d: plugin_add returned %d, errno %d\n", i, r,
               dipc_errno);
        bad++;
      }
    }
    if (dlclose(lib) != 0) {
      printf("cycle %d: dlclose: %s\n", i, dlerror());
      return 1;
    }
    if (i % 2)
      block = mmap(base, 4096, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (i == 11) { /* like the last cycle, which holds the page */
      maps_at_10 = count_mappings();
      rss_at_10 = rss_kb();
    }
  }
  long maps = count_mappings(), rss = rss_kb();
  printf("%d cycles, %d calls: %s\n", cycles, calls,
         bad ? "some calls failed" : "every call returned 1 with errno 0");
  printf("reopened at another address: %s\n",
         moved >= (cycles - 1) / 2 ? "every other cycle" : "not always");
  printf("mappings flat: %s (%ld after cycle 11, %ld at the end)\n",
         maps <= maps_at_10 ? "yes" : "no", maps_at_10, maps);
  /* Proxies requested after each reopen take a runtime page each. */
  printf("rss flat: %s (%ld kB after cycle 11, %ld kB at the end)\n",
         rss - rss_at_10 < 2048 ? "yes" : "no", rss_at_10, rss);
  return bad != 0;
}

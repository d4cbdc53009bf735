/* procmaps.c - the one reader of /proc/self/maps (procmaps.h). */
#define _GNU_SOURCE
#include "procmaps.h"

#include <dipc/rt.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* Reads one line into buf (the rest of a longer one is dropped); 0 at the
 * end. */
static int maps_line(FILE *f, char *buf, size_t size) {
  if (!fgets(buf, (int)size, f))
    return 0;
  if (!strchr(buf, '\n'))
    for (int c; (c = fgetc(f)) != EOF && c != '\n';)
      ;
  return 1;
}

int dipc_maps_each(int (*fn)(const struct dipc_mapping *m, void *ctx),
                   void *ctx) {
  FILE *f = fopen("/proc/self/maps", "re");
  if (!f)
    return -DIPC_ENOMEM;
  char line[512], perms[8];
  int r = 0;
  while (!r && maps_line(f, line, sizeof line)) {
    struct dipc_mapping m = {0};
    unsigned long lo, hi;
    int name = 0;
    if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu %n", &lo, &hi, perms,
               &m.major, &m.minor, &m.ino, &name) < 6)
      continue;
    char *path = name ? line + name : line + strlen(line);
    path[strcspn(path, "\n")] = '\0';
    m.lo = lo;
    m.hi = hi;
    m.prot = (perms[0] == 'r' ? PROT_READ : 0) |
             (perms[1] == 'w' ? PROT_WRITE : 0) |
             (perms[2] == 'x' ? PROT_EXEC : 0);
    m.path = path;
    r = fn(&m, ctx);
  }
  fclose(f);
  return r;
}

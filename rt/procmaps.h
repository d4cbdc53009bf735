/* procmaps.h - the one reader of /proc/self/maps (and smaps), for the runtime (maps.c,
 * thread.c) and the loader (loader/scan.c), which compiles procmaps.c in
 * too. Self-contained: no other part of the runtime. */
#ifndef DIPC_RT_PROCMAPS_H
#define DIPC_RT_PROCMAPS_H

#include <stdint.h>

/* One line of /proc/self/maps. */
struct dipc_mapping {
  uintptr_t lo, hi;
  int prot;   /* PROT_READ, PROT_WRITE, PROT_EXEC */
  int shared; /* MAP_SHARED (an 's' in the permissions) */
  unsigned major, minor;
  unsigned long ino;
  const char *path; /* "" for anonymous memory; only during the call */
};

/* fn(m, ctx) for each mapping, in address order, until fn returns
 * nonzero; returns that, 0 at the end, or -DIPC_ENOMEM (errno set) when
 * the file cannot be opened (e.g. in a child forked under mpk, whose
 * Landlock domain opened only the parent's /proc/PID). A line longer than
 * the reader's buffer keeps its start (the path is cut). No stdio. */
__attribute__((visibility("hidden"))) int
dipc_maps_each(int (*fn)(const struct dipc_mapping *m, void *ctx), void *ctx);

/* fn(line, ctx) for each line of the file at path (newline dropped, cut
 * at 511 bytes), until fn returns nonzero; returns that, 0 at the end, or
 * -DIPC_ENOMEM when the file cannot be opened. */
__attribute__((visibility("hidden"))) int
dipc_proc_lines(const char *path, int (*fn)(const char *line, void *ctx),
                void *ctx);

#endif

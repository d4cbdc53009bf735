/* maps.c - what the kernel has mapped: the one reader of /proc/self/maps
 * (the loader uses it too, loader/scan.c), and probes that work without
 * it. Calls nothing else of the runtime. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

int dipc_mapped(uintptr_t lo, uintptr_t hi) {
  if (hi <= lo || hi > RT_USER_TOP)
    return 0;
  /* msync fails with ENOMEM on any unmapped page; async-signal-safe. */
  uintptr_t a = dipc_page_down(lo);
  return msync((void *)a, dipc_page_up(hi) - a, MS_ASYNC) == 0;
}

/* Reads one line of /proc/self/maps into buf (the rest of a longer one is
 * dropped); 0 at the end. */
static int maps_line(FILE *f, char *buf, size_t size) {
  if (!fgets(buf, (int)size, f))
    return 0;
  if (!strchr(buf, '\n'))
    for (int c; (c = fgetc(f)) != EOF && c != '\n';)
      ;
  return 1;
}

int dipc_for_each_mapping(uintptr_t lo, uintptr_t hi,
                          int (*fn)(uintptr_t, uintptr_t, int, const char *,
                                    void *),
                          void *ctx) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return -DIPC_ENOMEM; /* e.g. in a child forked under mpk */
  char line[512], perms[8];
  uintptr_t at = lo;
  int err = 0;
  while (!err && at < hi && maps_line(f, line, sizeof line)) {
    unsigned long s, e;
    int name = 0;
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &s, &e, perms, &name) < 3 ||
        e <= at)
      continue;
    if (s > at)
      break;
    char *path = name ? line + name : line + strlen(line);
    path[strcspn(path, "\n")] = '\0';
    int prot = (perms[0] == 'r' ? PROT_READ : 0) |
               (perms[1] == 'w' ? PROT_WRITE : 0) |
               (perms[2] == 'x' ? PROT_EXEC : 0);
    uintptr_t end = e < hi ? e : hi;
    err = fn(at, end, prot, path, ctx);
    at = end;
  }
  fclose(f);
  return err ? err : at < hi ? -DIPC_ENOENT : 0;
}

static int and_prot(uintptr_t lo, uintptr_t hi, int prot, const char *path,
                    void *ctx) {
  (void)lo, (void)hi, (void)path;
  *(int *)ctx &= prot;
  return 0;
}

/* Without /proc/self/maps (a child forked under mpk: Landlock opened only
 * the parent's /proc/PID, loader/landlock.c): whether the kernel reads
 * [lo, hi) into a pipe and writes it back from there. Small ranges only
 * (a pipe holds 64 KiB); in trusted mode, where keys allow everything.
 * PROT_EXEC is not known: never reported. */
static int probe_prot(uintptr_t lo, uintptr_t hi) {
  if (hi - lo > 4096)
    return -1;
  int fds[2], prot = 0;
  if (pipe2(fds, O_CLOEXEC) != 0)
    return -1;
  size_t n = hi - lo;
  if (write(fds[1], (void *)lo, n) == (ssize_t)n) {
    prot = PROT_READ;
    if (read(fds[0], (void *)lo, n) == (ssize_t)n)
      prot |= PROT_WRITE;
  }
  close(fds[0]);
  close(fds[1]);
  return prot & PROT_READ ? prot : -1;
}

int dipc_mapping_prot(uintptr_t lo, uintptr_t hi) {
  int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
  int err = dipc_for_each_mapping(lo, hi, and_prot, &prot);
  if (err == -DIPC_ENOMEM && !dipc_mapped(lo, hi))
    return -1;
  return err == -DIPC_ENOMEM ? probe_prot(lo, hi) : err ? -1 : prot;
}

/* maps.c - what the kernel has mapped, for the runtime: ranges read from
 * /proc/self/maps (procmaps.c), and probes that work without it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "procmaps.h"

int dipc_mapped(uintptr_t lo, uintptr_t hi) {
  if (hi <= lo || hi > RT_USER_TOP)
    return 0;
  /* msync fails with ENOMEM on any unmapped page; async-signal-safe. */
  uintptr_t a = dipc_page_down(lo);
  return msync((void *)a, dipc_page_up(hi) - a, MS_ASYNC) == 0;
}

/* dipc_for_each_mapping's walk: the pieces of [at, hi), without a hole. */
struct walk {
  uintptr_t at, hi;
  int (*fn)(uintptr_t, uintptr_t, int, const char *, void *);
  void *ctx;
  int err; /* fn's */
};

static int walk_piece(const struct dipc_mapping *m, void *p) {
  struct walk *w = p;
  if (w->at >= w->hi)
    return 1;
  if (m->hi <= w->at)
    return 0;
  if (m->lo > w->at)
    return 1; /* a hole */
  uintptr_t end = m->hi < w->hi ? m->hi : w->hi;
  w->err = w->fn(w->at, end, m->prot, m->path, w->ctx);
  w->at = end;
  return w->err != 0;
}

int dipc_for_each_mapping(uintptr_t lo, uintptr_t hi,
                          int (*fn)(uintptr_t, uintptr_t, int, const char *,
                                    void *),
                          void *ctx) {
  struct walk w = {lo, hi, fn, ctx, 0};
  int r = dipc_maps_each(walk_piece, &w);
  if (r < 0)
    return r; /* no /proc/self/maps */
  return w.err ? w.err : w.at < hi ? -DIPC_ENOENT : 0;
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

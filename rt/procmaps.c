/* procmaps.c - the one reader of /proc/self/maps and smaps (procmaps.h).
 * Not stdio: a FILE is libc's, made in the heap of whoever calls, and
 * libc writes where its pointers say. An attack round's domain, which may
 * write the default domain's memory, took the FILE the loader opened here
 * for its own thread (libc's cache handed it a chunk just freed) and
 * rewrote it while the loader read: libc then read the file over vault's
 * secret, or flushed the secret into the domain's pipe. read(2) into this
 * frame's buffer leaves libc no pointer to follow. */
#define _GNU_SOURCE
#include "procmaps.h"

#include <dipc/rt.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct line_reader {
  int fd;
  size_t len, pos; /* bytes in buf, and read of them */
  char buf[4096];
};

/* The next byte, -1 at the end (or on an error). */
static int next_byte(struct line_reader *r) {
  if (r->pos == r->len) {
    ssize_t n;
    do
      n = read(r->fd, r->buf, sizeof r->buf);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
      return -1;
    r->len = (size_t)n;
    r->pos = 0;
  }
  return (unsigned char)r->buf[r->pos++];
}

/* Reads one line into line, NUL-terminated, its newline dropped (the rest
 * of a longer one too); 0 at the end. */
static int next_line(struct line_reader *r, char *line, size_t size) {
  size_t n = 0;
  int c;
  while ((c = next_byte(r)) != -1 && c != '\n')
    if (n + 1 < size)
      line[n++] = (char)c;
  line[n] = '\0';
  return c != -1 || n > 0;
}

int dipc_proc_lines(const char *path, int (*fn)(const char *line, void *ctx),
                    void *ctx) {
  struct line_reader r = {.fd = open(path, O_RDONLY | O_CLOEXEC)};
  if (r.fd < 0)
    return -DIPC_ENOMEM;
  char line[512];
  int ret = 0;
  while (!ret && next_line(&r, line, sizeof line))
    ret = fn(line, ctx);
  close(r.fd);
  return ret;
}

struct maps_walk {
  int (*fn)(const struct dipc_mapping *m, void *ctx);
  void *ctx;
};

static int maps_line(const char *line, void *p) {
  const struct maps_walk *w = p;
  struct dipc_mapping m = {0};
  unsigned long lo, hi;
  char perms[8];
  int name = 0;
  if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu %n", &lo, &hi, perms, &m.major,
             &m.minor, &m.ino, &name) < 6)
    return 0;
  m.lo = lo;
  m.hi = hi;
  m.prot = (perms[0] == 'r' ? PROT_READ : 0) |
           (perms[1] == 'w' ? PROT_WRITE : 0) |
           (perms[2] == 'x' ? PROT_EXEC : 0);
  m.shared = perms[3] == 's';
  m.path = name ? line + name : "";
  return w->fn(&m, w->ctx);
}

int dipc_maps_each(int (*fn)(const struct dipc_mapping *m, void *ctx),
                   void *ctx) {
  struct maps_walk w = {fn, ctx};
  return dipc_proc_lines("/proc/self/maps", maps_line, &w);
}

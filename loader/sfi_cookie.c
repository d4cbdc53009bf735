/* sfi_cookie.c - fopencookie under `sfi`: the stream's functions are the
 * domain's code, run through callback proxies (sfi_callback), so that they
 * cannot write libc's frames above them. A seek function must write,
 * though: libc passes it a pointer to the position in its own frame
 * (_IO_cookie_seek's argument). So libc gets a box of the loader's as the
 * cookie (runtime memory, which no domain writes) and the loader's
 * functions below, which call the proxies with the domain's cookie and
 * hand the seek function a copy of the position in the running domain's
 * heap (the loader's malloc), read back after it returns. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"
#include "stream_memory.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#define COOKIE_BOXES 256
#define STRING_OF(x) #x
#define DECIMAL(x) STRING_OF(x)

struct cookie_box {
  void *cookie;             /* the domain's */
  cookie_io_functions_t io; /* its functions' proxies */
  int live;
};

static struct cookie_box boxes[COOKIE_BOXES];
static pthread_mutex_t boxes_lock = PTHREAD_MUTEX_INITIALIZER;

/* The box a cookie libc hands back names: the FILE holding it is the
 * domain's memory, so anything else is refused. */
static struct cookie_box *box_of(void *p) {
  uintptr_t at = (uintptr_t)p, base = (uintptr_t)boxes;
  if (at < base || at >= base + sizeof boxes ||
      (at - base) % sizeof boxes[0] != 0)
    return NULL;
  struct cookie_box *b = p;
  return __atomic_load_n(&b->live, __ATOMIC_ACQUIRE) ? b : NULL;
}

/* The domain's functions run outside the stream window (fclose's closes
 * in it: stream_memory.h). */
static ssize_t box_read(void *p, char *buf, size_t n) {
  struct cookie_box *b = box_of(p);
  if (!b || !b->io.read)
    return -1;
  int s = stream_memory_suspend();
  ssize_t r = b->io.read(b->cookie, buf, n);
  stream_memory_resume(s);
  return r;
}

static ssize_t box_write(void *p, const char *buf, size_t n) {
  struct cookie_box *b = box_of(p);
  if (!b || !b->io.write)
    return 0;
  int s = stream_memory_suspend();
  ssize_t r = b->io.write(b->cookie, buf, n);
  stream_memory_resume(s);
  return r;
}

static int box_seek(void *p, off64_t *pos, int whence) {
  struct cookie_box *b = box_of(p);
  if (!b || !b->io.seek)
    return -1;
  int s = stream_memory_suspend();
  off64_t *copy = malloc(sizeof *copy);
  int r = -1;
  if (copy) {
    *copy = *pos;
    r = b->io.seek(b->cookie, copy, whence);
    *pos = *copy;
    free(copy);
  }
  stream_memory_resume(s);
  return r;
}

static int box_close(void *p) {
  struct cookie_box *b = box_of(p);
  if (!b)
    return -1;
  int s = stream_memory_suspend();
  int r = b->io.close ? b->io.close(b->cookie) : 0;
  stream_memory_resume(s);
  __atomic_store_n(&b->live, 0, __ATOMIC_RELEASE);
  return r;
}

static struct cookie_box *box_take(void) {
  pthread_mutex_lock(&boxes_lock);
  struct cookie_box *b = NULL;
  for (unsigned i = 0; i < COOKIE_BOXES && !b; i++)
    if (!boxes[i].live)
      b = &boxes[i];
  if (b)
    b->live = 1;
  pthread_mutex_unlock(&boxes_lock);
  return b;
}

SFI_EXPORT FILE *fopencookie(void *cookie, const char *mode,
                             cookie_io_functions_t io) {
  if (!SFI_CHECKED())
    return NEXT(fopencookie)(cookie, mode, io);
  SFI_CALLBACK_IF(io.read, 3);
  SFI_CALLBACK_IF(io.write, 3);
  SFI_CALLBACK_IF(io.seek, 3);
  SFI_CALLBACK_IF(io.close, 1);
  struct cookie_box *b = box_take();
  if (!b) {
    sfi_refuse("fopencookie beyond " DECIMAL(COOKIE_BOXES) " open streams");
    errno = ENOMEM;
    return NULL;
  }
  b->cookie = cookie;
  b->io = io;
  cookie_io_functions_t mine = {io.read ? box_read : NULL,
                                io.write ? box_write : NULL,
                                io.seek ? box_seek : NULL, box_close};
  int w = stream_memory_enter();
  FILE *f = NEXT(fopencookie)(b, mode, mine);
  stream_memory_leave(w);
  if (!f)
    __atomic_store_n(&b->live, 0, __ATOMIC_RELEASE);
  /* On no room, its fclose releases the box (box_close). */
  return sfi_stream_made(f, SFI_STREAM_COOKIE, w, NEXT(fclose));
}

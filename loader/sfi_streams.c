/* sfi_streams.c - the stream kinds instrumented code may hand stdio: a
 * FILE's vtable (the word after it, struct _IO_FILE_plus) must be one of
 * the byte streams' that libc gives the streams it makes for domains, and
 * the stream must not be wide (sfi_check_file). glibc only checks that a
 * vtable lies among its own; an attack round's FILE, forged in the
 * domain's memory with the wide file vtable and byte orientation, had
 * stdio read and write through a `_wide_data` no check looked at, and
 * one forged with open_memstream's (which domains cannot call) had
 * fflush store where its extra fields said: the rights matrix. The
 * vtables are learnt at start from streams of each kind libc opens
 * (`popen`'s from its first stream, sfi_stdio.c), not named: most are not
 * exported.
 *
 * A cookie stream (fopencookie's, fmemopen's) keeps its cookie and its
 * mangled functions after the FILE, in memory the domain writes: one
 * forged with libc's memmove as its write function ran it on the secret.
 * Such a stream must be one the interceptors saw libc make, with the same
 * cookie and functions; fmemopen's cookie names its buffer, which must be
 * the domain's to write. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <pthread.h>

#define MAX_VTABLES 16
#define MAX_COOKIE_STREAMS 256

static const void *vtables[MAX_VTABLES];
static unsigned num_vtables;
static const void *cookie_vtable;

/* struct _IO_cookie_file after its FILE and vtable: the cookie and the
 * four mangled functions. */
#define COOKIE_WORDS 5

struct cookie_stream {
  FILE *f;
  uintptr_t words[COOKIE_WORDS];
  int fmem; /* fmemopen's: the cookie names a buffer */
};

static struct cookie_stream cookie_streams[MAX_COOKIE_STREAMS];
static pthread_mutex_t cookie_lock = PTHREAD_MUTEX_INITIALIZER;

static const void *vtable_of(FILE *f) {
  return *(const void *const *)((const char *)f + sizeof *f);
}

static const uintptr_t *cookie_words(FILE *f) {
  return (const uintptr_t *)((const char *)f + sizeof *f + sizeof(void *));
}

static void learn(FILE *f) {
  if (!f)
    return;
  const void *vt = vtable_of(f);
  unsigned n = __atomic_load_n(&num_vtables, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i)
    if (vtables[i] == vt)
      return;
  if (n < MAX_VTABLES) {
    vtables[n] = vt;
    __atomic_store_n(&num_vtables, n + 1, __ATOMIC_RELEASE);
  }
}

static ssize_t no_read(void *c, char *buf, size_t n) {
  (void)c, (void)buf, (void)n;
  return 0;
}

void sfi_streams_init(void) {
  if (!sfi_code_on)
    return;
  learn(stdin);
  learn(stdout);
  learn(stderr);
  /* A file, read as such, and as libc maps a regular file ("m"). */
  FILE *f = fopen("/dev/null", "r");
  learn(f);
  if (f)
    fclose(f);
  FILE *m = fopen("/proc/self/exe", "rm");
  learn(m); /* maybe mapped, until the first read decides */
  if (m) {
    (void)fgetc(m);
    learn(m);
    fclose(m);
  }
  f = fopencookie(NULL, "r", (cookie_io_functions_t){.read = no_read});
  if (f) {
    cookie_vtable = vtable_of(f);
    fclose(f);
  }
}

void sfi_stream_learn(FILE *f) {
  learn(f);
}

void sfi_stream_made(FILE *f, int fmem) {
  if (!f)
    return;
  pthread_mutex_lock(&cookie_lock);
  for (unsigned i = 0; i < MAX_COOKIE_STREAMS; ++i)
    if (!cookie_streams[i].f) {
      struct cookie_stream *c = &cookie_streams[i];
      c->f = f;
      memcpy(c->words, cookie_words(f), sizeof c->words);
      c->fmem = fmem;
      break;
    }
  pthread_mutex_unlock(&cookie_lock);
}

void sfi_stream_closing(FILE *f) {
  pthread_mutex_lock(&cookie_lock);
  for (unsigned i = 0; i < MAX_COOKIE_STREAMS; ++i)
    if (cookie_streams[i].f == f)
      cookie_streams[i].f = NULL;
  pthread_mutex_unlock(&cookie_lock);
}

/* fmemopen's cookie (glibc 2.36's fmemopen_cookie_t): the buffer its
 * functions read and write, for `size` bytes. */
struct fmem_cookie {
  char *buffer;
  _Bool mybuffer, append;
  size_t size;
  int64_t pos;
  size_t maxpos;
};

/* Whether f is a cookie stream libc made for the interceptors, its cookie
 * and functions unchanged (and fmemopen's buffer the domain's). */
static int cookie_stream_known(FILE *f) {
  SFI_READ(cookie_words(f), COOKIE_WORDS * sizeof(uintptr_t));
  int known = 0, fmem = 0;
  pthread_mutex_lock(&cookie_lock);
  for (unsigned i = 0; i < MAX_COOKIE_STREAMS && !known; ++i)
    if (cookie_streams[i].f == f &&
        !memcmp(cookie_streams[i].words, cookie_words(f),
                sizeof cookie_streams[i].words)) {
      known = 1;
      fmem = cookie_streams[i].fmem;
    }
  pthread_mutex_unlock(&cookie_lock);
  if (known && fmem) {
    const struct fmem_cookie *c = (const void *)cookie_words(f)[0];
    SFI_WRITE(c, sizeof *c);
    SFI_WRITE(c->buffer, c->size);
  }
  return known;
}

int sfi_stream_known(FILE *f) {
  const void *vt = vtable_of(f);
  if (f->_mode > 0)
    return 0;
  if (vt && vt == cookie_vtable)
    return cookie_stream_known(f);
  unsigned n = __atomic_load_n(&num_vtables, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i)
    if (vtables[i] == vt)
      return 1;
  return 0;
}

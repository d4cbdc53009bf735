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
 * (`popen`'s from its first stream, sfi_stream_made), not named: most are not
 * exported.
 *
 * A cookie stream (fopencookie's, fmemopen's) keeps its cookie and its
 * mangled functions after the FILE, in memory the domain writes: one
 * forged with libc's memmove as its write function ran it on the secret.
 * Such a stream must be one the interceptors saw libc make, with the same
 * cookie and functions; fmemopen's cookie names its buffer, which must be
 * the domain's to write.
 *
 * Those rules hold for a FILE in domain memory only at the moment of the
 * check (a second thread of the domain rewrote its pipe stream's write
 * pointers between the check and libc's flush). So the streams
 * instrumented code opens are made in runtime memory (stream_memory.c)
 * and the domain holds a decoy, which the interceptors take for its
 * stream (sfi_stream_of); the rules above remain for the other FILEs a
 * domain may hand stdio (libc's stdout, streams uninstrumented code
 * opened), and for every stream where the window is not available. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"
#include "stream_memory.h"

#include <dipc/limits.h>
#include <errno.h>
#include <dipc/sfi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <pthread.h>

#define MAX_VTABLES 16
#define MAX_STREAMS_MADE 1024
#define STRING_OF(x) #x
#define DECIMAL(x) STRING_OF(x)

static const void *vtables[MAX_VTABLES];
static unsigned num_vtables;
static const void *cookie_vtable;

/* struct _IO_cookie_file after its FILE and vtable: the cookie and the
 * four mangled functions. */
#define COOKIE_WORDS 5

/* A stream libc made for instrumented code, the decoy the domain holds
 * for it (NULL: the domain holds f), and the domain it made it for. */
struct made {
  FILE *f;
  FILE *decoy;
  uint32_t dom;
  int kind;
  uintptr_t words[COOKIE_WORDS]; /* a cookie stream's, as made */
};

/* A decoy's mark, in bytes of the FILE libc leaves unused (_unused2): its
 * record's index, which counts only if the record names the decoy. */
struct decoy_mark {
  uint32_t index;
  uint32_t magic;
};
#define DECOY_MAGIC 0xdec0f11eu
_Static_assert(sizeof(((FILE *)0)->_unused2) >= sizeof(struct decoy_mark),
               "a decoy's mark fits _unused2");

static struct made made[MAX_STREAMS_MADE];
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;

static void streams_at_exit(void);

static const void *vtable_of(FILE *f) {
  return *(const void *const *)((const char *)f + sizeof *f);
}

static const uintptr_t *cookie_words(FILE *f) {
  return (const uintptr_t *)((const char *)f + sizeof *f + sizeof(void *));
}

static int learnt(const void *vt) {
  unsigned n = __atomic_load_n(&num_vtables, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i)
    if (vtables[i] == vt)
      return 1;
  return 0;
}

static void learn(FILE *f) {
  if (!f || learnt(vtable_of(f)))
    return;
  pthread_mutex_lock(&made_lock); /* two popen calls may learn at once */
  unsigned n = num_vtables;
  if (!learnt(vtable_of(f)) && n < MAX_VTABLES) {
    vtables[n] = vtable_of(f);
    __atomic_store_n(&num_vtables, n + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&made_lock);
}

static ssize_t no_read(void *c, char *buf, size_t n) {
  (void)c, (void)buf, (void)n;
  return 0;
}

void sfi_streams_init(void) {
  if (!sfi_code_on)
    return;
  stream_memory_init();
  atexit(streams_at_exit);
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

static uint32_t running_domain(void) {
  uint32_t dom;
  __asm__ volatile("movl %%gs:%c1, %0"
                   : "=r"(dom)
                   : "i"(DIPC_SFI_CUR_DOM_GS_OFFSET));
  return dom;
}

static void close_in_window(FILE *f, int (*close)(FILE *)) {
  int err = errno;
  int w = stream_memory_enter();
  close(f);
  stream_memory_leave(w);
  errno = err;
}

/* A decoy for the stream of record i: zero but for its mark, the
 * stream's flags and descriptor (read by code that peeks). */
static FILE *decoy_for(unsigned i, FILE *f) {
  FILE *d = calloc(1, sizeof *d + sizeof(void *)); /* and a NULL vtable */
  if (!d)
    return NULL;
  d->_flags = f->_flags;
  d->_fileno = f->_fileno;
  struct decoy_mark m = {.index = i, .magic = DECOY_MAGIC};
  memcpy(d->_unused2, &m, sizeof m);
  return d;
}

FILE *sfi_stream_made(FILE *f, int kind, int entered, int (*close)(FILE *)) {
  if (!f)
    return NULL;
  if (!entered && kind == SFI_STREAM_PLAIN)
    learn(f); /* popen's, which the loader could not open at start */
  /* fmemopen's cookie (the buffer's bounds and position) as well: with
   * the slots full it came from the domain's heap while the FILE took a
   * slot freed meanwhile, and a domain that set its buffer to vault's
   * secret read it (e2e/attack-sfi-fmemopen-cookie.c) */
  if (entered && (!stream_memory_holds(f) ||
                  (kind == SFI_STREAM_FMEM &&
                   !stream_memory_holds((const void *)cookie_words(f)[0])))) {
    close_in_window(f, close);
    sfi_refuse("a stream beyond the loader's memory for streams");
    errno = EMFILE;
    return NULL;
  }
  int recorded = 0;
  FILE *held = f;
  pthread_mutex_lock(&made_lock);
  for (unsigned i = 0; i < MAX_STREAMS_MADE && !recorded; ++i)
    if (!made[i].f) {
      FILE *decoy = entered ? decoy_for(i, f) : NULL;
      if (entered && !decoy)
        break;
      made[i] = (struct made){
          .f = f, .decoy = decoy, .dom = running_domain(), .kind = kind};
      if (kind != SFI_STREAM_PLAIN)
        memcpy(made[i].words, cookie_words(f), sizeof made[i].words);
      held = decoy ? decoy : f;
      recorded = 1;
    }
  pthread_mutex_unlock(&made_lock);
  if (recorded)
    return held;
  close_in_window(f, close);
  sfi_refuse("a stream beyond " DECIMAL(MAX_STREAMS_MADE)
             " open ones of instrumented code, or without memory for it");
  errno = EMFILE;
  return NULL;
}

/* f's mark (f readable as a FILE): a decoy's index, else -1. */
static int decoy_mark(const FILE *f) {
  struct decoy_mark m;
  memcpy(&m, f->_unused2, sizeof m);
  return m.magic == DECOY_MAGIC && m.index < MAX_STREAMS_MADE ? (int)m.index
                                                                : -1;
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

/* Whether the running domain may use a stream domain dom opened: its
 * own, or one of a domain whose memory its APL lets it write (as it could
 * write a FILE there). A decoy's memory says nothing: a domain that may
 * write the default domain's memory allocates from the C library's heap,
 * where another such domain found its stream's decoy. */
static int may_use(uint32_t dom) {
  uint32_t me = running_domain();
  const uint8_t *row =
      (const uint8_t *)DIPC_SFI_RIGHTS_ADDR + (size_t)me * DIPC_SFI_TAGS;
  return me == dom || (me < DIPC_MAX_DOMAINS && dom < DIPC_MAX_DOMAINS &&
                       (row[dom] & DIPC_SFI_WRITE));
}

FILE *sfi_stream_of(FILE *f, int checked) {
  if (checked)
    SFI_WRITE(f, sizeof *f);
  int i = f ? decoy_mark(f) : -1;
  struct made m = {0};
  if (i >= 0) { /* a mark counts only if its record names f */
    pthread_mutex_lock(&made_lock);
    m = made[i];
    pthread_mutex_unlock(&made_lock);
    if (m.decoy != f || (checked && !may_use(m.dom)))
      i = -1;
  }
  if (i < 0) {
    if (checked)
      sfi_check_file(f);
    return f;
  }
  if (checked) {
    sfi_check_file_spans(m.f);
    if (m.kind == SFI_STREAM_FMEM) {
      const struct fmem_cookie *c = (const void *)m.words[0];
      if (!stream_memory_holds(c->buffer)) /* not libc's own, made with it */
        SFI_WRITE(c->buffer, c->size);
    }
  }
  return m.f;
}

void sfi_stream_sync(FILE *held, FILE *real) {
  if (held != real)
    held->_flags = real->_flags;
}

int sfi_stream_close(FILE *f, int checked, int (*close)(FILE *)) {
  FILE *real = sfi_stream_of(f, checked);
  pthread_mutex_lock(&made_lock);
  for (unsigned i = 0; i < MAX_STREAMS_MADE; ++i)
    if (made[i].f == real)
      made[i].f = made[i].decoy = NULL;
  pthread_mutex_unlock(&made_lock);
  if (real == f)
    return close(f);
  int w = stream_memory_enter();
  int r = close(real);
  stream_memory_leave(w);
  free(f);
  return r;
}

/* Whether f is a cookie stream libc made for the interceptors, its cookie
 * and functions unchanged (and fmemopen's buffer the domain's). */
static int cookie_stream_known(FILE *f) {
  SFI_READ(cookie_words(f), COOKIE_WORDS * sizeof(uintptr_t));
  int kind = -1;
  pthread_mutex_lock(&made_lock);
  for (unsigned i = 0; i < MAX_STREAMS_MADE && kind < 0; ++i)
    if (made[i].f == f && made[i].kind != SFI_STREAM_PLAIN &&
        !memcmp(made[i].words, cookie_words(f), sizeof made[i].words))
      kind = made[i].kind;
  pthread_mutex_unlock(&made_lock);
  if (kind == SFI_STREAM_FMEM) {
    const struct fmem_cookie *c = (const void *)cookie_words(f)[0];
    SFI_WRITE(c, sizeof *c);
    SFI_WRITE(c->buffer, c->size);
  }
  return kind >= 0;
}

int sfi_stream_known(FILE *f) {
  const void *vt = vtable_of(f);
  if (f->_mode > 0)
    return 0;
  if (vt && vt == cookie_vtable)
    return cookie_stream_known(f);
  return learnt(vt);
}

/* libc's list of open streams (glibc exports it for libio's users). */
extern FILE *_IO_list_all;
void _IO_list_lock(void);
void _IO_list_unlock(void);

#define MAX_STREAMS 1024

void sfi_check_all_streams(void) {
  /* Taken under the list's lock, checked after it (a refused stream
   * faults, which must not leave the lock held). */
  FILE **all = sfi_scratch("fflush", MAX_STREAMS * sizeof *all);
  if (!all)
    return (void)SFI_WRITE(all, UINT64_MAX);
  size_t n = 0;
  int more = 0;
  _IO_list_lock();
  for (FILE *f = _IO_list_all; f && !more; f = f->_chain)
    if (n < MAX_STREAMS)
      all[n++] = f;
    else
      more = 1;
  _IO_list_unlock();
  if (more)
    SFI_WRITE(all, UINT64_MAX); /* more streams than it can check */
  for (size_t i = 0; i < n; ++i)
    if (!stream_memory_holds(all[i])) /* a decoy's: libc's state alone */
      sfi_check_file(all[i]);
  __dipc_sfi_scratch_give(all);
}

/* Whether domain dom may write [lo, hi) by the tags of its pages (the
 * fast path's rule, without faulting). */
static int domain_may_write(uint32_t dom, uintptr_t lo, uintptr_t hi) {
  if (hi <= lo)
    return 1;
  if (dom >= DIPC_MAX_DOMAINS || hi > (1ull << 47) || hi - lo > (1ull << 30))
    return 0;
  const uint16_t *shadow = (const uint16_t *)DIPC_SFI_SHADOW_ADDR;
  const uint8_t *row =
      (const uint8_t *)DIPC_SFI_RIGHTS_ADDR + (size_t)dom * DIPC_SFI_TAGS;
  for (uintptr_t page = lo >> DIPC_SFI_PAGE_SHIFT;
       page <= (hi - 1) >> DIPC_SFI_PAGE_SHIFT; ++page)
    if (!(row[shadow[page]] & DIPC_SFI_WRITE))
      return 0;
  return 1;
}

/* Whether f is still of the kind libc made it: a byte stream of a vtable
 * learnt at start or, a cookie stream, its cookie and functions as made. */
static int kind_intact(FILE *f, const struct made *m) {
  if (f->_mode > 0)
    return 0;
  if (m->kind != SFI_STREAM_PLAIN)
    return vtable_of(f) == cookie_vtable &&
           !memcmp(m->words, cookie_words(f), sizeof m->words);
  return learnt(vtable_of(f));
}

/* At exit libc flushes every open stream, from its own code: a stream a
 * domain made and then pointed outside its memory (an attack round's
 * stdout stream over vault's secret, flushed after main returned) loses
 * its pending output instead, with a warning. Registered before the
 * program's handlers, so it runs after them, right before libc flushes. */
static void streams_at_exit(void) {
  pthread_mutex_lock(&made_lock);
  for (unsigned i = 0; i < MAX_STREAMS_MADE; ++i) {
    FILE *f = made[i].f;
    if (!f || made[i].decoy) /* a decoy's: libc's state alone */
      continue;
    uint32_t dom = made[i].dom;
    uintptr_t lo[SFI_FILE_SPANS], hi[SFI_FILE_SPANS];
    sfi_file_spans(f, lo, hi);
    int ok = kind_intact(f, &made[i]);
    for (unsigned s = 0; s < SFI_FILE_SPANS && ok; ++s)
      ok = domain_may_write(dom, lo[s], hi[s]);
    if (ok && made[i].kind == SFI_STREAM_FMEM) {
      const struct fmem_cookie *c = (const void *)made[i].words[0];
      ok = domain_may_write(dom, (uintptr_t)c, (uintptr_t)(c + 1)) &&
           domain_may_write(dom, (uintptr_t)c->buffer,
                            (uintptr_t)c->buffer + c->size);
    }
    if (ok)
      continue;
    f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = NULL;
    f->_IO_read_base = f->_IO_read_ptr = f->_IO_read_end = NULL;
    f->_IO_buf_base = f->_IO_buf_end = NULL;
    f->_IO_save_base = f->_IO_backup_base = f->_IO_save_end = NULL;
    /* A byte stream with nothing to flush: not putting, not in backup,
     * unbuffered (libc sets no buffer at exit), of a vtable libc gave it
     * or a file's. */
    f->_flags = (f->_flags & ~(0x800 | 0x100)) | 0x2;
    f->_mode = -1;
    if (!kind_intact(f, &made[i]))
      *(const void **)((char *)f + sizeof *f) = vtables[0];
    fprintf(stderr,
            "dipc-loader: sfi: a stream of domain %u points outside its "
            "memory or is no longer the kind libc made: its pending output "
            "is not written at exit\n",
            dom);
  }
  pthread_mutex_unlock(&made_lock);
}


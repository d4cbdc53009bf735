/* sfi_streams.c - the stream kinds instrumented code may hand stdio: a
 * FILE's vtable (the word after it, struct _IO_FILE_plus) must be one of
 * the byte streams' that libc gives the streams it makes, and the stream
 * must not be wide (sfi_check_file). glibc only checks that a vtable lies
 * among its own; an attack round's FILE, forged in the domain's memory
 * with the wide file vtable (_IO_wfile_jumps) and byte orientation, had
 * stdio read and write through a `_wide_data` no check looked at. The
 * vtables are learnt at start from streams of each kind libc opens
 * (`popen`'s from its first stream, sfi_stdio.c), not named: most are not
 * exported. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#define MAX_VTABLES 16

static const void *vtables[MAX_VTABLES];
static unsigned num_vtables;

static const void *vtable_of(FILE *f) {
  return *(const void *const *)((const char *)f + sizeof *f);
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
  char buf[8] = "";
  f = fmemopen(buf, sizeof buf, "r");
  learn(f);
  if (f)
    fclose(f);
  char *mem = NULL;
  size_t size = 0;
  f = open_memstream(&mem, &size);
  learn(f);
  if (f)
    fclose(f);
  free(mem);
  f = fopencookie(NULL, "r", (cookie_io_functions_t){.read = no_read});
  learn(f);
  if (f)
    fclose(f);
}

void sfi_stream_learn(FILE *f) {
  learn(f);
}

int sfi_stream_known(FILE *f) {
  const void *vt = vtable_of(f);
  unsigned n = __atomic_load_n(&num_vtables, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i)
    if (vtables[i] == vt)
      return f->_mode <= 0;
  return 0;
}

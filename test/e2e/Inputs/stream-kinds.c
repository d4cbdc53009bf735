/* stream-kinds.c - for attack-sfi-forged-streams.c: the vtables of two
 * kinds of libc stream and libc's own memmove, found by a plain unit (no
 * dIPC), which may call what instrumented code may not (open_memstream)
 * and reaches libc past the loader's interceptors. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static const void *vtable_of(FILE *f) {
  return f ? *(const void *const *)((const char *)f + sizeof *f) : NULL;
}

const void *memstream_vtable(void) {
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  const void *vt = vtable_of(f);
  if (f)
    fclose(f);
  free(buf);
  return vt;
}

static ssize_t read_nothing(void *cookie, char *buf, size_t n) {
  (void)cookie, (void)buf, (void)n;
  return 0;
}

const void *cookie_vtable(void) {
  FILE *f = fopencookie(NULL, "r", (cookie_io_functions_t){.read = read_nothing});
  const void *vt = vtable_of(f);
  if (f)
    fclose(f);
  return vt;
}

void *libc_memmove(void) {
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  return libc ? dlsym(libc, "memmove") : NULL;
}

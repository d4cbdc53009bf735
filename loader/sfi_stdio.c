/* sfi_stdio.c - interceptors of stdio (sfi_intercept.h) but the printf
 * family (sfi_printf.c): the caller's buffers and strings, and the stream,
 * which libc writes (sfi_check_file). stdin and stdout, used implicitly,
 * are checked like a stream passed explicitly: libc writes them for the
 * caller all the same. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define STRING(s) sfi_read_string((s), SIZE_MAX)

/* The streams instrumented code opens are recorded (sfi_streams.c), or
 * closed again (close: fclose, or pclose for popen's). */
static FILE *made_or_closed(FILE *f, int checked, int (*close)(FILE *)) {
  if (!checked || sfi_stream_made(f, SFI_STREAM_PLAIN) == 0)
    return f;
  int err = errno;
  close(f);
  errno = err;
  return NULL;
}

static FILE *made(FILE *f, int checked) {
  return made_or_closed(f, checked, NEXT(fclose));
}

SFI_EXPORT int puts(const char *s) {
  if (SFI_CHECKED()) {
    STRING(s);
    sfi_check_file(stdout);
  }
  return NEXT(puts)(s);
}

SFI_EXPORT int fputs(const char *s, FILE *f) {
  if (SFI_CHECKED()) {
    STRING(s);
    sfi_check_file(f);
  }
  return NEXT(fputs)(s, f);
}

SFI_EXPORT int putchar(int c) {
  if (SFI_CHECKED())
    sfi_check_file(stdout);
  return NEXT(putchar)(c);
}

SFI_EXPORT int fputc(int c, FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(fputc)(c, f);
}

SFI_EXPORT int putc(int c, FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(putc)(c, f);
}

SFI_EXPORT int getchar(void) {
  if (SFI_CHECKED())
    sfi_check_file(stdin);
  return NEXT(getchar)();
}

SFI_EXPORT int fgetc(FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(fgetc)(f);
}

SFI_EXPORT int getc(FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(getc)(f);
}

SFI_EXPORT int ungetc(int c, FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(ungetc)(c, f);
}

SFI_EXPORT char *fgets(char *s, int n, FILE *f) {
  if (SFI_CHECKED()) {
    SFI_WRITE(s, n > 0 ? (size_t)n : 0);
    sfi_check_file(f);
  }
  return NEXT(fgets)(s, n, f);
}

SFI_EXPORT size_t fread(void *p, size_t size, size_t n, FILE *f) {
  if (SFI_CHECKED()) {
    SFI_WRITE(p, sfi_array_size(size, n));
    sfi_check_file(f);
  }
  return NEXT(fread)(p, size, n, f);
}

SFI_EXPORT size_t fwrite(const void *p, size_t size, size_t n, FILE *f) {
  if (SFI_CHECKED()) {
    SFI_READ(p, sfi_array_size(size, n));
    sfi_check_file(f);
  }
  return NEXT(fwrite)(p, size, n, f);
}

/* *line (a malloc'd buffer of *n bytes, or NULL) is written, and may be
 * replaced by realloc (the loader's, which lets only the block's domain
 * resize it). libc reads *line and *n again as it goes: it gets a copy of
 * both in the thread's scratch area, checked, and the caller gets what
 * libc left there (a second thread of the domain swapped a checked *line
 * for the secret's address while getline waited for its input). */
struct line_args {
  char *line;
  size_t n;
};

static struct line_args *checked_line(const char *call, char **line,
                                      size_t *n, FILE *f) {
  SFI_WRITE(line, sizeof *line);
  SFI_WRITE(n, sizeof *n);
  sfi_check_file(f);
  struct line_args *copy = sfi_scratch(call, sizeof *copy);
  if (!copy)
    return NULL;
  copy->line = *line;
  copy->n = *n;
  if (copy->line)
    SFI_WRITE(copy->line, copy->n);
  return copy;
}

static ssize_t line_done(struct line_args *copy, char **line, size_t *n,
                         ssize_t got) {
  *line = copy->line;
  *n = copy->n;
  sfi_copy_done(copy);
  return got;
}

SFI_EXPORT ssize_t getline(char **line, size_t *n, FILE *f) {
  if (!SFI_CHECKED())
    return NEXT(getline)(line, n, f);
  struct line_args *c = checked_line("getline", line, n, f);
  return c ? line_done(c, line, n, NEXT(getline)(&c->line, &c->n, f)) : -1;
}

SFI_EXPORT ssize_t getdelim(char **line, size_t *n, int delim, FILE *f) {
  if (!SFI_CHECKED())
    return NEXT(getdelim)(line, n, delim, f);
  struct line_args *c = checked_line("getdelim", line, n, f);
  return c ? line_done(c, line, n, NEXT(getdelim)(&c->line, &c->n, delim, f))
           : -1;
}

/* NULL flushes every stream, each checked (sfi_check_all_streams). */
SFI_EXPORT int fflush(FILE *f) {
  if (SFI_CHECKED()) {
    if (f)
      sfi_check_file(f);
    else
      sfi_check_all_streams();
  }
  return NEXT(fflush)(f);
}

/* exit flushes every stream too. */
SFI_EXPORT void exit(int status) {
  if (SFI_CHECKED())
    sfi_check_all_streams();
  NEXT(exit)(status);
}

SFI_EXPORT int fclose(FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  sfi_stream_closing(f);
  return NEXT(fclose)(f);
}

/* A stream's state and lock, which they read or write. */
#define STREAM_ONLY(type, name)                                                \
  SFI_EXPORT type name(FILE *f) {                                              \
    if (SFI_CHECKED())                                                         \
      sfi_check_file(f);                                                       \
    return NEXT(name)(f);                                                      \
  }
#define STREAM_VOID(name)                                                      \
  SFI_EXPORT void name(FILE *f) {                                              \
    if (SFI_CHECKED())                                                         \
      sfi_check_file(f);                                                       \
    NEXT(name)(f);                                                             \
  }
#define SEEK(type, name)                                                       \
  SFI_EXPORT int name(FILE *f, type at, int whence) {                          \
    if (SFI_CHECKED())                                                         \
      sfi_check_file(f);                                                       \
    return NEXT(name)(f, at, whence);                                          \
  }
SEEK(long, fseek)
SEEK(off_t, fseeko)
STREAM_ONLY(long, ftell)
STREAM_ONLY(off_t, ftello)
STREAM_VOID(rewind)
STREAM_VOID(clearerr)
STREAM_ONLY(int, feof)
STREAM_ONLY(int, ferror)
STREAM_ONLY(int, fileno)
STREAM_VOID(flockfile)
STREAM_VOID(funlockfile)
STREAM_ONLY(int, ftrylockfile)
STREAM_ONLY(int, pclose)

SFI_EXPORT FILE *popen(const char *command, const char *mode) {
  if (SFI_CHECKED()) {
    STRING(command);
    STRING(mode);
  }
  FILE *f = NEXT(popen)(command, mode);
  sfi_stream_learn(f); /* a kind the loader could not open at start */
  return made_or_closed(f, SFI_CHECKED(), NEXT(pclose));
}

SFI_EXPORT int system(const char *command) {
  if (SFI_CHECKED() && command)
    STRING(command);
  return NEXT(system)(command);
}

SFI_EXPORT int setvbuf(FILE *f, char *buf, int mode, size_t n) {
  if (SFI_CHECKED()) {
    sfi_check_file(f);
    if (buf)
      SFI_WRITE(buf, n);
  }
  return NEXT(setvbuf)(f, buf, mode, n);
}

SFI_EXPORT FILE *fopen(const char *path, const char *mode) {
  int checked = SFI_CHECKED();
  if (checked) {
    STRING(path);
    STRING(mode);
  }
  return made(NEXT(fopen)(path, mode), checked);
}

SFI_EXPORT FILE *fdopen(int fd, const char *mode) {
  int checked = SFI_CHECKED();
  if (checked)
    STRING(mode);
  return made(NEXT(fdopen)(fd, mode), checked);
}

SFI_EXPORT FILE *tmpfile(void) {
  return made(NEXT(tmpfile)(), SFI_CHECKED());
}

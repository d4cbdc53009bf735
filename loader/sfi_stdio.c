/* sfi_stdio.c - interceptors of stdio (sfi_intercept.h) but the printf
 * family (sfi_printf.c): the caller's buffers and strings, and the stream,
 * which libc writes (sfi_check_file). stdin and stdout, used implicitly,
 * are checked like a stream passed explicitly: libc writes them for the
 * caller all the same. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <stdio.h>
#include <stdlib.h>

#define STRING(s) sfi_read_string((s), SIZE_MAX)

SFI_EXPORT int puts(const char *s) {
  if (SFI_CHECKED()) {
    STRING(s);
    sfi_check_file(stdout);
  }
  return NEXT(puts)(s);
}

SFI_EXPORT int fputs(const char *s, FILE *f) {
  if (SFI_CHECKED())
    STRING(s);
  ON_STREAM(int, f, NEXT(fputs)(s, r));
}

SFI_EXPORT int putchar(int c) {
  if (SFI_CHECKED())
    sfi_check_file(stdout);
  return NEXT(putchar)(c);
}

SFI_EXPORT int fputc(int c, FILE *f) { ON_STREAM(int, f, NEXT(fputc)(c, r)); }

SFI_EXPORT int putc(int c, FILE *f) { ON_STREAM(int, f, NEXT(putc)(c, r)); }

/* putc_unlocked's slow path, inline in callers: every call for a decoy. */
SFI_EXPORT int __overflow(FILE *f, int c) {
  ON_STREAM(int, f, NEXT(__overflow)(r, c));
}

SFI_EXPORT int getchar(void) {
  if (SFI_CHECKED())
    sfi_check_file(stdin);
  return NEXT(getchar)();
}

SFI_EXPORT int fgetc(FILE *f) { ON_STREAM(int, f, NEXT(fgetc)(r)); }

SFI_EXPORT int getc(FILE *f) { ON_STREAM(int, f, NEXT(getc)(r)); }

SFI_EXPORT int ungetc(int c, FILE *f) {
  ON_STREAM(int, f, NEXT(ungetc)(c, r));
}

SFI_EXPORT char *fgets(char *s, int n, FILE *f) {
  if (SFI_CHECKED())
    SFI_WRITE(s, n > 0 ? (size_t)n : 0);
  ON_STREAM(char *, f, NEXT(fgets)(s, n, r));
}

SFI_EXPORT size_t fread(void *p, size_t size, size_t n, FILE *f) {
  if (SFI_CHECKED())
    SFI_WRITE(p, sfi_array_size(size, n));
  ON_STREAM(size_t, f, NEXT(fread)(p, size, n, r));
}

SFI_EXPORT size_t fwrite(const void *p, size_t size, size_t n, FILE *f) {
  if (SFI_CHECKED())
    SFI_READ(p, sfi_array_size(size, n));
  ON_STREAM(size_t, f, NEXT(fwrite)(p, size, n, r));
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
                                      size_t *n) {
  SFI_WRITE(line, sizeof *line);
  SFI_WRITE(n, sizeof *n);
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
    ON_STREAM(ssize_t, f, NEXT(getline)(line, n, r));
  struct line_args *c = checked_line("getline", line, n);
  if (!c)
    return -1;
  ON_STREAM(ssize_t, f,
            line_done(c, line, n, NEXT(getline)(&c->line, &c->n, r)));
}

SFI_EXPORT ssize_t getdelim(char **line, size_t *n, int delim, FILE *f) {
  if (!SFI_CHECKED())
    ON_STREAM(ssize_t, f, NEXT(getdelim)(line, n, delim, r));
  struct line_args *c = checked_line("getdelim", line, n);
  if (!c)
    return -1;
  ON_STREAM(ssize_t, f,
            line_done(c, line, n, NEXT(getdelim)(&c->line, &c->n, delim, r)));
}

/* NULL flushes every stream, each checked (sfi_check_all_streams). */
SFI_EXPORT int fflush(FILE *f) {
  if (!f) {
    if (SFI_CHECKED())
      sfi_check_all_streams();
    return NEXT(fflush)(f);
  }
  ON_STREAM(int, f, NEXT(fflush)(r));
}

/* exit flushes every stream too. */
SFI_EXPORT void exit(int status) {
  if (SFI_CHECKED())
    sfi_check_all_streams();
  NEXT(exit)(status);
}

SFI_EXPORT int fclose(FILE *f) {
  return sfi_stream_close(f, SFI_CHECKED(), NEXT(fclose));
}

SFI_EXPORT int pclose(FILE *f) {
  return sfi_stream_close(f, SFI_CHECKED(), NEXT(pclose));
}

/* A stream's state and lock, which they read or write. */
#define STREAM_ONLY(type, name)                                                \
  SFI_EXPORT type name(FILE *f) { ON_STREAM(type, f, NEXT(name)(r)); }
#define STREAM_VOID(name)                                                      \
  SFI_EXPORT void name(FILE *f) { ON_STREAM_VOID(f, NEXT(name)(r)); }
#define SEEK(type, name)                                                       \
  SFI_EXPORT int name(FILE *f, type at, int whence) {                          \
    ON_STREAM(int, f, NEXT(name)(r, at, whence));                              \
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

/* Another program runs outside the isolation: an attack round's domain
 * cleared LD_PRELOAD and had popen run gdb on the process, which read and
 * wrote vault's secret (e2e/attack-sfi-run-program.c). Refused to
 * instrumented code, as execve and posix_spawn are (and under `mpk` the
 * seccomp filter refuses execve to everyone). */
SFI_EXPORT FILE *popen(const char *command, const char *mode) {
  if (SFI_CHECKED())
    return (sfi_refuse("popen (another program)"), (FILE *)NULL);
  OPENED(SFI_STREAM_PLAIN, NEXT(popen)(command, mode), NEXT(pclose));
}

SFI_EXPORT int system(const char *command) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("system (another program)");
  return NEXT(system)(command);
}

SFI_EXPORT int setvbuf(FILE *f, char *buf, int mode, size_t n) {
  if (SFI_CHECKED() && buf)
    SFI_WRITE(buf, n);
  ON_STREAM(int, f, NEXT(setvbuf)(r, buf, mode, n));
}

SFI_EXPORT FILE *fopen(const char *path, const char *mode) {
  if (SFI_CHECKED()) {
    STRING(path);
    STRING(mode);
  }
  OPENED(SFI_STREAM_PLAIN, NEXT(fopen)(path, mode), NEXT(fclose));
}

SFI_EXPORT FILE *fdopen(int fd, const char *mode) {
  if (SFI_CHECKED())
    STRING(mode);
  OPENED(SFI_STREAM_PLAIN, NEXT(fdopen)(fd, mode), NEXT(fclose));
}

SFI_EXPORT FILE *tmpfile(void) {
  OPENED(SFI_STREAM_PLAIN, NEXT(tmpfile)(), NEXT(fclose));
}

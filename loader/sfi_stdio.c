/* sfi_stdio.c - interceptors of stdio (sfi_intercept.h) but the printf
 * family (sfi_printf.c): the caller's buffers and strings, and the stream,
 * which libc writes (sfi_check_file). stdin and stdout, used implicitly,
 * are checked like a stream passed explicitly: libc writes them for the
 * caller all the same. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <stdio.h>

#define STRING(s) sfi_read_string((s), SIZE_MAX)

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
 * resize it). */
static void check_line(char **line, size_t *n, FILE *f) {
  SFI_WRITE(line, sizeof *line);
  SFI_WRITE(n, sizeof *n);
  if (*line)
    SFI_WRITE(*line, *n);
  sfi_check_file(f);
}

SFI_EXPORT ssize_t getline(char **line, size_t *n, FILE *f) {
  if (SFI_CHECKED())
    check_line(line, n, f);
  return NEXT(getline)(line, n, f);
}

SFI_EXPORT ssize_t getdelim(char **line, size_t *n, int delim, FILE *f) {
  if (SFI_CHECKED())
    check_line(line, n, f);
  return NEXT(getdelim)(line, n, delim, f);
}

/* NULL flushes every stream: libc's list, libc's business. */
SFI_EXPORT int fflush(FILE *f) {
  if (SFI_CHECKED() && f)
    sfi_check_file(f);
  return NEXT(fflush)(f);
}

SFI_EXPORT int fclose(FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(fclose)(f);
}

SFI_EXPORT int fseek(FILE *f, long at, int whence) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(fseek)(f, at, whence);
}

SFI_EXPORT long ftell(FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  return NEXT(ftell)(f);
}

SFI_EXPORT void rewind(FILE *f) {
  if (SFI_CHECKED())
    sfi_check_file(f);
  NEXT(rewind)(f);
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
  if (SFI_CHECKED()) {
    STRING(path);
    STRING(mode);
  }
  return NEXT(fopen)(path, mode);
}

SFI_EXPORT FILE *fdopen(int fd, const char *mode) {
  if (SFI_CHECKED())
    STRING(mode);
  return NEXT(fdopen)(fd, mode);
}

/* sfi_fortify.c - interceptors of the _FORTIFY_SOURCE variants
 * (__memcpy_chk, __snprintf_chk, ...) that a program compiled with it
 * calls instead of the plain functions: the same checks as those
 * (sfi_mem.c, sfi_str.c, sfi_io.c, sfi_stdio.c, sfi_printf.c), then
 * libc's variant, which adds its own object-size check. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STRING(s) sfi_read_string((s), SIZE_MAX)

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t room);
void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t room);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t room);
void *__memset_chk(void *dst, int c, size_t n, size_t room);
char *__strcpy_chk(char *dst, const char *src, size_t room);
char *__stpcpy_chk(char *dst, const char *src, size_t room);
char *__strncpy_chk(char *dst, const char *src, size_t n, size_t room);
char *__strcat_chk(char *dst, const char *src, size_t room);
char *__strncat_chk(char *dst, const char *src, size_t n, size_t room);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t room);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t at, size_t room);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t at, size_t room);
char *__fgets_chk(char *s, size_t room, int n, FILE *f);
size_t __fread_chk(void *p, size_t room, size_t size, size_t n, FILE *f);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int __vsprintf_chk(char *buf, int flag, size_t room, const char *fmt,
                   va_list ap);
int __vsnprintf_chk(char *buf, size_t n, int flag, size_t room,
                    const char *fmt, va_list ap);
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap);

SFI_EXPORT void *__memcpy_chk(void *dst, const void *src, size_t n,
                              size_t room) {
  if (SFI_CHECKED()) {
    SFI_WRITE(dst, n);
    SFI_READ(src, n);
  }
  return NEXT(__memcpy_chk)(dst, src, n, room);
}

SFI_EXPORT void *__mempcpy_chk(void *dst, const void *src, size_t n,
                               size_t room) {
  if (SFI_CHECKED()) {
    SFI_WRITE(dst, n);
    SFI_READ(src, n);
  }
  return NEXT(__mempcpy_chk)(dst, src, n, room);
}

SFI_EXPORT void *__memmove_chk(void *dst, const void *src, size_t n,
                               size_t room) {
  if (SFI_CHECKED()) {
    SFI_WRITE(dst, n);
    SFI_READ(src, n);
  }
  return NEXT(__memmove_chk)(dst, src, n, room);
}

SFI_EXPORT void *__memset_chk(void *dst, int c, size_t n, size_t room) {
  if (SFI_CHECKED())
    SFI_WRITE(dst, n);
  return NEXT(__memset_chk)(dst, c, n, room);
}

/* The string functions' checked paths copy the length they checked
 * (another thread may remove the NUL meanwhile, sfi_str.c), through
 * __memcpy_chk, which stops the program as glibc's __str*_chk would when
 * it does not fit room. */
static char *copy_string_chk(char *dst, const char *src, size_t len,
                             size_t room) {
  SFI_WRITE(dst, len + 1);
  NEXT(__memcpy_chk)(dst, src, len + 1, room);
  dst[len] = '\0';
  return dst + len;
}

static size_t room_after(size_t room, size_t at) {
  return room > at ? room - at : 0;
}

SFI_EXPORT char *__strcpy_chk(char *dst, const char *src, size_t room) {
  if (SFI_CHECKED()) {
    copy_string_chk(dst, src, STRING(src), room);
    return dst;
  }
  return NEXT(__strcpy_chk)(dst, src, room);
}

SFI_EXPORT char *__stpcpy_chk(char *dst, const char *src, size_t room) {
  if (SFI_CHECKED())
    return copy_string_chk(dst, src, STRING(src), room);
  return NEXT(__stpcpy_chk)(dst, src, room);
}

SFI_EXPORT char *__strncpy_chk(char *dst, const char *src, size_t n,
                               size_t room) {
  if (SFI_CHECKED() && n <= room) { /* else glibc stops the program */
    sfi_copy_padded(dst, src, n);
    return dst;
  }
  return NEXT(__strncpy_chk)(dst, src, n, room);
}

SFI_EXPORT char *__strcat_chk(char *dst, const char *src, size_t room) {
  if (SFI_CHECKED()) {
    size_t at = STRING(dst);
    copy_string_chk(dst + at, src, STRING(src), room_after(room, at));
    return dst;
  }
  return NEXT(__strcat_chk)(dst, src, room);
}

SFI_EXPORT char *__strncat_chk(char *dst, const char *src, size_t n,
                               size_t room) {
  if (SFI_CHECKED()) {
    size_t at = STRING(dst);
    copy_string_chk(dst + at, src, sfi_read_string(src, n),
                    room_after(room, at));
    return dst;
  }
  return NEXT(__strncat_chk)(dst, src, n, room);
}

SFI_EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t room) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(__read_chk)(fd, buf, n, room);
}

SFI_EXPORT ssize_t __pread_chk(int fd, void *buf, size_t n, off_t at,
                               size_t room) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(__pread_chk)(fd, buf, n, at, room);
}

SFI_EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t at,
                                 size_t room) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(__pread64_chk)(fd, buf, n, at, room);
}

SFI_EXPORT char *__fgets_chk(char *s, size_t room, int n, FILE *f) {
  if (SFI_CHECKED())
    SFI_WRITE(s, n > 0 ? (size_t)n : 0);
  ON_STREAM(char *, f, NEXT(__fgets_chk)(s, room, n, r));
}

SFI_EXPORT size_t __fread_chk(void *p, size_t room, size_t size, size_t n,
                              FILE *f) {
  if (SFI_CHECKED())
    SFI_WRITE(p, sfi_array_size(size, n));
  ON_STREAM(size_t, f, NEXT(__fread_chk)(p, room, size, n, r));
}

/* The printf family's fortified forms, as sfi_printf.c's: checked on
 * copies of the format and arguments; sprintf's bounded by the size
 * checked. */
/* __vfprintf_chk on the stream r libc is to use for f (sfi_stream_of). */
static int stream_vfprintf_chk(FILE *f, FILE *r, int flag, const char *fmt,
                               sfi_va ap) {
  int v = NEXT(__vfprintf_chk)(r, flag, fmt, ap);
  sfi_stream_sync(f, r);
  return v;
}

static int checked_vfprintf_chk(const char *call, FILE *f, int flag,
                                const char *fmt, sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FILE *r;
  FORMAT_CALL(call, c, r = sfi_stream_of(f, 1),
              stream_vfprintf_chk(
                  f, r, sfi_fortify_flag(call, &c, fmt, flag), c.fmt, c.ap));
}

SFI_EXPORT int __vprintf_chk(int flag, const char *fmt, va_list ap) {
  return SFI_CHECKED()
             ? checked_vfprintf_chk("__vprintf_chk", stdout, flag, fmt, ap)
             : NEXT(__vprintf_chk)(flag, fmt, ap);
}

SFI_EXPORT int __printf_chk(int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED()
              ? checked_vfprintf_chk("__printf_chk", stdout, flag, fmt, ap)
              : NEXT(__vprintf_chk)(flag, fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int __vfprintf_chk(FILE *f, int flag, const char *fmt,
                              va_list ap) {
  return SFI_CHECKED()
             ? checked_vfprintf_chk("__vfprintf_chk", f, flag, fmt, ap)
             : stream_vfprintf_chk(f, sfi_stream_of(f, 0), flag, fmt, ap);
}

SFI_EXPORT int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED()
              ? checked_vfprintf_chk("__fprintf_chk", f, flag, fmt, ap)
              : stream_vfprintf_chk(f, sfi_stream_of(f, 0), flag, fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vdprintf_chk(const char *call, int fd, int flag,
                                const char *fmt, sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FORMAT_CALL(call, c, (void)0,
              NEXT(__vdprintf_chk)(fd, sfi_fortify_flag(call, &c, fmt, flag), c.fmt, c.ap));
}

SFI_EXPORT int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap) {
  return SFI_CHECKED()
             ? checked_vdprintf_chk("__vdprintf_chk", fd, flag, fmt, ap)
             : NEXT(__vdprintf_chk)(fd, flag, fmt, ap);
}

SFI_EXPORT int __dprintf_chk(int fd, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED()
              ? checked_vdprintf_chk("__dprintf_chk", fd, flag, fmt, ap)
              : NEXT(__vdprintf_chk)(fd, flag, fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vsnprintf_chk(const char *call, char *buf, size_t n,
                                 int flag, size_t room, const char *fmt,
                                 sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FORMAT_CALL(call, c, SFI_WRITE(buf, n),
              NEXT(__vsnprintf_chk)(buf, n, sfi_fortify_flag(call, &c, fmt, flag), room, c.fmt, c.ap));
}

static int checked_vsprintf_chk(const char *call, char *buf, int flag,
                                size_t room, const char *fmt, sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  size_t size = 0;
  FORMAT_CALL(call, c, (size = sfi_output_size(&c), SFI_WRITE(buf, size)),
              NEXT(__vsnprintf_chk)(buf, size, sfi_fortify_flag(call, &c, fmt, flag), room, c.fmt, c.ap));
}

SFI_EXPORT int __vsprintf_chk(char *buf, int flag, size_t room,
                              const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vsprintf_chk("__vsprintf_chk", buf, flag,
                                              room, fmt, ap)
                       : NEXT(__vsprintf_chk)(buf, flag, room, fmt, ap);
}

SFI_EXPORT int __sprintf_chk(char *buf, int flag, size_t room,
                             const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vsprintf_chk("__sprintf_chk", buf, flag,
                                               room, fmt, ap)
                        : NEXT(__vsprintf_chk)(buf, flag, room, fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int __vsnprintf_chk(char *buf, size_t n, int flag, size_t room,
                               const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vsnprintf_chk("__vsnprintf_chk", buf, n,
                                               flag, room, fmt, ap)
                       : NEXT(__vsnprintf_chk)(buf, n, flag, room, fmt, ap);
}

SFI_EXPORT int __snprintf_chk(char *buf, size_t n, int flag, size_t room,
                              const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vsnprintf_chk("__snprintf_chk", buf, n,
                                                flag, room, fmt, ap)
                        : NEXT(__vsnprintf_chk)(buf, n, flag, room, fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vasprintf_chk(const char *call, char **out, int flag,
                                 const char *fmt, sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FORMAT_CALL(call, c, SFI_WRITE(out, sizeof *out),
              NEXT(__vasprintf_chk)(out, sfi_fortify_flag(call, &c, fmt, flag), c.fmt, c.ap));
}

SFI_EXPORT int __vasprintf_chk(char **out, int flag, const char *fmt,
                               va_list ap) {
  return SFI_CHECKED()
             ? checked_vasprintf_chk("__vasprintf_chk", out, flag, fmt, ap)
             : NEXT(__vasprintf_chk)(out, flag, fmt, ap);
}

SFI_EXPORT int __asprintf_chk(char **out, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED()
              ? checked_vasprintf_chk("__asprintf_chk", out, flag, fmt, ap)
              : NEXT(__vasprintf_chk)(out, flag, fmt, ap);
  va_end(ap);
  return r;
}

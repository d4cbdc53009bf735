/* sfi_check.c - the range checks the libc interceptors share
 * (sfi_intercept.h). */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <errno.h>
#include <limits.h>
#include <printf.h>
#include <string.h>

uint64_t sfi_array_size(size_t n, size_t size) {
  size_t bytes;
  return __builtin_mul_overflow(n, size, &bytes) ? UINT64_MAX : bytes;
}

void *sfi_scratch(const char *call, size_t n) {
  void *room = __dipc_sfi_scratch_take(n);
  if (!room) {
    fprintf(stderr,
            "dipc: sfi: %s: no room for %zu bytes of its arguments in the "
            "thread's scratch area\n",
            call, n);
    errno = ENOMEM;
  }
  return room;
}

void *sfi_copy_in(const char *call, const void *p, size_t n) {
  SFI_READ(p, n);
  void *copy = sfi_scratch(call, n);
  return copy ? memcpy(copy, p, n) : NULL;
}

socklen_t *sfi_length_in(const char *call, socklen_t *len, const void *buf) {
  socklen_t *copy = sfi_copy_in(call, len, sizeof *len);
  if (copy) {
    SFI_WRITE(len, sizeof *len);
    if (buf)
      SFI_WRITE(buf, *copy);
  }
  return copy;
}

void sfi_length_out(socklen_t *len, socklen_t *copy) {
  *len = *copy;
  sfi_copy_done(copy);
}

char *sfi_string_in(const char *call, const char *s, size_t max,
                    size_t *len) {
  *len = sfi_read_string(s, max); /* checks what it reads */
  char *copy = sfi_scratch(call, *len + 1 > *len ? *len + 1 : *len);
  if (copy) { /* not s[*len]: a NUL when read, maybe not now */
    memcpy(copy, s, *len);
    copy[*len] = '\0';
  }
  return copy;
}

/* x86-64's va_list element: what va_arg reads next. */
struct va_tag {
  unsigned gp_offset, fp_offset;
  char *overflow;
  char *save;
};
_Static_assert(sizeof(struct va_tag) == sizeof(va_list), "x86-64 va_list");
enum { SAVE_GP_END = 48, SAVE_END = 176 };

/* Where va_arg finds an argument of this printf type, as it would (no
 * read of it): gp, fp and over move past it; 0, or -1 for a type it
 * cannot place. An offset past the save area, however large, sends it to
 * the stack (a forged 0xfffffff8 that wrapped an addition here left
 * glibc the caller's stack pointer: the secret's address). */
static int va_step(int type, unsigned *gp, unsigned *fp, uintptr_t *over) {
  int base = type & ~PA_FLAG_MASK;
  if ((base == PA_DOUBLE || base == PA_FLOAT) && (type & PA_FLAG_LONG_DOUBLE))
    *over = ((*over + 15) & ~(uintptr_t)15) + 16;
  else if ((base == PA_DOUBLE || base == PA_FLOAT) &&
           *fp <= SAVE_END - 16) /* va_arg's own (unsigned) test */
    *fp += 16;
  else if (base <= PA_POINTER && *gp <= SAVE_GP_END - 8)
    *gp += 8;
  else if (base <= PA_POINTER || base == PA_DOUBLE || base == PA_FLOAT)
    *over += 8;
  else
    return -1;
  return 0;
}

sfi_va sfi_va_in(const char *call, sfi_va ap, const int *types, size_t n) {
  struct va_tag *tag = sfi_scratch(call, sizeof *tag + SAVE_END);
  if (!tag)
    return NULL;
  memcpy(tag, ap, sizeof *tag); /* the caller's, read once */
  unsigned gp = tag->gp_offset, fp = tag->fp_offset;
  uintptr_t over = (uintptr_t)tag->overflow, over_lo = over;
  for (size_t i = 0; i < n; ++i)
    if (va_step(types[i], &gp, &fp, &over) != 0) {
      fprintf(stderr, "dipc: sfi: %s: an argument of a registered printf "
              "type cannot be checked\n", call);
      sfi_copy_done(tag);
      errno = EINVAL;
      return NULL;
    }
  char *save = (char *)(tag + 1);
  if (gp > tag->gp_offset) {
    SFI_READ(tag->save + tag->gp_offset, gp - tag->gp_offset);
    memcpy(save + tag->gp_offset, tag->save + tag->gp_offset,
           gp - tag->gp_offset);
  }
  if (fp > tag->fp_offset) {
    SFI_READ(tag->save + tag->fp_offset, fp - tag->fp_offset);
    memcpy(save + tag->fp_offset, tag->save + tag->fp_offset,
           fp - tag->fp_offset);
  }
  tag->save = save;
  if (over > over_lo) {
    /* Placed at the same offset in 16 bytes, for va_arg's alignment. */
    char *stack = sfi_copy_in(call, (void *)(over_lo & ~(uintptr_t)15),
                              over - (over_lo & ~(uintptr_t)15));
    if (!stack) {
      sfi_copy_done(tag);
      return NULL;
    }
    tag->overflow = stack + (over_lo & 15);
  }
  return (sfi_va)tag;
}

uintptr_t *sfi_va_slot(sfi_va ap, const int *types, size_t i) {
  const struct va_tag *tag = (const struct va_tag *)ap;
  unsigned gp = tag->gp_offset, fp = tag->fp_offset;
  uintptr_t over = (uintptr_t)tag->overflow;
  for (size_t k = 0; k < i; ++k)
    (void)va_step(types[k], &gp, &fp, &over); /* placed by sfi_va_in */
  return gp <= SAVE_GP_END - 8 ? (uintptr_t *)(tag->save + gp)
                               : (uintptr_t *)over;
}

void sfi_copy_done(void *copy) {
  int saved = errno;
  __dipc_sfi_scratch_give(copy);
  errno = saved;
}

size_t sfi_read_string(const char *s, size_t max) {
  if (max == 0)
    return 0;
  SFI_READ(s, 1); /* a string elsewhere is refused before it is scanned */
  size_t len = strnlen(s, max);
  SFI_READ(s, len < max ? len + 1 : max);
  return len;
}

/* One group's span: from its lowest to its highest non-NULL pointer. */
static void span_of(char *const *p, unsigned n, uintptr_t *lo, uintptr_t *hi) {
  *lo = UINTPTR_MAX;
  *hi = 0;
  for (unsigned i = 0; i < n; ++i)
    if (p[i]) {
      *lo = (uintptr_t)p[i] < *lo ? (uintptr_t)p[i] : *lo;
      *hi = (uintptr_t)p[i] > *hi ? (uintptr_t)p[i] : *hi;
    }
  if (*hi <= *lo)
    *lo = *hi = 0;
}

void sfi_file_spans(const FILE *f, uintptr_t lo[SFI_FILE_SPANS],
                    uintptr_t hi[SFI_FILE_SPANS]) {
  char *const buf[] = {f->_IO_buf_base, f->_IO_buf_end};
  char *const rd[] = {f->_IO_read_base, f->_IO_read_ptr, f->_IO_read_end};
  char *const wr[] = {f->_IO_write_base, f->_IO_write_ptr, f->_IO_write_end};
  char *const save[] = {f->_IO_save_base, f->_IO_backup_base, f->_IO_save_end};
  span_of(buf, 2, &lo[0], &hi[0]);
  span_of(rd, 3, &lo[1], &hi[1]);
  span_of(wr, 3, &lo[2], &hi[2]);
  span_of(save, 3, &lo[3], &hi[3]);
}

void sfi_check_file_spans(const FILE *f) {
  uintptr_t lo[SFI_FILE_SPANS], hi[SFI_FILE_SPANS];
  sfi_file_spans(f, lo, hi);
  for (unsigned i = 0; i < SFI_FILE_SPANS; ++i)
    if (hi[i] > lo[i])
      SFI_WRITE(lo[i], hi[i] - lo[i]);
}

void sfi_check_file(FILE *f) {
  SFI_WRITE(f, sizeof *f);
  SFI_READ((const char *)f + sizeof *f, sizeof(void *)); /* its vtable */
  /* A wide stream, or a vtable libc gives no byte stream: refused outright
   * (a range past the user half), as for markers below. */
  if (!sfi_stream_known(f))
    SFI_WRITE(f, UINT64_MAX);
  sfi_check_file_spans(f);
  if (f->_lock)
    SFI_WRITE(f->_lock, 16); /* glibc's _IO_lock_t: lock, count, owner */
  /* Markers (libio's old _IO_seekmark) hold positions libc adjusts in
   * place: a forged chain had it subtract from any int (the rights row).
   * No stream a program opens has one: refused outright. */
  if (f->_markers)
    SFI_WRITE(f->_markers, UINT64_MAX);
}

size_t sfi_format_digits(const char **p) {
  size_t v = 0;
  while (**p >= '0' && **p <= '9') {
    v = v * 10 + (size_t)(*(*p)++ - '0');
    if (v > INT_MAX) { /* glibc's read_int gives up (-1) past INT_MAX */
      while (**p >= '0' && **p <= '9')
        ++*p;
      return SIZE_MAX;
    }
  }
  return v;
}

size_t sfi_format_position(const char **p) {
  const char *q = *p;
  size_t v = sfi_format_digits(&q);
  if (v && *q == '$') {
    *p = q + 1;
    return v;
  }
  return 0;
}

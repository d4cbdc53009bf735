/* sfi_intercept.h - the loader's libc interceptors under the `sfi` backend
 * (docs/runtime.md, "sfi: libc interceptors"). Uninstrumented code (libc)
 * runs on behalf of its caller with no checks of its own; an interceptor
 * stands in front of each libc function that reads or writes memory its
 * caller names and, when the caller is instrumented code (sfi_code.h),
 * checks every such range against the running domain's rights before the
 * real function runs. A refused range faults in __dipc_sfi_check and is
 * recovered from like any sfi fault: nothing of the real function runs.
 * Under other backends, or called from anything else, an interceptor only
 * tail-calls the real function. */
#ifndef DIPC_LOADER_SFI_INTERCEPT_H
#define DIPC_LOADER_SFI_INTERCEPT_H

#include "sfi_code.h"
#include "sfi_real.h"

#include <dipc/sfi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#define SFI_EXPORT __attribute__((visibility("default")))

/* libdipc's slow path (dipc/sfi.h DIPC_SFI_CHECK_FN): returns if the
 * running domain may access the range, else faults. */
void __dipc_sfi_check(uintptr_t addr, uint64_t size, uint32_t write);

/* Whether this interceptor's caller must be checked: call first, at the
 * interceptor's top level (it reads the interceptor's return address). */
#define SFI_CHECKED() sfi_code_checks(__builtin_return_address(0))

/* The domain the thread runs as (runtime memory under `sfi`). */
static inline uint32_t sfi_running_domain(void) {
  uint32_t dom;
  __asm__ volatile("movl %%gs:%c1, %0"
                   : "=r"(dom)
                   : "i"(DIPC_SFI_CUR_DOM_GS_OFFSET));
  return dom;
}

/* The check compiled-in code makes (dipc/sfi.h): a range within one page
 * of the user half, outside the shadow, by its tag and the running
 * domain's row, inline; any other, or one the row refuses, by the slow
 * path. */
static inline void sfi_check(uintptr_t addr, uint64_t size, uint32_t write) {
  if (size <= (1u << DIPC_SFI_PAGE_SHIFT) -
                  (addr & ((1u << DIPC_SFI_PAGE_SHIFT) - 1)) &&
      addr < (1ull << 47) &&
      addr - DIPC_SFI_SHADOW_ADDR >= DIPC_SFI_SHADOW_SIZE) {
    uint32_t dom = sfi_running_domain();
    const uint16_t *shadow = (const uint16_t *)DIPC_SFI_SHADOW_ADDR;
    const uint8_t *rights = (const uint8_t *)DIPC_SFI_RIGHTS_ADDR;
    if (size == 0 ||
        (dom < DIPC_MAX_DOMAINS &&
         (rights[(size_t)dom * DIPC_SFI_TAGS +
                 shadow[addr >> DIPC_SFI_PAGE_SHIFT]] &
          (write ? DIPC_SFI_WRITE : DIPC_SFI_READ))))
      return;
  }
  __dipc_sfi_check(addr, size, write);
}

/* libdipc's slow path for a call target (dipc/sfi.h
 * DIPC_SFI_CHECK_CALL_FN): returns if instrumented code may call it, else
 * faults. */
void __dipc_sfi_check_call(const void *target);

/* libdipc's slow path for a callback (rt/sfi_cfi.c): as the one above
 * but for exported functions of libraries, which are refused. */
void __dipc_sfi_check_callback(const void *target);

/* Whether fn is instrumented code: the call magic precedes it. The magic
 * is compared through its negation, so that no instruction of the loader
 * holds it (test/rt/sfi-call-magic-sites.test). */
static inline int sfi_has_call_magic(const void *fn) {
  if ((uintptr_t)fn < 4096)
    return 0;
  uint32_t sum;
  __asm__("movl %[neg], %[sum]\n\taddl -4(%[fn]), %[sum]"
          : [sum] "=&r"(sum)
          : [fn] "r"(fn), [neg] "i"(0u - DIPC_SFI_CALL_MAGIC), "m"(*(const char(*)[4])((const char *)fn - 4)));
  return sum == 0;
}

/* A function pointer instrumented code hands libc, which calls it without
 * a check: an instrumented function (the call magic) or a plain unit's,
 * never a library's (libc's bcopy as a stream's read function would copy
 * from the cookie unchecked). */
static inline void sfi_check_callee(const void *fn) {
  if (!sfi_has_call_magic(fn))
    __dipc_sfi_check_callback(fn);
}

/* A function libc calls back before the call that hands it over returns,
 * or later on the caller's behalf (a comparator, a walk's action, a
 * stream's functions): checked as a callee, then a proxy into the calling
 * domain that runs it (dipc_domain_callback; args: its integer arguments,
 * at most 4). Entered through the proxy, its frames start below libc's,
 * which it can no longer reach (dipc/sfi.h, DIPC_SFI_TAG_STACK): called
 * directly it could rewrite the return addresses libc saved above it, and
 * libc returns unchecked. When no proxy can be made the call faults (its
 * caller gets DIPC_EFAULT); the default domain's function comes back as
 * it is. */
void *sfi_callback(const void *fn, int args);
#define SFI_CALLBACK(fn, args)                                                 \
  ((__typeof__(fn))sfi_callback((const void *)(fn), (args)))
/* An optional callback, in place (NULL stays NULL). */
#define SFI_CALLBACK_IF(fn, args)                                              \
  do {                                                                         \
    if (fn)                                                                    \
      (fn) = SFI_CALLBACK(fn, args);                                           \
  } while (0)

/* A call refused to the running domain under `sfi`: -1 with EPERM, the
 * reason on stderr (sfi_syscalls.c). */
long sfi_refuse(const char *call);
/* The same for a call that cannot fail: then faults as a refused check
 * does (the running call returns DIPC_EFAULT). */
_Noreturn void sfi_refuse_fault(const char *call);

#define SFI_READ(p, n) sfi_check((uintptr_t)(p), (uint64_t)(n), 0)
#define SFI_WRITE(p, n) sfi_check((uintptr_t)(p), (uint64_t)(n), 1)

/* libdipc (rt/scratch.c): room in this thread's scratch area, runtime
 * memory no domain writes, and giving it back (last in, first out). */
void *__dipc_sfi_scratch_take(size_t n);
void __dipc_sfi_scratch_give(void *p);

/* n bytes of this thread's scratch area for call's arguments (below); NULL
 * with errno ENOMEM and the reason on stderr when there is no room. */
void *sfi_scratch(const char *call, size_t n);

/* A copy of the n bytes at p, which the running domain must be allowed to
 * read, in this thread's scratch area: what libc reads of it after the
 * interceptor's checks is what they checked, whatever another thread of
 * the domain writes at p meanwhile. NULL as sfi_scratch; sfi_copy_done
 * gives it back (and every copy taken after it), errno kept. */
void *sfi_copy_in(const char *call, const void *p, size_t n);
void sfi_copy_done(void *copy);

/* A length the kernel reads and writes back (getsockopt's option,
 * recvfrom's address): a copy of *len in the scratch area, for the kernel
 * to read and write (a second thread raised *len between the check and
 * the kernel's read), and buf checked writable for that many bytes; NULL
 * as sfi_scratch. sfi_length_out gives the caller the length written
 * back, and the copy back. */
socklen_t *sfi_length_in(const char *call, socklen_t *len, const void *buf);
void sfi_length_out(socklen_t *len, socklen_t *copy);

/* n objects of size bytes, refused as a whole when the product overflows
 * (libc would run off the address space). */
uint64_t sfi_array_size(size_t n, size_t size);

/* Checks the string s may be read up to its NUL (at most max bytes, and
 * no NUL needed within them); returns its length as strnlen does. */
size_t sfi_read_string(const char *s, size_t max);
/* strncpy's work on checked ranges (sfi_str.c): the string read up to n,
 * all n bytes of dst written (NUL padding); returns dst + its length. */
char *sfi_copy_padded(char *dst, const char *src, size_t n);

/* Checks that f is a stream the running domain may use: a byte stream of
 * a kind libc makes (sfi_streams.c), the FILE itself, its spans (below)
 * and its lock writable by it, so that a FILE it forged or
 * damaged makes libc write nowhere it could not write itself. */
void sfi_check_file(FILE *f);
/* Its spans alone: writable by the running domain. */
void sfi_check_file_spans(const FILE *f);

/* The spans of a FILE's pointer groups (buffer, read, write, save), each
 * from its lowest to its highest non-NULL pointer (0, 0 when empty):
 * stdio reads and writes anywhere within them, and a damaged FILE's
 * pointers need not be in order. */
#define SFI_FILE_SPANS 4
void sfi_file_spans(const FILE *f, uintptr_t lo[SFI_FILE_SPANS],
                    uintptr_t hi[SFI_FILE_SPANS]);

/* A va_list as a value: a pointer to its one element (x86-64). */
typedef __typeof__(&(*(va_list *)0)[0]) sfi_va;

/* A copy of the string s (checked to its NUL, at most max bytes; its
 * length in *len) in the thread's scratch area, NUL-terminated; NULL as
 * sfi_scratch. */
char *sfi_string_in(const char *call, const char *s, size_t max, size_t *len);

/* A copy of ap in the thread's scratch area for the n arguments of these
 * printf types (<printf.h>'s PA_*): its tag, and the bytes of its
 * register save area and stack those arguments take, each checked
 * readable first; a va_list libc can read the same arguments through
 * while no thread of the domain can change them. NULL as sfi_scratch (or
 * a type it cannot place, refused with EINVAL). */
sfi_va sfi_va_in(const char *call, sfi_va ap, const int *types, size_t n);
/* In such a copy, the word that holds argument i, a pointer (types as
 * given to sfi_va_in). */
uintptr_t *sfi_va_slot(sfi_va ap, const int *types, size_t i);

/* A printf call's format and arguments, as libc is to read them. */
struct sfi_format {
  const char *fmt;
  sfi_va ap;
  void *copy; /* the scratch copies to give back, or NULL */
  int has_n;  /* the format has a %n */
};

/* The flag to hand a fortified printf (__*printf_chk) with c's copies:
 * glibc refuses a %n in a writable format, which the copy always is; the
 * loader makes that check of the caller's format itself (sfi_printf.c)
 * and glibc gets 0 then. */
int sfi_fortify_flag(const char *call, const struct sfi_format *c,
                     const char *fmt, int flag);

/* Checks a printf format and what its conversions read (%s) or write (%n)
 * of the arguments in f->ap, and points f at copies of both in the
 * thread's scratch area (sfi_printf.c): a second thread rewrote a checked
 * "%p" into "%s", or an argument's pointer, before libc read them again.
 * 0, or -1 with errno set; sfi_format_done gives the copies back. */
int sfi_check_format(const char *call, struct sfi_format *f);
void sfi_format_done(struct sfi_format *f);

/* Format strings (printf's and scanf's): the decimal number at *p, and a
 * "%N$" or "*N$" position (1-based) at *p; each consumes what it read
 * (position: only when there is one; 0 if none). A number past INT_MAX
 * is SIZE_MAX, never wrapped: glibc takes it for none (a wrapped
 * precision of 2^64 checked 0 bytes of a string glibc printed whole). */
size_t sfi_format_digits(const char **p);
size_t sfi_format_position(const char **p);

/* The body of a printf family's checked path: the format and arguments
 * in c checked and copied, then the other checks, then the real call on
 * the copies (c.fmt, c.ap), its result returned. */
#define FORMAT_CALL(call, c, checks, real_call)                                \
  do {                                                                         \
    if (sfi_check_format(call, &c) != 0)                                       \
      return -1;                                                               \
    checks;                                                                    \
    int r_ = real_call;                                                        \
    sfi_format_done(&c);                                                       \
    return r_;                                                                 \
  } while (0)

/* The bytes vsprintf writes for f (checked), its NUL included. */
size_t sfi_output_size(const struct sfi_format *f);

#endif

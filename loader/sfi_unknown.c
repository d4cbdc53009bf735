/* sfi_unknown.c - interceptors (sfi_intercept.h) of C library functions
 * that LLVM does not know and instrumented code calls: before such a call
 * only its pointers' tags are checked, and the loader refuses a program
 * calling one it does not check (sfi_calls.c). Each checks what libc
 * reads and writes through its pointers. */
#define _GNU_SOURCE
#include "sfi_code.h"
#include "sfi_intercept.h"
#include "sfi_streams.h"
#include "stream_memory.h"

#include <dipc/limits.h>
#include <dlfcn.h>
#include <errno.h>
#include <iconv.h>
#include <locale.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <threads.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <wchar.h>

#define STRING(s) sfi_read_string((s), SIZE_MAX)
#define WRITES(type, name, ptr)                                                \
  SFI_EXPORT int name(type *ptr) {                                             \
    if (SFI_CHECKED())                                                         \
      SFI_WRITE(ptr, sizeof *ptr);                                             \
    return NEXT(name)(ptr);                                                    \
  }

/* Thread attributes and mutex attributes: libc writes the object. */
WRITES(pthread_attr_t, pthread_attr_init, attr)
WRITES(pthread_attr_t, pthread_attr_destroy, attr)
WRITES(pthread_mutexattr_t, pthread_mutexattr_init, attr)
WRITES(pthread_mutexattr_t, pthread_mutexattr_destroy, attr)

SFI_EXPORT int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type) {
  if (SFI_CHECKED())
    SFI_WRITE(attr, sizeof *attr);
  return NEXT(pthread_mutexattr_settype)(attr, type);
}

SFI_EXPORT int pthread_attr_setstack(pthread_attr_t *attr, void *stack,
                                     size_t size) {
  if (SFI_CHECKED())
    SFI_WRITE(attr, sizeof *attr);
  return NEXT(pthread_attr_setstack)(attr, stack, size);
}

SFI_EXPORT int pthread_attr_setaffinity_np(pthread_attr_t *attr, size_t size,
                                           const cpu_set_t *set) {
  if (SFI_CHECKED()) {
    SFI_WRITE(attr, sizeof *attr);
    SFI_READ(set, size);
  }
  return NEXT(pthread_attr_setaffinity_np)(attr, size, set);
}

SFI_EXPORT int pthread_timedjoin_np(pthread_t t, void **result,
                                    const struct timespec *at) {
  if (SFI_CHECKED()) {
    if (result)
      SFI_WRITE(result, sizeof *result);
    SFI_READ(at, sizeof *at);
  }
  return NEXT(pthread_timedjoin_np)(t, result, at);
}

SFI_EXPORT int thrd_join(thrd_t t, int *result) {
  if (SFI_CHECKED() && result)
    SFI_WRITE(result, sizeof *result);
  return NEXT(thrd_join)(t, result);
}

SFI_EXPORT int timer_settime(timer_t id, int flags,
                             const struct itimerspec *value,
                             struct itimerspec *old) {
  if (SFI_CHECKED()) {
    SFI_READ(value, sizeof *value);
    if (old)
      SFI_WRITE(old, sizeof *old);
  }
  return NEXT(timer_settime)(id, flags, value, old);
}

SFI_EXPORT int setrlimit(__rlimit_resource_t resource,
                         const struct rlimit *limit) {
  if (SFI_CHECKED())
    SFI_READ(limit, sizeof *limit);
  return NEXT(setrlimit)(resource, limit);
}

/* getcontext (setjmp.S, before glibc's runs on the untouched frame: it
 * returns twice): the registers it saves are the caller's to choose, so
 * where they go must be the caller's to write. Returns glibc's. */
void *getcontext_check(ucontext_t *uc, const void *ret) {
  if (sfi_code_checks(ret))
    SFI_WRITE(uc, sizeof *uc);
  return (void *)NEXT(getcontext);
}

/* Files and streams. */
SFI_EXPORT int mkstemp(char *template) {
  if (SFI_CHECKED())
    SFI_WRITE(template, STRING(template) + 1);
  return NEXT(mkstemp)(template);
}

SFI_EXPORT int mkstemp64(char *template) {
  if (SFI_CHECKED())
    SFI_WRITE(template, STRING(template) + 1);
  return NEXT(mkstemp64)(template);
}

/* The same FILE, reopened (in the stream window: libc frees and takes
 * runtime memory for a decoy's stream); the caller keeps what it held. */
SFI_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *f) {
  if (SFI_CHECKED()) {
    if (path)
      STRING(path);
    STRING(mode);
  }
  FILE *r = sfi_stream_of(f, SFI_CHECKED());
  int w = r != f ? stream_memory_enter() : 0;
  FILE *got = NEXT(freopen64)(path, mode, r);
  stream_memory_leave(w);
  sfi_stream_sync(f, r);
  return got == r ? f : got;
}

/* getc_unlocked's slow path, inline in callers: every call for a decoy. */
SFI_EXPORT int __uflow(FILE *f) { ON_STREAM(int, f, NEXT(__uflow)(r)); }

SFI_EXPORT FILE *fmemopen(void *buf, size_t size, const char *mode) {
  if (SFI_CHECKED()) {
    if (buf)
      SFI_WRITE(buf, size);
    STRING(mode);
  }
  /* its cookie in the window too, not only its FILE */
  OPENED(SFI_STREAM_FMEM, NEXT(fmemopen)(buf, size, mode), NEXT(fclose));
}

/* Text: locales, times, conversions. */
/* The locale is process-wide state libc follows on every domain's behalf:
 * made in a libc-state window (stream_memory.h), with the character
 * converters libc would otherwise load at the first wide conversion after
 * it, in whichever domain made that. The name is copied: libc reads it
 * again and keeps it. */
SFI_EXPORT char *setlocale(int category, const char *locale) {
  char *copy = NULL;
  if (SFI_CHECKED() && locale) {
    size_t len;
    if (!(copy = sfi_string_in("setlocale", locale, SIZE_MAX, &len)))
      return NULL;
    locale = copy;
  }
  int w = libc_state_enter();
  char *r = NEXT(setlocale)(category, locale);
  if (r && locale && (category == LC_CTYPE || category == LC_ALL)) {
    mbstate_t state = {0};
    wchar_t wc;
    (void)mbrtowc(&wc, "", 1, &state);
  }
  libc_state_leave(w);
  if (copy)
    sfi_copy_done(copy);
  return r;
}

/* The time is copied, and its zone name (which %Z copies into out) checked
 * in the copy: an attack round pointed tm_zone at vault's secret. */
SFI_EXPORT size_t strftime(char *out, size_t room, const char *format,
                           const struct tm *tm) {
  if (!SFI_CHECKED())
    return NEXT(strftime)(out, room, format, tm);
  SFI_WRITE(out, room);
  STRING(format);
  SFI_READ(tm, sizeof *tm);
  struct tm copy = *tm;
  if (copy.tm_zone)
    STRING(copy.tm_zone);
  /* the time zone, and the locale's eras and alternative digits, which
   * libc reads in at their first use */
  LIBC_STATE(size_t, NEXT(strftime)(out, room, format, &copy));
}

/* Locale objects: libc shares their records with setlocale's (a cache of
 * the categories it loaded), so they are made in a libc-state window for
 * whoever calls (libstdc++'s std::locale: an attack round's domain pointed
 * a cached record's grouping at vault's secret, and the next std::locale
 * copied it out). Instrumented code may not name one: a locale_t is a
 * pointer to records libc follows, which a domain could forge. */
#define NEWLOCALE(name)                                                        \
  SFI_EXPORT locale_t name(int mask, const char *locale, locale_t base) {      \
    if (SFI_CHECKED())                                                         \
      return (sfi_refuse(#name), (locale_t)0);                                 \
    LIBC_STATE(locale_t, NEXT(name)(mask, locale, base));                      \
  }
#define DUPLOCALE(name)                                                        \
  SFI_EXPORT locale_t name(locale_t l) {                                       \
    if (SFI_CHECKED())                                                         \
      return (sfi_refuse(#name), (locale_t)0);                                 \
    LIBC_STATE(locale_t, NEXT(name)(l));                                       \
  }
#define FREELOCALE(name)                                                       \
  SFI_EXPORT void name(locale_t l) {                                           \
    if (SFI_CHECKED()) {                                                       \
      sfi_refuse(#name);                                                       \
      return;                                                                  \
    }                                                                          \
    int w = libc_state_enter();                                                \
    NEXT(name)(l);                                                             \
    libc_state_leave(w);                                                       \
  }
#define USELOCALE(name)                                                        \
  SFI_EXPORT locale_t name(locale_t l) {                                       \
    if (SFI_CHECKED())                                                         \
      return (sfi_refuse(#name), (locale_t)0);                                 \
    return NEXT(name)(l);                                                      \
  }
/* libstdc++ calls them by glibc's other names */
locale_t __newlocale(int, const char *, locale_t);
locale_t __duplocale(locale_t);
void __freelocale(locale_t);
locale_t __uselocale(locale_t);
NEWLOCALE(newlocale)
NEWLOCALE(__newlocale)
DUPLOCALE(duplocale)
DUPLOCALE(__duplocale)
FREELOCALE(freelocale)
FREELOCALE(__freelocale)
USELOCALE(uselocale)
USELOCALE(__uselocale)

/* Message catalogs (libstdc++'s messages facet; strerror: sfi_kernel.c)
 * are libc's state too. (<libintl.h>'s macros would rename these.) */
char *dgettext(const char *, const char *);
char *gettext(const char *);
char *bindtextdomain(const char *, const char *);
char *bind_textdomain_codeset(const char *, const char *);
SFI_EXPORT char *dgettext(const char *domain, const char *msgid) {
  if (SFI_CHECKED())
    return (sfi_refuse("dgettext"), (char *)msgid);
  LIBC_STATE(char *, NEXT(dgettext)(domain, msgid));
}

SFI_EXPORT char *gettext(const char *msgid) {
  if (SFI_CHECKED())
    return (sfi_refuse("gettext"), (char *)msgid);
  LIBC_STATE(char *, NEXT(gettext)(msgid));
}

SFI_EXPORT char *bindtextdomain(const char *domain, const char *dir) {
  if (SFI_CHECKED())
    return (sfi_refuse("bindtextdomain"), NULL);
  LIBC_STATE(char *, NEXT(bindtextdomain)(domain, dir));
}

SFI_EXPORT char *bind_textdomain_codeset(const char *domain,
                                         const char *codeset) {
  if (SFI_CHECKED())
    return (sfi_refuse("bind_textdomain_codeset"), NULL);
  LIBC_STATE(char *, NEXT(bind_textdomain_codeset)(domain, codeset));
}

/* The descriptor, and what libc loads for it (a converter module, with
 * the dynamic linker's records of it), is libc's state: libc's heap. */
static iconv_t iconv_open_state(const char *to, const char *from) {
  LIBC_STATE(iconv_t, NEXT(iconv_open)(to, from));
}

/* libc loads the converter modules with its own dlopen, which the loader's
 * never sees: they are copied in place here, as after a dlopen (scan.c),
 * or a domain that rewrote a loaded module's file ran its code in libc on
 * the next iconv_open (attack round 26 read vault's secret so). */
SFI_EXPORT iconv_t iconv_open(const char *to, const char *from) {
  if (SFI_CHECKED()) {
    STRING(to);
    STRING(from);
  }
  iconv_t cd = iconv_open_state(to, from);
  if (sfi_code_on && loader_pin_code() != 0) {
    fputs("dipc-loader: iconv_open: its converter modules could not be "
          "copied in place\n",
          stderr);
    _exit(DIPC_EXIT_REFUSED);
  }
  return cd;
}

/* dladdr's answer written (pointers the domain cannot choose, but a write
 * anywhere all the same). dlsym, dlvsym and dlclose: sfi_dl.c. */
SFI_EXPORT int dladdr(const void *addr, Dl_info *info) {
  if (SFI_CHECKED())
    SFI_WRITE(info, sizeof *info);
  return NEXT(dladdr)(addr, info);
}

/* sfi_callbacks.c - libc functions that keep or call a function pointer
 * instrumented code hands them (sfi_intercept.h): libc calls it later,
 * unchecked, so under `sfi` it must be a function the code could call
 * itself (dipc/sfi.h, "Control flow"), or a domain would have libc run,
 * say, the C library's own memcpy on arguments of its choosing (a
 * fopencookie stream's write function is called with the cookie as its
 * first argument). qsort's, bsearch's, pthread_create's and the signal
 * handlers' are checked where those are intercepted. A program's plain
 * units (no dIPC records, no call magic) share the executable with its
 * instrumented code, and the interceptors tell callers apart by object
 * only: their functions pass by the executable's symbol table
 * (rt/sfi_cfi.c). */
#define _GNU_SOURCE
#include "heap.h"
#include "sfi_intercept.h"
#include "stream_memory.h"

#include <dipc/rt.h>
#include <dirent.h>
#include <dlfcn.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <errno.h>
#include <link.h>
#include <obstack.h>
#include <printf.h>
#include <pthread.h>
#include <search.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>
#include <unistd.h>

#define CALLEE(fn) sfi_check_callee((const void *)(fn))

static int in_loader(const void *fn) {
  Dl_info at, self;
  return dladdr(fn, &at) && dladdr((const void *)in_loader, &self) &&
         at.dli_fbase == self.dli_fbase;
}
/* Exit handlers may also be a library's function a call by name reaches
 * (a static std::string's destructor is libstdc++'s). Such a function runs
 * unchecked on the argument registered with it: it must be memory the
 * domain may write, as a call of the function would need (libc's
 * getrlimit on exit's status 0 and the domain's rights row would write 16
 * bytes of ones over it). */
static void handler(const void *fn, const void *arg) {
  if (sfi_has_call_magic(fn))
    return;
  __dipc_sfi_check_call(fn);
  /* Never one of the loader's interceptors: called by libc, it checks
   * nothing (its caller is not instrumented code), and setcontext's would
   * resume the context its argument holds (an attack's exit handler did). */
  if (in_loader(fn))
    __dipc_sfi_check_callback(fn); /* refused: no function of the program */
  if (arg)
    SFI_WRITE(arg, 1);
}
/* Functions libc calls later from whatever domain then runs (thread exit
 * and exit() run as the default domain) are kept as proxies into the
 * domain that handed them over, so they run with its rights, never the
 * default domain's (docs/runtime.md §2, "Threads created in a domain"). */
#define AS_CALLER(fn, args)                                                    \
  ((__typeof__(fn))dipc_domain_callback((void *)(fn), (args)))
/* The proxy of a callback already checked (sfi_callback). None (the
 * domain's share of proxies is used up): the call faults, as a refused
 * check does, rather than run libc without the callback (a sort that
 * sorts nothing). */
static void *callback_proxy(const void *fn, int args) {
  void *proxy = dipc_domain_callback((void *)fn, args);
  if (!proxy) {
    static const char line[] = "dipc: sfi: no callback proxy could be made "
                               "for the running domain (too many distinct "
                               "callbacks): the call faults\n";
    (void)!write(STDERR_FILENO, line, sizeof line - 1);
    __dipc_sfi_check(DIPC_SFI_TRAP_ADDR, 1, 0); /* refused: never returns */
    __builtin_unreachable();
  }
  return proxy;
}

void *sfi_callback(const void *fn, int args) {
  CALLEE(fn);
  return callback_proxy(fn, args);
}

/* atexit and the compiler's static destructors come here (atexit itself
 * is libc_nonshared.a's, linked into the caller). The lists of handlers
 * past libc's first block, the thread_local destructors' records and the
 * thread-specific values' second-level blocks are libc's state, which it
 * follows at exit or on another domain's behalf: made in a libc-state
 * window (stream_memory.h). */
SFI_EXPORT int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
  if (SFI_CHECKED()) {
    handler((const void *)fn, arg);
    if (!(fn = AS_CALLER(fn, 1)))
      return -1;
  }
  LIBC_STATE(int, NEXT(__cxa_atexit)(fn, arg, dso));
}

/* on_exit's handler gets exit's status first, which the domain chooses:
 * a library function would take it for an address (memset's, wmemset's
 * destination), so it must be code the checks cover. */
SFI_EXPORT int on_exit(void (*fn)(int, void *), void *arg) {
  if (SFI_CHECKED()) {
    CALLEE(fn);
    if (!(fn = AS_CALLER(fn, 2)))
      return -1;
  }
  LIBC_STATE(int, NEXT(on_exit)(fn, arg));
}

SFI_EXPORT int at_quick_exit(void (*fn)(void)) {
  if (SFI_CHECKED()) {
    handler((const void *)fn, NULL);
    if (!(fn = AS_CALLER(fn, 0)))
      return -1;
  }
  LIBC_STATE(int, NEXT(at_quick_exit)(fn));
}

/* libc writes the once word (a compare-and-swap, then its done state):
 * memory the domain may write, not only read (the compiled-in check of
 * the argument's first byte), or it writes another domain's for it. C11's
 * call_once reaches libc's pthread_once inside libc, past this one. */
static void once_checked(void *once, void (**fn)(void)) {
  SFI_WRITE(once, sizeof(pthread_once_t));
  *fn = SFI_CALLBACK(*fn, 0);
}

SFI_EXPORT int pthread_once(pthread_once_t *once, void (*fn)(void)) {
  if (SFI_CHECKED())
    once_checked(once, &fn);
  return NEXT(pthread_once)(once, fn);
}

SFI_EXPORT void call_once(once_flag *flag, void (*fn)(void)) {
  _Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag");
  if (SFI_CHECKED())
    once_checked(flag, &fn);
  NEXT(call_once)(flag, fn);
}

/* thread_local destructors (glibc's registration, which libstdc++'s
 * __cxa_thread_atexit calls: the one below, so that a domain calling
 * libstdc++'s is checked too). libc ran them as the domain that runs when
 * the thread exits. */
int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso);

static int thread_atexit(int checked, void (*fn)(void *), void *obj,
                         void *dso) {
  if (checked) {
    handler((const void *)fn, obj);
    if (!(fn = AS_CALLER(fn, 1)))
      return -1;
  }
  LIBC_STATE(int, NEXT(__cxa_thread_atexit_impl)(fn, obj, dso));
}

SFI_EXPORT int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj,
                                        void *dso) {
  return thread_atexit(SFI_CHECKED(), fn, obj, dso);
}

SFI_EXPORT int __cxa_thread_atexit(void (*fn)(void *), void *obj, void *dso) {
  return thread_atexit(SFI_CHECKED(), fn, obj, dso);
}

/* Which domain made each key: a named domain's instrumented code sets and
 * deletes only its own keys. Another's value is what that key's
 * destructor gets: an attack round's domain set the loader's own key
 * (loader/signals.c) to vault's secret, and the loader's destructor wrote
 * over it as the thread ended (e2e/attack-sfi-foreign-key.c). 0: a key
 * made by anything else (the loader, libc, the default domain). */
static uint16_t key_owner[PTHREAD_KEYS_MAX];
_Static_assert(DIPC_MAX_DOMAINS <= UINT16_MAX + 1, "key_owner");

/* Whether the running domain may set or delete key (or it is a number no
 * key has, which libc refuses). */
static int key_mine(unsigned long key) {
  uint32_t d = sfi_running_domain();
  return d == 0 || key >= PTHREAD_KEYS_MAX ||
         __atomic_load_n(&key_owner[key], __ATOMIC_RELAXED) == d;
}

/* A key's destructor gets the value pthread_setspecific stored, any value
 * the domain chose: it must be a function the domain's code could be
 * called back as (never a library's), or free (the loader's: it checks
 * the block is the running domain's). */
static int key_create(int checked, pthread_key_t *key, void (*dtor)(void *)) {
  if (checked) {
    SFI_WRITE(key, sizeof *key);
    if (dtor && dtor != free)
      CALLEE(dtor);
    if (dtor && !(dtor = AS_CALLER(dtor, 1)))
      return EAGAIN;
  }
  pthread_key_t made;
  int r = NEXT(pthread_key_create)(&made, dtor);
  if (r == 0) {
    if (made < PTHREAD_KEYS_MAX)
      __atomic_store_n(&key_owner[made],
                       (uint16_t)(checked ? sfi_running_domain() : 0),
                       __ATOMIC_RELAXED);
    *key = made;
  }
  return r;
}

SFI_EXPORT int pthread_setspecific(pthread_key_t key, const void *value) {
  if (SFI_CHECKED() && !key_mine(key))
    return (int)(sfi_refuse("pthread_setspecific of another domain's key"),
                 EPERM);
  LIBC_STATE(int, NEXT(pthread_setspecific)(key, value));
}

SFI_EXPORT int pthread_key_delete(pthread_key_t key) {
  if (SFI_CHECKED() && !key_mine(key))
    return (int)(sfi_refuse("pthread_key_delete of another domain's key"),
                 EPERM);
  return NEXT(pthread_key_delete)(key);
}

/* C11's: glibc's tss_set and tss_delete call the functions above inside
 * libc, past them. */
SFI_EXPORT int tss_set(tss_t key, void *value) {
  if (SFI_CHECKED() && !key_mine(key))
    return (int)(sfi_refuse("tss_set of another domain's key"), thrd_error);
  LIBC_STATE(int, NEXT(tss_set)(key, value));
}

SFI_EXPORT void tss_delete(tss_t key) {
  if (SFI_CHECKED() && !key_mine(key)) {
    sfi_refuse("tss_delete of another domain's key");
    return;
  }
  NEXT(tss_delete)(key);
}

SFI_EXPORT int pthread_key_create(pthread_key_t *key, void (*dtor)(void *)) {
  return key_create(SFI_CHECKED(), key, dtor);
}

/* C11's keys: glibc's tss_create calls its pthread_key_create inside
 * libc, past the one above. */
SFI_EXPORT int tss_create(tss_t *key, tss_dtor_t dtor) {
  _Static_assert(sizeof(tss_t) == sizeof(pthread_key_t), "tss_t");
  return key_create(SFI_CHECKED(), (pthread_key_t *)key, dtor) == 0
             ? thrd_success
             : thrd_error;
}

SFI_EXPORT int dl_iterate_phdr(int (*fn)(struct dl_phdr_info *, size_t,
                                         void *),
                               void *arg) {
  if (SFI_CHECKED())
    fn = SFI_CALLBACK(fn, 3);
  return NEXT(dl_iterate_phdr)(fn, arg);
}

/* Sorting and searching call their comparator with the caller's own
 * elements, through a callback proxy (sfi_callback); the array is the
 * caller's, as libc reads and writes it. qsort's work area (a table of
 * pointers to the elements, for large ones) is libc's, in a libc-state
 * window (stream_memory.h): made in the domain's heap, a comparator
 * rewrote an entry and libc's final moves copied vault's page into the
 * array and the array over vault's (e2e/attack-sfi-qsort-table.c). The
 * trees: sfi_search.c. */
typedef int (*compare_fn)(const void *, const void *);

SFI_EXPORT void qsort(void *base, size_t n, size_t size, compare_fn cmp) {
  if (SFI_CHECKED()) {
    SFI_WRITE(base, sfi_array_size(n, size));
    cmp = SFI_CALLBACK(cmp, 2);
  }
  int w = libc_state_enter();
  NEXT(qsort)(base, n, size, cmp);
  libc_state_leave(w);
}

SFI_EXPORT void qsort_r(void *base, size_t n, size_t size,
                        int (*cmp)(const void *, const void *, void *),
                        void *arg) {
  if (SFI_CHECKED()) {
    SFI_WRITE(base, sfi_array_size(n, size));
    cmp = SFI_CALLBACK(cmp, 3);
  }
  int w = libc_state_enter();
  NEXT(qsort_r)(base, n, size, cmp, arg);
  libc_state_leave(w);
}

/* bsearch returns one of the elements: the array must be readable (the
 * key only goes to the comparator). */
SFI_EXPORT void *bsearch(const void *key, const void *base, size_t n,
                         size_t size, compare_fn cmp) {
  if (SFI_CHECKED()) {
    SFI_READ(base, sfi_array_size(n, size));
    cmp = SFI_CALLBACK(cmp, 2);
  }
  return NEXT(bsearch)(key, base, n, size, cmp);
}

/* lfind and lsearch read *n again as they go, and between the calls of
 * the comparator, which is the domain's code: it grew *n mid-search (and
 * a second thread could) so that libc compared, or lsearch appended the
 * key, past the checked array. libc gets a copy of *n in the thread's
 * scratch area; lsearch's caller gets the count back. */
SFI_EXPORT void *lfind(const void *key, const void *base, size_t *n,
                       size_t size, compare_fn cmp) {
  if (!SFI_CHECKED())
    return NEXT(lfind)(key, base, n, size, cmp);
  size_t *count = sfi_copy_in("lfind", n, sizeof *n);
  if (!count)
    return NULL;
  SFI_READ(base, sfi_array_size(*count, size));
  cmp = SFI_CALLBACK(cmp, 2);
  void *r = NEXT(lfind)(key, base, count, size, cmp);
  sfi_copy_done(count);
  return r;
}

SFI_EXPORT void *lsearch(const void *key, void *base, size_t *n, size_t size,
                         compare_fn cmp) {
  if (!SFI_CHECKED())
    return NEXT(lsearch)(key, base, n, size, cmp);
  SFI_WRITE(n, sizeof *n);
  size_t *count = sfi_copy_in("lsearch", n, sizeof *n);
  if (!count)
    return NULL;
  /* It appends the key (read) when it is not found. */
  SFI_READ(key, size);
  SFI_WRITE(base,
            sfi_array_size(*count < SIZE_MAX ? *count + 1 : *count, size));
  cmp = SFI_CALLBACK(cmp, 2);
  void *r = NEXT(lsearch)(key, base, count, size, cmp);
  *n = *count;
  sfi_copy_done(count);
  return r;
}

/* Fork handlers run in whatever domain forks: kept as proxies into the
 * domain that registered them, like the exit handlers (pthread_atfork is
 * libc_nonshared.a's, linked into the caller, and calls this). */
int __register_atfork(void (*prepare)(void), void (*parent)(void),
                      void (*child)(void), void *dso);

static void (*fork_handler(void (*fn)(void)))(void) {
  if (!fn)
    return NULL;
  handler((const void *)fn, NULL);
  return AS_CALLER(fn, 0);
}

SFI_EXPORT int __register_atfork(void (*prepare)(void), void (*parent)(void),
                                 void (*child)(void), void *dso) {
  if (SFI_CHECKED()) {
    void (*p)(void) = fork_handler(prepare), (*q)(void) = fork_handler(parent),
         (*c)(void) = fork_handler(child);
    if ((prepare && !p) || (parent && !q) || (child && !c))
      return ENOMEM;
    prepare = p, parent = q, child = c;
  }
  return NEXT(__register_atfork)(prepare, parent, child, dso);
}

/* printf's conversion handlers run in any domain's printf, as that
 * domain: a domain's handler would run its code with another's rights.
 * Refused to instrumented code. */
SFI_EXPORT int register_printf_specifier(int spec, printf_function fn,
                                         printf_arginfo_size_function arginfo) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("register_printf_specifier");
  return NEXT(register_printf_specifier)(spec, fn, arginfo);
}

/* Deprecated, not gone: still refused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
SFI_EXPORT int register_printf_function(int spec, printf_function fn,
                                        printf_arginfo_function arginfo) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("register_printf_function");
  return NEXT(register_printf_function)(spec, fn, arginfo);
}
#pragma GCC diagnostic pop

SFI_EXPORT int register_printf_type(printf_va_arg_function fn) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("register_printf_type");
  return NEXT(register_printf_type)(fn);
}

/* Directory walks and globbing call the domain's functions from libc,
 * unchecked (a scandir filter one byte into a function ran): each must be
 * code the checks cover, as qsort's comparator, and runs through a
 * callback proxy (sfi_callback). ftw and nftw keep a tree of the
 * directories they went through, and scandir its directory handle (the
 * read position and size: an attack round's filter moved them over
 * vault's secret, which the next entry then copied into the list), in
 * the caller's heap while they call it back: refused to a domain with a
 * heap of its own. scandir's list is the caller's to free, so it is made
 * in the caller's heap: libc's sort of it (qsort's work area in that
 * heap too) is left to the loader's qsort, above. */
typedef int (*dir_filter)(const struct dirent *);
typedef int (*dir_compar)(const struct dirent **, const struct dirent **);

static int walk_refused(const char *call) {
  return heap_serves_domain() ? (int)sfi_refuse(call) : 0;
}

/* The n entries scandir left at *list sorted by cmp (a callback proxy). */
static int sort_list(struct dirent ***list, int n, dir_compar cmp) {
  if (n <= 1 || !cmp)
    return n;
  struct dirent **v = __atomic_load_n(list, __ATOMIC_RELAXED); /* once */
  SFI_WRITE(v, sfi_array_size((size_t)n, sizeof *v));
  qsort(v, (size_t)n, sizeof *v, (compare_fn)cmp);
  return n;
}

SFI_EXPORT int scandir(const char *dir, struct dirent ***list, dir_filter sel,
                       dir_compar cmp) {
  if (!SFI_CHECKED())
    return NEXT(scandir)(dir, list, sel, cmp);
  if (walk_refused("scandir by a domain with a heap of its own"))
    return -1;
  sfi_read_string(dir, SIZE_MAX);
  SFI_WRITE(list, sizeof *list);
  SFI_CALLBACK_IF(sel, 1);
  SFI_CALLBACK_IF(cmp, 2);
  return sort_list(list, NEXT(scandir)(dir, list, sel, NULL), cmp);
}

SFI_EXPORT int scandirat(int fd, const char *dir, struct dirent ***list,
                         dir_filter sel, dir_compar cmp) {
  if (!SFI_CHECKED())
    return NEXT(scandirat)(fd, dir, list, sel, cmp);
  if (walk_refused("scandirat by a domain with a heap of its own"))
    return -1;
  sfi_read_string(dir, SIZE_MAX);
  SFI_WRITE(list, sizeof *list);
  SFI_CALLBACK_IF(sel, 1);
  SFI_CALLBACK_IF(cmp, 2);
  return sort_list(list, NEXT(scandirat)(fd, dir, list, sel, NULL), cmp);
}

SFI_EXPORT int ftw(const char *dir, __ftw_func_t fn, int fds) {
  if (SFI_CHECKED()) {
    if (walk_refused("ftw by a domain with a heap of its own"))
      return -1;
    sfi_read_string(dir, SIZE_MAX);
    fn = SFI_CALLBACK(fn, 3);
  }
  return NEXT(ftw)(dir, fn, fds);
}

SFI_EXPORT int nftw(const char *dir, __nftw_func_t fn, int fds, int flags) {
  if (SFI_CHECKED()) {
    if (walk_refused("nftw by a domain with a heap of its own"))
      return -1;
    sfi_read_string(dir, SIZE_MAX);
    fn = SFI_CALLBACK(fn, 4);
  }
  return NEXT(nftw)(dir, fn, fds, flags);
}

/* glob's error function. GLOB_ALTDIRFUNC's directory functions are
 * refused: the glob_t holding them is the domain's memory, which libc
 * reads again while it walks, after any check. */
SFI_EXPORT int glob(const char *pattern, int flags,
                    int (*err)(const char *, int), glob_t *g) {
  if (SFI_CHECKED()) {
    /* its directory handles, in the caller's heap while it reads them
     * (a second thread moves one as scandir's filter did) */
    if (walk_refused("glob by a domain with a heap of its own"))
      return GLOB_ABORTED;
    sfi_read_string(pattern, SIZE_MAX);
    SFI_WRITE(g, sizeof *g);
    SFI_CALLBACK_IF(err, 2);
    if (flags & GLOB_ALTDIRFUNC) {
      sfi_refuse("glob with GLOB_ALTDIRFUNC");
      return GLOB_ABORTED;
    }
  }
  return NEXT(glob)(pattern, flags, err, g);
}

/* Obstacks are refused to instrumented code: libc trusts every word of a
 * struct obstack, which lies in the domain's memory, after the fact (a
 * domain rewrote its chunk and free functions after _obstack_begin had
 * checked them, and libc called puts on vault's secret; it pointed the
 * current object at the secret and _obstack_newchunk copied it over;
 * memset as a chunk function wrote over the rights matrix). ENOMEM where
 * the call returns a value, else the caller's crash (obstack_free and
 * _obstack_newchunk cannot fail: obstack_alloc_failed_handler would run,
 * a function of libc's data). */
#undef obstack_free /* obstack.h's macro: the function's name here */

static void obstack_refused(const char *call) {
  sfi_refuse(call);
  errno = ENOMEM;
}

SFI_EXPORT int _obstack_begin(struct obstack *h, int size, int align,
                              void *(*chunk)(long), void (*release)(void *)) {
  if (SFI_CHECKED()) {
    obstack_refused("_obstack_begin");
    return 0;
  }
  return NEXT(_obstack_begin)(h, size, align, chunk, release);
}

SFI_EXPORT int _obstack_begin_1(struct obstack *h, int size, int align,
                                void *(*chunk)(void *, long),
                                void (*release)(void *, void *), void *arg) {
  if (SFI_CHECKED()) {
    obstack_refused("_obstack_begin_1");
    return 0;
  }
  return NEXT(_obstack_begin_1)(h, size, align, chunk, release, arg);
}

SFI_EXPORT void _obstack_newchunk(struct obstack *h, int length) {
  if (SFI_CHECKED()) {
    obstack_refused("_obstack_newchunk");
    __builtin_trap();
  }
  NEXT(_obstack_newchunk)(h, length);
}

SFI_EXPORT void obstack_free(struct obstack *h, void *obj) {
  if (SFI_CHECKED()) {
    obstack_refused("obstack_free");
    __builtin_trap();
  }
  NEXT(obstack_free)(h, obj);
}

SFI_EXPORT int _obstack_memory_used(struct obstack *h) {
  if (SFI_CHECKED()) {
    obstack_refused("_obstack_memory_used");
    return 0;
  }
  return NEXT(_obstack_memory_used)(h);
}

SFI_EXPORT int _obstack_allocated_p(struct obstack *h, void *obj) {
  if (SFI_CHECKED()) {
    obstack_refused("_obstack_allocated_p");
    return 0;
  }
  return NEXT(_obstack_allocated_p)(h, obj);
}

SFI_EXPORT int obstack_vprintf(struct obstack *h, const char *format,
                               va_list ap) {
  if (SFI_CHECKED()) {
    obstack_refused("obstack_vprintf");
    return -1;
  }
  return NEXT(obstack_vprintf)(h, format, ap);
}

int __obstack_vprintf_chk(struct obstack *h, int flag, const char *format,
                          va_list ap);

SFI_EXPORT int __obstack_vprintf_chk(struct obstack *h, int flag,
                                     const char *format, va_list ap) {
  if (SFI_CHECKED()) {
    obstack_refused("__obstack_vprintf_chk");
    return -1;
  }
  return NEXT(__obstack_vprintf_chk)(h, flag, format, ap);
}

SFI_EXPORT int __obstack_printf_chk(struct obstack *h, int flag,
                                    const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = SFI_CHECKED() ? (obstack_refused("__obstack_printf_chk"), -1)
                        : NEXT(__obstack_vprintf_chk)(h, flag, format, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int obstack_printf(struct obstack *h, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = SFI_CHECKED() ? (obstack_refused("obstack_printf"), -1)
                        : NEXT(obstack_vprintf)(h, format, ap);
  va_end(ap);
  return r;
}

/* Cancellation's unwinding jumps with libc's own longjmp, past the
 * loader's, to the context a cleanup buffer holds (pthread_cleanup_push):
 * a buffer the domain forged sent it anywhere. Under sfi instrumented code
 * may not start it; its cleanup regions run when popped. */
SFI_EXPORT void __pthread_unwind_next(__pthread_unwind_buf_t *buf) {
  if (SFI_CHECKED()) {
    sfi_refuse("__pthread_unwind_next");
    __builtin_trap(); /* it does not return: a crash of the caller */
  }
  NEXT(__pthread_unwind_next)(buf);
  __builtin_unreachable();
}

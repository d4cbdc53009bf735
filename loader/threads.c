/* threads.c - wraps pthread_create so every thread is set up (alternate
 * signal stack, runtime state, hence its unsafe stack) before it runs
 * program code, in a slot of the runtime's set aside before the thread is
 * created (pthread_create fails with EAGAIN when there is none). A thread
 * created by code running in a named domain runs its start routine as that
 * domain, through a proxy the runtime makes (dipc_thread_spawn): the loader
 * holds no record of it that the domain could change. */
#define _GNU_SOURCE
#include "interpose.h"
#include "sfi_intercept.h"
#include "stream_memory.h"
#include "threads.h"
#include "../rt/stateless_signals.h"

#include <dipc/rt.h>
#include <dipc/sfi.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

static thread_setup_fn setup_thread;

void threads_set_setup(thread_setup_fn setup) { setup_thread = setup; }

/* A new thread starts with its signals blocked (create, below; which:
 * rt/stateless_signals.h) and takes the mask it would have had once it is
 * set up (setup_thread). */
struct start {
  void *(*routine)(void *);
  void *arg;
  sigset_t mask;
};

/* The default domain's new threads' starts: in the loader's image, which
 * no domain writes (the C library's heap is the default domain's: a
 * domain that may write it could swap a start for any function and
 * argument before the new thread read it). A slot is free when its
 * routine is NULL; there are as many as thread slots. */
#define STARTS 4096
static struct start starts[STARTS];

static struct start *start_take(void *(*routine)(void *), void *arg,
                                const sigset_t *mask) {
  for (unsigned i = 0; i < STARTS; i++) {
    void *(*none)(void *) = NULL;
    if (__atomic_compare_exchange_n(&starts[i].routine, &none, routine, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      starts[i].arg = arg;
      starts[i].mask = *mask;
      return &starts[i];
    }
  }
  return NULL;
}

static void start_give(struct start *s) {
  __atomic_store_n(&s->routine, NULL, __ATOMIC_RELEASE);
}

/* The thread's set-up, then the signal mask it was created with; 0, or
 * -1 (said) with every signal still blocked. Set up before anything else:
 * the thread's first free or malloc may make it an arena, whose trimming
 * munmap traps to the runtime under mpk, which would give the thread a
 * state outside its reserved slot. */
static int set_up(const sigset_t *mask) {
  if (setup_thread && setup_thread() != 0) {
    fputs("dipc-loader: cannot set up a new thread; stopping it\n", stderr);
    return -1;
  }
  pthread_sigmask(SIG_SETMASK, mask, NULL);
  return 0;
}

static void *start_thread(void *p) {
  struct start start = *(struct start *)p;
  start_give(p);
  return set_up(&start.mask) == 0 ? start.routine(start.arg) : NULL;
}

/* A thread a named domain created: its start's arg is the runtime's start
 * ticket. The thread starts as the default domain (its stack, TCB and this
 * code are the default domain's) and calls the routine through the proxy
 * into the creator's domain; a fault there returns NULL (dipc_errno says
 * why) and the thread ends here, as the default domain. */
static void *start_in_domain(void *p) {
  struct start start = *(struct start *)p;
  start_give(p);
  void *proxy = NULL, *arg = NULL;
  if (set_up(&start.mask) != 0)
    return NULL;
  if (dipc_thread_adopt((long)start.arg, &proxy, &arg) != 0) {
    fputs("dipc-loader: cannot set up a new thread; stopping it\n", stderr);
    return NULL;
  }
  void *r = ((void *(*)(void *))proxy)(arg), *exited;
  if (dipc_thread_exit_value_take(&exited) == 1)
    r = exited; /* the routine called pthread_exit */
  return r;
}

/* In a thread a domain created, glibc's pthread_exit would unwind past the
 * start routine's proxy and end the thread as the domain: the runtime keeps
 * the value and the call ends as the routine's crash, which returns to
 * start_in_domain (above) as the default domain. Elsewhere in a domain it
 * is a crash of the running call; as the default domain, glibc's. */
typedef void (*pthread_exit_fn)(void *) __attribute__((noreturn));

__attribute__((visibility("default"), noreturn)) void
pthread_exit(void *value) {
  if (dipc_thread_exit_value(value) != -DIPC_EPERM)
    __builtin_trap();
  pthread_exit_fn real = INTERPOSE_NEXT(pthread_exit_fn, "pthread_exit");
  real(value);
}

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *,
                                 void *(*)(void *), void *);

/* glibc's pthread_attr_t inside (nptl's struct pthread_attr, 2.32 on):
 * pthread_create reads the affinity set and signal mask through its
 * extension, memory of the caller's like the rest. */
struct glibc_attr_extension {
  cpu_set_t *cpuset;
  size_t cpusetsize;
  sigset_t sigmask;
  _Bool sigmask_set;
};

struct glibc_attr {
  struct sched_param schedparam;
  int schedpolicy;
  int flags;
  size_t guardsize;
  void *stackaddr;
  size_t stacksize;
  struct glibc_attr_extension *extension;
  void *unused;
};

_Static_assert(sizeof(struct glibc_attr) == sizeof(pthread_attr_t),
               "glibc's pthread_attr_t is nptl's struct pthread_attr");

/* The largest affinity set taken: what glibc's own CPU_ALLOC gives for
 * 8192 CPUs. */
enum { MAX_CPUSET = 8192 / 8 };

/* Why a thread stack that instrumented code's attributes name
 * (pthread_create's, a SIGEV_THREAD notification's) is refused, or NULL.
 * The new thread's start code, glibc's and the loader's
 * (start_in_domain), runs uninstrumented on it as the default domain, and
 * its TCB and TLS lie at its top: only the default domain may name one,
 * of pages tagged its own. On a stack of its own heap, an attack round's
 * domain with no grant rewrote start_in_domain's return address while its
 * routine ran, ran its own code as the default domain and granted itself
 * vault (test/e2e/attack-sfi-thread-stack-hijack.c). Nor would a tag do
 * for a named domain: tag 0 does not mean that no domain writes a page (a
 * file it mapped over pages of its own it writes wherever else the file
 * is mapped; the next round raced the tag check so). */
static const char *stack_refusal(uintptr_t lo, size_t size) {
  const volatile uint16_t *tags = (const uint16_t *)DIPC_SFI_SHADOW_ADDR;
  if (sfi_running_domain() != 0)
    return "a thread stack named by a domain's code";
  if (size == 0 || lo + size < lo)
    return "a thread stack of no pages";
  for (uintptr_t p = lo >> DIPC_SFI_PAGE_SHIFT;
       p <= (lo + size - 1) >> DIPC_SFI_PAGE_SHIFT; p++)
    if (tags[p] != 0)
      return "a thread stack not the default domain's memory";
  return NULL;
}

int threads_checked_attr(const char *call, const pthread_attr_t *attr,
                         pthread_attr_t **copy) {
  *copy = NULL;
  if (!attr)
    return 0;
  struct glibc_attr *a = sfi_copy_in(call, attr, sizeof *attr);
  if (!a)
    return -1;
  if (a->extension) {
    struct glibc_attr_extension *e =
        sfi_copy_in(call, a->extension, sizeof *e);
    if (!e || (e->cpuset && e->cpusetsize > MAX_CPUSET)) {
      if (e)
        errno = EINVAL; /* else ENOMEM, from sfi_copy_in */
      sfi_copy_done(a);
      return -1;
    }
    if (e->cpuset && !(e->cpuset = sfi_copy_in(call, e->cpuset,
                                               e->cpusetsize))) {
      sfi_copy_done(a);
      return -1;
    }
    a->extension = e;
    /* pthread_attr_setsigmask_np is refused to instrumented code, so such
     * a mask is forged: the thread would start with it, before it is set
     * up (struct start); an attack round's domain had a storm of signals
     * there stop the process (attack round 29). */
    if (e->sigmask_set) {
      sfi_copy_done(a);
      return (int)sfi_refuse("a thread attribute's signal mask (forged: "
                             "pthread_attr_setsigmask_np is refused to "
                             "instrumented code)");
    }
  }
  void *lo;
  size_t size;
  /* glibc gives the lowest address as the top minus the size: with no
   * stack of the caller's (a top of NULL), lo + size wraps to 0. */
  if (pthread_attr_getstack((pthread_attr_t *)a, &lo, &size) == 0 &&
      (uintptr_t)lo + size != 0) {
    SFI_WRITE(lo, size);
    const char *no = stack_refusal((uintptr_t)lo, size);
    if (no) {
      sfi_copy_done(a); /* the extension's copies go with it */
      return (int)sfi_refuse(no);
    }
  }
  *copy = (pthread_attr_t *)a;
  return 0;
}

/* glibc's pthread_create in a libc-state window (stream_memory.h): the
 * new thread's TLS blocks and their vector, libc's records, go to libc's
 * heap, which the caller cannot rewrite. */
static int in_window(pthread_create_fn real, pthread_t *thread,
                     const pthread_attr_t *attr, void *(*routine)(void *),
                     void *arg) {
  LIBC_STATE(int, real(thread, attr, routine, arg));
}

/* glibc's pthread_create from a thread with its signals blocked, which
 * the new thread inherits (see struct start), unless attr names a mask of
 * its own: glibc then starts the thread with that one (a window left
 * open), and the thread keeps it. */
static int create_blocked(pthread_create_fn real, pthread_t *thread,
                          const pthread_attr_t *attr,
                          void *(*start_fn)(void *), void *(*routine)(void *),
                          void *arg) {
  sigset_t blocked, old;
  dipc_stateless_signals(&blocked);
  pthread_sigmask(SIG_BLOCK, &blocked, &old);
  sigset_t mask = old;
  if (attr && pthread_attr_getsigmask_np(attr, &mask) != 0)
    mask = old;
  struct start *start = start_take(routine, arg, &mask);
  int err = start ? in_window(real, thread, attr, start_fn, start) : EAGAIN;
  if (err && start)
    start_give(start);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return err;
}

/* pthread_create's work (below), with the attributes to hand glibc. */
static int create(pthread_t *thread, const pthread_attr_t *attr,
                  void *(*routine)(void *), void *arg) {
  pthread_create_fn real = INTERPOSE_NEXT(pthread_create_fn, "pthread_create");
  /* A slot for the thread's runtime state first: none left is EAGAIN, as
   * for any other resource a thread needs, never a stopped process. A
   * joined thread's slot frees once the kernel has reaped it, which can
   * trail pthread_join by a moment: a few short retries cover that. */
  int slot = dipc_thread_reserve();
  for (int try = 0; slot != 0 && try < 20; try++) {
    nanosleep(&(struct timespec){0, 1000000}, NULL);
    slot = dipc_thread_reserve();
  }
  if (slot != 0)
    return EAGAIN;
  /* Code running in a named domain: its thread starts there. No block of
   * the caller's heap either (the new thread, as the default domain, could
   * not free it). */
  long ticket = dipc_thread_spawn(routine, arg);
  if (ticket < 0) {
    dipc_thread_unreserve();
    return ticket == -DIPC_ENOSPC ? EAGAIN : EINVAL;
  }
  if (ticket > 0) {
    /* (the start's routine only marks its slot taken) */
    int err = create_blocked(real, thread, attr, start_in_domain,
                             start_in_domain, (void *)ticket);
    if (err) {
      dipc_thread_spawn_drop(ticket);
      dipc_thread_unreserve();
    }
    return err;
  }
  int err = routine ? create_blocked(real, thread, attr, start_thread,
                                     routine, arg)
                    : EINVAL;
  if (err)
    dipc_thread_unreserve();
  return err;
}

/* The new thread calls routine from here, unchecked: under `sfi` it must
 * be a function instrumented code could call itself, the thread's handle
 * memory the caller may write, and its attributes are checked (above). */
__attribute__((visibility("default"))) int
pthread_create(pthread_t *thread, const pthread_attr_t *attr,
               void *(*routine)(void *), void *arg) {
  if (!SFI_CHECKED())
    return create(thread, attr, routine, arg);
  SFI_WRITE(thread, sizeof *thread);
  sfi_check_callee((const void *)routine);
  pthread_attr_t *copy;
  if (threads_checked_attr("pthread_create", attr, &copy) != 0)
    return errno;
  int err = create(thread, copy, routine, arg);
  sfi_copy_done(copy);
  return err;
}

/* C11's threads: glibc's thrd_create and thrd_exit call its pthread
 * functions inside libc, past the wrappers above, so a C11 thread had no
 * runtime state (it shared its creator's, under `sfi` its shadow stack
 * and KCS) and ran a domain's routine outside the domain. They go through
 * the wrappers instead; a C11 routine returns an int, which thrd_join
 * takes from the low half of the pointer as glibc's own does. */
__attribute__((visibility("default"))) int
thrd_create(thrd_t *thread, thrd_start_t routine, void *arg) {
  if (SFI_CHECKED()) {
    SFI_WRITE(thread, sizeof *thread);
    sfi_check_callee((const void *)routine);
  }
  int err = pthread_create(thread, NULL,
                           (void *(*)(void *))(uintptr_t)routine, arg);
  return err == 0 ? thrd_success : err == ENOMEM ? thrd_nomem : thrd_error;
}

__attribute__((visibility("default"), noreturn)) void thrd_exit(int result) {
  pthread_exit((void *)(intptr_t)result);
}

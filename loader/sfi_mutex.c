/* sfi_mutex.c - mutexes of instrumented code under `sfi`. glibc follows
 * what lies in a pthread_mutex_t after any check: its kind says robust,
 * and unlocking one unlinks it from the thread's robust list through the
 * links it holds, so a domain with no grant that marked its own mutex
 * robust and rewrote the links had the unlink write an address of its
 * choosing over vault's secret (e2e/attack-sfi-robust-mutex.c). For
 * instrumented callers glibc gets a shadow instead: a pthread_mutex_t in
 * the loader's image (runtime memory, which no domain reads or writes),
 * one per address of a domain's mutex, made at its init or first use with
 * the type the domain asked for (robust and priority mutexes work on a
 * shadow too: their links are then the runtime's). The domain's object
 * is only a name; it must still be the caller's to write. Uninstrumented
 * code (libstdc++'s) locking or waiting on an object that has a shadow
 * gets the shadow too: an attack round's domain locked its std::mutex
 * (the shadow), made the object itself robust with links of its choosing,
 * and std::condition_variable's wait, libstdc++'s code, handed glibc the
 * object, whose unlink wrote over vault's secret. One that uninstrumented
 * code locked first, before any shadow, stays the object's alone until
 * instrumented code uses it. A shadow stays with its
 * address after pthread_mutex_destroy (destroyed: its next use makes it
 * anew), and only a mutex of the same domain takes its place: a thread
 * still holding a destroyed shadow then reaches its own domain's mutex,
 * never another's. A named domain holds at most a quarter of the table
 * (an attack round's domain took all of it, and vault's next mutex could
 * not be made); beyond its share, or with the table full, a new mutex's
 * first use fails with EAGAIN. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <dipc/limits.h>

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#define SHADOWS 65536 /* a power of two */

enum { FREE, READY, DESTROYED };

struct shadow {
  uintptr_t key; /* the domain mutex's address; 0: free */
  int state;
  uint32_t owner; /* the domain that made it */
  pthread_mutex_t mutex;
};

static struct shadow shadows[SHADOWS];
static unsigned ready_of[DIPC_MAX_DOMAINS]; /* ready shadows per owner */
static int insert_lock; /* a spin lock, never held across a call but init */

static unsigned slot_of(uintptr_t key) {
  return (unsigned)((key >> 3) * 0x9e3779b97f4a7c15ull >> 48) % SHADOWS;
}

/* key's slot whatever its state, or NULL (lock-free: keys only appear). */
static struct shadow *find_slot(uintptr_t key) {
  for (unsigned n = 0, i = slot_of(key); n < SHADOWS;
       n++, i = (i + 1) % SHADOWS) {
    uintptr_t k = __atomic_load_n(&shadows[i].key, __ATOMIC_ACQUIRE);
    if (k == key)
      return &shadows[i];
    if (k == 0)
      return NULL;
  }
  return NULL;
}

/* The ready shadow of key, or NULL (none, or destroyed). */
static pthread_mutex_t *find(uintptr_t key) {
  struct shadow *s = find_slot(key);
  return s && __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == READY
             ? &s->mutex
             : NULL;
}

static void lock_inserts(void) {
  while (__atomic_exchange_n(&insert_lock, 1, __ATOMIC_ACQUIRE))
    __builtin_ia32_pause();
}

static void unlock_inserts(void) {
  __atomic_store_n(&insert_lock, 0, __ATOMIC_RELEASE);
}

/* A slot for key, which has none, claimed for owner (a destroyed one of
 * owner's first, then a free one); NULL when the table is full. Inserts
 * locked. */
static struct shadow *claim(uintptr_t key, uint32_t owner) {
  struct shadow *reuse = NULL;
  for (unsigned n = 0, i = slot_of(key); n < SHADOWS;
       n++, i = (i + 1) % SHADOWS) {
    struct shadow *s = &shadows[i];
    if (s->key == 0) {
      if (!reuse)
        reuse = s;
      break;
    }
    if (!reuse && s->state == DESTROYED && s->owner == owner)
      reuse = s;
  }
  if (reuse) { /* not ready until made (make) */
    __atomic_store_n(&reuse->state, DESTROYED, __ATOMIC_RELEASE);
    reuse->owner = owner;
    __atomic_store_n(&reuse->key, key, __ATOMIC_RELEASE);
  }
  return reuse;
}

/* Whether owner may have one more ready shadow. */
static int within_share(uint32_t owner) {
  return owner == 0 || ready_of[owner] < SHADOWS / 4;
}

/* Makes key's shadow anew with attr (NULL: the type in the domain's
 * object, as a static initializer leaves it). */
static pthread_mutex_t *make(pthread_mutex_t *m,
                             const pthread_mutexattr_t *attr, int *err) {
  pthread_mutexattr_t own;
  if (!attr) {
    /* the type only: nothing else of the domain's object is read */
    int type = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED) & 3;
    pthread_mutexattr_init(&own);
    pthread_mutexattr_settype(&own, type);
  }
  uint32_t owner = sfi_running_domain() % DIPC_MAX_DOMAINS;
  lock_inserts();
  struct shadow *s = find_slot((uintptr_t)m);
  if (s && !attr && s->state == READY) { /* made meanwhile by another */
    unlock_inserts();
    return &s->mutex;
  }
  int was_ready = s && s->state == READY;
  if (!was_ready && !within_share(owner))
    s = NULL;
  else if (!s)
    s = claim((uintptr_t)m, owner);
  *err = s ? NEXT(pthread_mutex_init)(&s->mutex, attr ? attr : &own) : EAGAIN;
  if (s && !*err) {
    if (was_ready)
      ready_of[s->owner]--;
    s->owner = owner;
    ready_of[owner]++;
    __atomic_store_n(&s->state, READY, __ATOMIC_RELEASE);
  }
  unlock_inserts();
  return s && !*err ? &s->mutex : NULL;
}

/* m's shadow, made at its first use; NULL with *err when none can be. */
static pthread_mutex_t *shadow(pthread_mutex_t *m, int *err) {
  SFI_WRITE(m, sizeof *m);
  pthread_mutex_t *s = find((uintptr_t)m);
  return s ? s : make(m, NULL, err);
}

/* For an uninstrumented caller: m's shadow if it has one, else m. */
static pthread_mutex_t *as_made(pthread_mutex_t *m) {
  pthread_mutex_t *s = find((uintptr_t)m);
  return s ? s : m;
}

/* Returns call, which names m's shadow s_, or the error if m has none. */
#define ON_SHADOW(call)                                                        \
  do {                                                                         \
    int err_;                                                                  \
    pthread_mutex_t *s_ = shadow(m, &err_);                                    \
    return s_ ? (call) : err_;                                                 \
  } while (0)

SFI_EXPORT int pthread_mutex_lock(pthread_mutex_t *m) {
  if (!SFI_CHECKED())
    return NEXT(pthread_mutex_lock)(as_made(m));
  ON_SHADOW(NEXT(pthread_mutex_lock)(s_));
}

SFI_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m) {
  if (!SFI_CHECKED())
    return NEXT(pthread_mutex_trylock)(as_made(m));
  ON_SHADOW(NEXT(pthread_mutex_trylock)(s_));
}

SFI_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m) {
  if (!SFI_CHECKED())
    return NEXT(pthread_mutex_unlock)(as_made(m));
  ON_SHADOW(NEXT(pthread_mutex_unlock)(s_));
}

SFI_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m,
                                       const struct timespec *at) {
  if (!SFI_CHECKED())
    return NEXT(pthread_mutex_timedlock)(as_made(m), at);
  SFI_READ(at, sizeof *at);
  struct timespec copy = *at;
  ON_SHADOW(NEXT(pthread_mutex_timedlock)(s_, &copy));
}

/* Condition variables wait with a mutex: its shadow. glibc's condition
 * variable holds counters and futex words only, which it writes within
 * the object (checked writable). */
SFI_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  if (!SFI_CHECKED())
    return NEXT(pthread_cond_wait)(c, as_made(m));
  SFI_WRITE(c, sizeof *c);
  ON_SHADOW(NEXT(pthread_cond_wait)(c, s_));
}

SFI_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                      const struct timespec *at) {
  if (!SFI_CHECKED())
    return NEXT(pthread_cond_timedwait)(c, as_made(m), at);
  SFI_WRITE(c, sizeof *c);
  SFI_READ(at, sizeof *at);
  struct timespec copy = *at;
  ON_SHADOW(NEXT(pthread_cond_timedwait)(c, s_, &copy));
}

SFI_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
                                      clockid_t clock,
                                      const struct timespec *at) {
  if (!SFI_CHECKED())
    return NEXT(pthread_cond_clockwait)(c, as_made(m), clock, at);
  SFI_WRITE(c, sizeof *c);
  SFI_READ(at, sizeof *at);
  struct timespec copy = *at;
  ON_SHADOW(NEXT(pthread_cond_clockwait)(c, s_, clock, &copy));
}

#define COND(name)                                                             \
  SFI_EXPORT int name(pthread_cond_t *c) {                                     \
    if (SFI_CHECKED())                                                         \
      SFI_WRITE(c, sizeof *c);                                                 \
    return NEXT(name)(c);                                                      \
  }
COND(pthread_cond_signal)
COND(pthread_cond_broadcast)
COND(pthread_cond_destroy)

SFI_EXPORT int pthread_cond_init(pthread_cond_t *c,
                                 const pthread_condattr_t *attr) {
  if (!SFI_CHECKED())
    return NEXT(pthread_cond_init)(c, attr);
  SFI_WRITE(c, sizeof *c);
  pthread_condattr_t copy;
  if (attr) {
    SFI_READ(attr, sizeof *attr);
    memcpy(&copy, attr, sizeof copy);
  }
  return NEXT(pthread_cond_init)(c, attr ? &copy : NULL);
}

SFI_EXPORT int pthread_mutex_init(pthread_mutex_t *m,
                                  const pthread_mutexattr_t *attr) {
  if (!SFI_CHECKED())
    return NEXT(pthread_mutex_init)(m, attr);
  SFI_WRITE(m, sizeof *m);
  pthread_mutexattr_t copy;
  if (attr) {
    SFI_READ(attr, sizeof *attr);
    memcpy(&copy, attr, sizeof copy);
  }
  int err;
  return make(m, attr ? &copy : NULL, &err) ? 0 : err;
}

SFI_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m) {
  if (!SFI_CHECKED())
    return NEXT(pthread_mutex_destroy)(m);
  SFI_WRITE(m, sizeof *m);
  lock_inserts();
  int err = 0;
  struct shadow *s = find_slot((uintptr_t)m);
  if (s && s->state == READY &&
      !(err = NEXT(pthread_mutex_destroy)(&s->mutex))) {
    ready_of[s->owner]--;
    __atomic_store_n(&s->state, DESTROYED, __ATOMIC_RELEASE);
  }
  unlock_inserts();
  return err;
}

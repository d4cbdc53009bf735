/* flipper.h - the second thread of the race attacks (attack-sfi-*-race*.c,
 * attack-sfi-libc-*.c): run in domain `evil` (start_flipper from its
 * code), it flips a byte or a word between a good and a bad value while
 * armed, so that a check and libc's own read can see different ones; and
 * vault_intact(), which asks vault whether its secret is still whole.
 * Include after vault.h. */
#include <pthread.h>

static const char intact[] = "vault-secret-42";
static const char vault_intact_copy[] __dom("vault") = "vault-secret-42";

long vault_intact(void) __dom("vault") __entry {
  for (size_t i = 0; i < sizeof vault_intact_copy; i++)
    if (vault_secret[i] != vault_intact_copy[i])
      return 0;
  return 1;
}

static volatile char *volatile bslot;      /* byte flips */
static volatile uintptr_t *volatile wslot; /* word flips */
static volatile uintptr_t good, bad;
static volatile int armed, flipper_started;
static volatile long flips, idles;

static void *flipper(void *arg) {
  (void)arg;
  for (;;) {
    volatile char *bs = bslot;
    volatile uintptr_t *ws = wslot;
    if (!armed || (!bs && !ws)) {
      idles++;
      continue;
    }
    uintptr_t g = good, b = bad;
    if (bs)
      *bs = (char)b;
    else
      *ws = b;
    for (volatile int i = 0; i < 64; i++) /* a window libc's read can hit */
      ;
    if (bs)
      *bs = (char)g;
    else
      *ws = g;
    flips++;
  }
  return NULL;
}

/* Starts the flipper once, in the calling domain; 0, or -1. */
static int start_flipper(void) {
  pthread_t t;
  if (flipper_started)
    return 0;
  flipper_started = 1;
  return pthread_create(&t, NULL, flipper, NULL) == 0 ? 0 : -1;
}

/* Waits until the flipper has flipped once after arming. */
static void arm_wait(void) {
  long seen = flips;
  armed = 1;
  while (flips == seen)
    ;
}

static void arm_byte(volatile char *p, char g, char b) {
  good = (unsigned char)g;
  bad = (unsigned char)b;
  wslot = NULL;
  bslot = p;
  arm_wait();
}

static void arm_word(volatile void *p, uintptr_t g, uintptr_t b) {
  good = g;
  bad = b;
  bslot = NULL;
  wslot = p;
  arm_wait();
}

/* Waits until the flipper has seen it disarmed: the flipped memory may
 * go then. */
static void disarm(void) {
  armed = 0;
  long seen = idles;
  while (idles == seen)
    ;
  bslot = NULL;
  wslot = NULL;
}

/* flipper.h - the second thread of the race attacks (attack-sfi-*-race*.c,
 * attack-sfi-libc-*.c): run in domain `evil` (start_flipper from its
 * code), it flips a byte or a word between a good and a bad value while
 * armed, so that a check and libc's own read can see different ones;
 * vault_intact(), which asks vault whether its secret is still whole; and
 * race_main, the tests' main. Include after vault.h. */
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
/* How long the first value stays in (a test racing a short window sets
 * less). */
static volatile int flip_spins = 64;

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
    for (volatile int i = 0; i < flip_spins; i++) /* a window libc's read
                                                     can hit */
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

/* Each test's main: attack(mode) up to `tries` times, stopping at the
 * first that steals the secret or writes over it (vault says so), then
 * what the tries did: "<mode>: N tries, S stolen, R refused" (refused:
 * DIPC_EFAULT), the try that stole and the loot. `tries` followed by `+`
 * (500+): that many at least, and on until one is refused, which shows
 * that the flipper won a race (a loaded machine can take thousands of
 * tries to schedule it in the window), at most 40 times as many. */
static int race_main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int tries = argc > 2 ? atoi(argv[2]) : 1000, made = 0, stolen = 0,
      refused = 0;
  int until_refused = argc > 2 && strchr(argv[2], '+') != NULL;
  const char *secret = vault_address();
  char loot[32] = "";
  while (!stolen && (made < tries || (until_refused && !refused &&
                                      made < 40 * tries))) {
    long r = attack(mode, NULL, secret, 0, loot);
    int err = dipc_errno;
    made++;
    if (r < 0 && err == 0) {
      printf("%s: could not run\n", mode);
      return 1;
    }
    if (r == 0 && !vault_intact()) {
      r = 1;
      snprintf(loot, sizeof loot, "wrote over the secret");
    }
    stolen += r == 1;
    refused += r == 0 && err == DIPC_EFAULT;
  }
  printf("%s: %d tries, %d stolen, %d refused\n", mode, made, stolen,
         refused);
  if (stolen)
    printf("first stolen at try %d, loot: '%s'\n", made, loot);
  return 0;
}

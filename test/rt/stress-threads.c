// 8 threads call into 20 domains (more than there are keys, so domains are
// evicted and re-keyed while other threads run) for a few seconds, half of
// the entries with split stacks, while another thread keeps granting and
// revoking the default domain access to them (its image changes under the
// callers returning to it). Every thread checks every result and its
// per-domain counters; the KCS is empty afterwards. Run once on the default
// backend and once under AddressSanitizer (leaks included) on `none`.
// RUN: %rt-cc %s -o %t && %t 2 2>&1 | FileCheck %s
// RUN: %rt-cc -fsanitize=address %s -o %t.asan
// RUN: env DIPC_BACKEND=none ASAN_OPTIONS=detect_leaks=1 %t.asan 2 2>&1 | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: 8 threads ok
// CHECK-NOT: ERROR: LeakSanitizer
#include <pthread.h>
#include <time.h>

#include "rt-test.h"

#define THREADS 8
#define DOMAINS 20
/* Rounds every worker makes however slow the machine (the VM lane emulates
 * the CPU): a bound on time alone lets a loaded machine test nothing. */
#define MIN_ROUNDS 3

/* Copied onto a code page of each domain: position independent and not
 * instrumented (ASan's shadow is default-domain memory). */
__attribute__((no_sanitize("address"), noinline, section("dom_code"),
               aligned(64))) long
work(long *page, long slot, long x) {
  page[slot] += x;
  return page[slot];
}

static long (*entry[DOMAINS])(long *, long, long);
static dom_t dom[DOMAINS];
static volatile int stop;
static long *page[DOMAINS];
static double seconds;

static void *granter(void *arg) {
  (void)arg;
  dom_t def = dom_default();
  for (long n = 0; !stop; n++) {
    grant_t g = grant_create(def, dom[n % DOMAINS]);
    if (g < 0 || grant_revoke(g) != 0) {
      printf("FAIL grant\n");
      exit(1);
    }
  }
  return NULL;
}

static void *worker(void *arg) {
  long t = (long)arg, expect[DOMAINS] = {0}, calls = 0, rounds = 0;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    for (int i = 0; i < DOMAINS; i++) {
      int d = (i + t * 3) % DOMAINS;
      long x = (calls++ % 7) + 1;
      expect[d] += x;
      if (entry[d](page[d], t, x) != expect[d]) {
        printf("FAIL thread %ld domain %d\n", t, d);
        exit(1);
      }
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (++rounds < MIN_ROUNDS ||
           now.tv_sec - start.tv_sec + (now.tv_nsec - start.tv_nsec) / 1e9 <
               seconds);
  if (dipc_kcs_depth() != 0) {
    printf("FAIL kcs\n");
    exit(1);
  }
  return (void *)calls;
}

int main(int argc, char **argv) {
  seconds = argc > 1 ? atof(argv[1]) : 2;
  extern char __start_dom_code[], __stop_dom_code[];
  for (int i = 0; i < DOMAINS; i++) {
    dom_t d = dom[i] = dom_create();
    EXPECT(d >= 0);
    char *code = dom_mmap(d, NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    page[i] = dom_mmap(d, NULL, 4096, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(!dipc_ptr_err(code) && !dipc_ptr_err(page[i]));
    grant_t g = grant_create(dom_default(), d);
    EXPECT(g >= 0);
    memcpy(code, __start_dom_code, __stop_dom_code - __start_dom_code);
    EXPECT_EQ(grant_revoke(g), 0);
    entry[i] = proxy_to(d, code, sig(3, 0, 1, 0, 0), 0,
                        i % 2 ? stack_confidentiality : 0);
  }
  pthread_t th[THREADS], gt;
  EXPECT_EQ(pthread_create(&gt, NULL, granter, NULL), 0);
  for (long t = 0; t < THREADS; t++)
    EXPECT_EQ(pthread_create(&th[t], NULL, worker, (void *)t), 0);
  long calls = 0;
  for (int t = 0; t < THREADS; t++) {
    void *n;
    EXPECT_EQ(pthread_join(th[t], &n), 0);
    calls += (long)n;
  }
  stop = 1;
  EXPECT_EQ(pthread_join(gt, NULL), 0);
  EXPECT(calls >= MIN_ROUNDS * THREADS * DOMAINS);
  EXPECT_EQ(dipc_kcs_depth(), 0);
  struct dipc_stats st;
  EXPECT_EQ(dipc_get_stats(&st), 0);
  EXPECT(st.apl_misses > 0); /* keys were re-used under the threads' feet */
  printf("%d threads ok\n", THREADS);
  return 0;
}

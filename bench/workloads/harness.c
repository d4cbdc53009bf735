/* harness.c - main() of every workload program (workload.h): prepares,
 * runs the workload --warmup times untimed, then timed (CLOCK_MONOTONIC
 * around each run) at least --runs times and until the timed runs add up
 * to --min-ms milliseconds (at most MAX_RUNS runs; each option at most
 * MAX_RUNS), checks every run computed the same result and the last
 * one's output, and prints one JSON line:
 *   {"workload": ..., "build": ..., "backend": ..., "result": ...,
 *    "ns": [one per timed run]}
 * Exits nonzero, saying why on stderr, when anything fails. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __DIPC__
#include <dipc/rt.h>
#endif

#define MAX_RUNS 1000
/* -DWORKLOAD_BUILD=plain|dipc|sfi */
#define STRING2(x) #x
#define STRING(x) STRING2(x)

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

static int count_arg(const char *arg, const char *name, int *out) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0 || arg[n] != '=')
    return 0;
  char *end;
  long v = strtol(arg + n + 1, &end, 10);
  if (*end || end == arg + n + 1 || v < 0 || v > MAX_RUNS) {
    fprintf(stderr, "%s: expected 0..%d\n", arg, MAX_RUNS);
    exit(2);
  }
  *out = (int)v;
  return 1;
}

int main(int argc, char **argv) {
  int runs = 3, warmup = 1, min_ms = 0;
  for (int i = 1; i < argc; ++i)
    if (!count_arg(argv[i], "--runs", &runs) &&
        !count_arg(argv[i], "--warmup", &warmup) &&
        !count_arg(argv[i], "--min-ms", &min_ms)) {
      fprintf(stderr, "usage: %s [--runs=N] [--warmup=N] [--min-ms=N]\n",
              argv[0]);
      return 2;
    }
#ifdef __DIPC__
  const char *backend = dipc_backend();
#else
  const char *backend = "plain";
#endif
  if (workload_prepare() != 0) {
    fprintf(stderr, "%s: %s: preparing the workload failed\n", argv[0],
            workload_name);
    return 1;
  }
  static long long ns[MAX_RUNS];
  unsigned long long first = 0, result = 0;
  long long timed = 0;
  int done = 0;
  for (int i = 0; i < warmup + runs ||
                  (timed < min_ms * 1000000ll && done < MAX_RUNS);
       ++i) {
    long long t0 = now_ns();
    int status = workload_run(&result);
    long long t1 = now_ns();
    if (status != 0 || (i > 0 && result != first)) {
      fprintf(stderr, "%s: %s: run %d %s\n", argv[0], workload_name, i + 1,
              status != 0 ? "failed" : "computed another result");
      return 1;
    }
    first = result;
    if (i >= warmup) {
      ns[done++] = t1 - t0;
      timed += t1 - t0;
    }
  }
  if (workload_check(result) != 0) {
    fprintf(stderr, "%s: %s: the output is wrong\n", argv[0], workload_name);
    return 1;
  }
  printf("{\"workload\": \"%s\", \"build\": \"%s\", \"backend\": \"%s\", "
         "\"result\": %llu, \"ns\": [",
         workload_name, STRING(WORKLOAD_BUILD), backend, result);
  for (int i = 0; i < done; ++i)
    printf("%s%lld", i ? ", " : "", ns[i]);
  printf("]}\n");
  return 0;
}

/* server.c - the listening program of the cross-process tests: defines
 * domain db's entries (db.h) and serves them (dipc_serve). */
#include "db.h"

#include <dipc/rt.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { ROWS = 1000 };
static char secret[64] __dom("db") = "server-secret-4711";
static long *table; /* built in main, read by the entries */

__dom("db") __entry long db_add(long a, long b) { return a + b; }

__dom("db") __entry long db_weigh10(long a, long b, long c, long d, long e,
                                    long f, long g, long h, long i, long j) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i +
         10 * j;
}

__dom("db") __entry long db_pid(void) { return getpid(); }

__dom("db") __entry long db_open(void) {
  return open("/proc/self/status", O_RDONLY | O_CLOEXEC);
}

__dom("db") __entry long db_fd_open(long fd) {
  return fcntl((int)fd, F_GETFD) >= 0;
}

/* Reads the file into a buffer of several pages of its heap: under sfi,
 * the range check of pread's buffer is the runtime's slow path, run on the
 * borrowed thread, as the domain standing for this process. */
__dom("db") __entry long db_status_pid(long fd) {
  enum { SIZE = 3 * 4096 };
  char *buf = malloc(SIZE);
  if (!buf)
    return -1;
  ssize_t n = pread((int)fd, buf, SIZE - 1, 0);
  long pid = -1;
  if (n > 0) {
    buf[n] = 0;
    char *line = strstr(buf, "\nPid:");
    pid = line ? strtol(line + 5, NULL, 10) : -1;
  }
  free(buf);
  return pid;
}

__dom("db") __entry long db_lookup(long key) {
  char *scratch = malloc(64);
  if (!scratch)
    return -1;
  snprintf(scratch, 64, "%ld", key);
  long k = strtol(scratch, NULL, 10);
  free(scratch);
  return k >= 0 && k < ROWS ? table[k] : -1;
}

__dom("db") __entry long db_sleep(long ms) {
  struct timespec t = {ms / 1000, ms % 1000 * 1000000};
  return nanosleep(&t, NULL);
}

__dom("db") __entry long db_spin(long ms) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0); /* the vDSO: no system call */
  do
    clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 <
         ms);
  return 0;
}

__dom("db") __entry long db_time(void) {
  struct timespec t;
  return clock_gettime(CLOCK_REALTIME, &t) == 0 ? (long)t.tv_sec : -1;
}

__dom("db") __entry const char *db_secret_address(void) { return secret; }

__dom("db") __entry long db_crash(void) {
  *(volatile long *)0 = 1;
  return 1;
}

int main(void) {
  table = malloc(ROWS * sizeof *table);
  if (!table)
    return 1;
  for (long i = 0; i < ROWS; i++)
    table[i] = i * i + 7;
  int rc = dipc_serve();
  printf("server: dipc_serve returned %d\n", rc);
  return rc == 0 ? 0 : 1;
}

/* main.c - the application, in the default domain: uses SQLite only
 * through db's entries (db.h). Built with -fdipc (SQLite in domain db) and
 * without (the plain build); both print the same results.
 *
 *   sqlite-domain [ROWS]       insert ROWS rows (10000), query each, check
 *   sqlite-domain --steal      read a row's text in SQLite's memory directly
 *   sqlite-domain --crash      crash db inside sqlite3_step, then use it again
 */
#define _GNU_SOURCE /* pthread_timedjoin_np */
#include "db.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long value_of(long long id) { return (id * 7919) % 100003 - 50000; }
static void text_of(long long id, char *buf, size_t n) {
  snprintf(buf, n, "row-%lld-%llx", id, (unsigned long long)(id * id));
}

/* Fails the program with a message naming what failed and how. */
static void check(int ok, const char *what, long long got) {
  if (ok)
    return;
  printf("main: %s FAILED (returned %lld, dipc_errno %d)\n", what, got,
         dipc_errno);
  exit(1);
}

static int workload(long long rows) {
  char t[64];
  check(db_open() == 0, "db_open", -1);
  check(db_exec("BEGIN") == 0, "BEGIN", -1);
  for (long long id = 1; id <= rows; ++id) {
    text_of(id, t, sizeof t);
    int rc = db_insert(id, value_of(id), t);
    check(rc == 0, "db_insert", rc);
  }
  check(db_exec("COMMIT") == 0, "COMMIT", -1);
  printf("inserted %lld rows\n", rows);

  /* Every answer is checked against what main computes itself. */
  unsigned long long sum = 0, want_sum = 0;
  long long total_len = 0, want_v = 0;
  for (long long id = 1; id <= rows; ++id) {
    text_of(id, t, sizeof t);
    long long want = value_of(id) ^ (long long)db_hash(t);
    long long got = db_query(id);
    check(got == want, "db_query", got);
    sum = sum * 31 + (unsigned long long)got;
    want_sum = want_sum * 31 + (unsigned long long)want;
    total_len += (long long)strlen(t);
    want_v += value_of(id);
  }
  check(db_query(rows + 1) == -1, "db_query of a missing row", -1);
  printf("queried %lld rows: checksum %016llx (expected %016llx)\n", rows,
         sum, want_sum);
  long long summary = db_summary();
  long long want_summary = rows * 1000003 + want_v + total_len;
  printf("summary: %lld (expected %lld)\n", summary, want_summary);
  check(summary == want_summary, "db_summary", summary);
  check(db_close() == 0, "db_close", -1);
  printf("results match\n");
  return 0;
}

static int steal(void) {
  check(db_open() == 0, "db_open", -1);
  check(db_insert(1, 42, "sqlite-secret-row") == 0, "db_insert", -1);
  const char *p = db_row_address(1);
  check(p != 0, "db_row_address", 0);
  printf("reading SQLite's heap at %p\n", (const void *)p);
  fflush(stdout);
  char copy[32] = {0};
  for (size_t i = 0; i < sizeof copy - 1; ++i)
    copy[i] = ((volatile const char *)p)[i];
  printf("main: stole '%s'\n", copy);
  return 0;
}

static void *second_thread(void *arg) {
  (void)arg;
  long long got = db_query(1);
  printf("second thread: db_query(1) returned %lld (dipc_errno %d)\n", got,
         dipc_errno);
  fflush(stdout);
  return 0;
}

static int crash(void) {
  check(db_open() == 0, "db_open", -1);
  check(db_insert(1, 42, "one") == 0, "db_insert", -1);
  check(db_exec("BEGIN") == 0, "BEGIN", -1);
  check(db_insert(2, 43, "two") == 0, "db_insert", -1);
  int rc = db_crashme(1);
  printf("crashme(1): rc %d dipc_errno %d\n", rc, dipc_errno);
  rc = db_crashme(666);
  int err = dipc_errno;
  printf("crashme(666): rc %d dipc_errno %d%s\n", rc, err,
         err == DIPC_EFAULT ? " (DIPC_EFAULT: db crashed, main survives)" : "");
  fflush(stdout);
  long long got = db_query(1);
  printf("same thread: db_query(1) returned %lld (dipc_errno %d)\n", got,
         dipc_errno);
  fflush(stdout);
  /* Another thread: SQLite's connection mutex (SQLITE_THREADSAFE=1) was
   * held when db crashed; db's fault hook released it (db.c). */
  pthread_t th;
  check(pthread_create(&th, 0, second_thread, 0) == 0, "pthread_create", -1);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 20;
  if (pthread_timedjoin_np(th, 0, &until) != 0)
    printf("second thread: still blocked after 20 s (deadlock)\n");
  rc = db_exec("COMMIT");
  printf("COMMIT: rc %d dipc_errno %d\n", rc, dipc_errno);
  long long want = 43 ^ (long long)db_hash("two");
  got = db_query(2);
  printf("row 2 inserted before the crash: %s\n",
         got == want ? "committed" : got == -1 ? "missing" : "wrong");
  printf("main: still running\n");
  fflush(stdout);
  _exit(0); /* a blocked second thread must not keep the process alive */
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--steal") == 0)
    return steal();
  if (argc == 2 && strcmp(argv[1], "--crash") == 0)
    return crash();
  long long rows = argc == 2 ? atoll(argv[1]) : 10000;
  if (argc > 2 || rows <= 0) {
    fprintf(stderr, "usage: %s [ROWS | --steal | --crash]\n", argv[0]);
    return 2;
  }
  return workload(rows);
}

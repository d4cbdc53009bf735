/* sqlite.c - the SQLite workload: examples/sqlite-domain's database (SQLite
 * in domain db in the dIPC builds), 10,000 inserts through the db_insert
 * entry in one transaction. One run: open, insert, summarise, close. */
#include "db.h"
#include "workload.h"

#include <stdio.h>
#include <string.h>

#define ROWS 10000

const char workload_name[] = "sqlite";

static long long value_of(long long id) { return (id * 7919) % 100003 - 50000; }

static void text_of(long long id, char *t, size_t n) {
  snprintf(t, n, "row-%lld-%llx", id, (unsigned long long)(id * id));
}

int workload_prepare(void) { return 0; }

int workload_run(unsigned long long *result) {
  char t[64];
  if (db_open() != 0 || db_exec("BEGIN") != 0)
    return -1;
  for (long long id = 1; id <= ROWS; ++id) {
    text_of(id, t, sizeof t);
    if (db_insert(id, value_of(id), t) != 0)
      return -1;
  }
  if (db_exec("COMMIT") != 0)
    return -1;
  *result = (unsigned long long)db_summary();
  return db_close() == 0 ? 0 : -1;
}

/* db_summary's value computed here: count * 1000003 + sum(v) + the total
 * length of the texts. */
int workload_check(unsigned long long result) {
  char t[64];
  long long want = (long long)ROWS * 1000003;
  for (long long id = 1; id <= ROWS; ++id) {
    text_of(id, t, sizeof t);
    want += value_of(id) + (long long)strlen(t);
  }
  return result == (unsigned long long)want ? 0 : -1;
}

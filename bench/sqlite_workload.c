/* sqlite_workload.c - examples/sqlite-domain's workload for the benchmark
 * (sqlite.cc), compiled twice: with -fdipc and VARIANT=dipc, calling SQLite
 * in domain db through its entries; without -fdipc and VARIANT=plain, with
 * db_* renamed plain_db_*, calling the plain build (the same wrapper and
 * SQLite objects without -fdipc, their other symbols made local so that
 * both builds live in one program). */
#include "db.h"
#include <stdio.h>

#define JOIN2(a, b) a##_##b
#define JOIN(a, b) JOIN2(a, b)
#define NAME(x) JOIN(x, VARIANT)

static long long value_of(long long id) { return (id * 7919) % 100003 - 50000; }

/* Opens the database and inserts `rows` rows in one transaction; 0 or -1. */
int NAME(sqlite_setup)(long long rows) {
  char t[64];
  if (db_open() != 0 || db_exec("BEGIN") != 0)
    return -1;
  for (long long id = 1; id <= rows; ++id) {
    snprintf(t, sizeof t, "row-%lld-%llx", id, (unsigned long long)(id * id));
    if (db_insert(id, value_of(id), t) != 0)
      return -1;
  }
  return db_exec("COMMIT") == 0 ? 0 : -1;
}

/* One query: the row's v ^ hash(t), checked by the caller. */
long long NAME(sqlite_query)(long long id) { return db_query(id); }

/* What sqlite_query must answer for row `id`. */
long long NAME(sqlite_expected)(long long id) {
  char t[64];
  snprintf(t, sizeof t, "row-%lld-%llx", id, (unsigned long long)(id * id));
  return value_of(id) ^ (long long)db_hash(t);
}

int NAME(sqlite_teardown)(void) { return db_close() == 0 ? 0 : -1; }

/* The example's whole run: open, insert, query every row, close. Returns 0
 * when every answer was right, -1 otherwise. */
int NAME(sqlite_workload)(long long rows) {
  int ok = NAME(sqlite_setup)(rows) == 0;
  for (long long id = 1; ok && id <= rows; ++id)
    ok = NAME(sqlite_query)(id) == NAME(sqlite_expected)(id);
  return NAME(sqlite_teardown)() == 0 && ok ? 0 : -1;
}

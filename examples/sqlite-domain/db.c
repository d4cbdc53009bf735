/* db.c - the wrapper of domain db: SQLite behind a few entries (db.h).
 *
 * Compiled with -fdipc-domain=db like sqlite3.c, so its statics are db's
 * too; the entries are the __entry functions of db.h. SQLite itself is
 * unchanged and unannotated. */
#include "db.h"
#include "sqlite3.h"
#ifdef __DIPC__
#include <dipc/rt.h>
#endif
#include <stdint.h>

/* db reads what main passes (SQL text, row text), libc's data and the GOT:
 * all in the default domain. It writes none of it: SQLite's malloc gets
 * db's own heap (docs/loader.md, "Heaps"). */
__perm("default", read) int db_open(void);

static sqlite3 *conn;
static sqlite3_stmt *insert_stmt, *query_stmt;
static sqlite3_stmt *crash_stmt; /* db_crashme's, while it steps */
static char *row_copy; /* db_row_address's answer, in SQLite's heap */

/* db's fault hook (dipc_set_fault_hook): runs in db, on the thread whose
 * call crashed, before that thread's caller goes on. The dead call may
 * have died inside sqlite3_step, holding the connection's mutex (a
 * recursive pthread mutex: unlocking it from a thread that does not hold
 * it fails harmlessly) with its statement running: release the one,
 * reset every statement, drop the crashed one. */
static void db_on_fault(void) {
  if (!conn)
    return;
  sqlite3_mutex_leave(sqlite3_db_mutex(conn));
  for (sqlite3_stmt *s = sqlite3_next_stmt(conn, 0); s;
       s = sqlite3_next_stmt(conn, s))
    sqlite3_reset(s);
  if (crash_stmt) {
    sqlite3_finalize(crash_stmt);
    crash_stmt = 0;
  }
}

/* crashme(x) returns x + 1, except for x == 666: a wild write, a bug in
 * the library's code that crashes inside sqlite3_step. */
static void crashme(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  int x = sqlite3_value_int(argv[0]);
  if (x == 666)
    *(volatile int *)(uintptr_t)16 = x;
  sqlite3_result_int(ctx, x + 1);
}

int db_open(void) {
  int rc;
#ifdef __DIPC__
  if (dipc_set_fault_hook(db_on_fault) != 0)
    return SQLITE_ERROR;
#endif
  if ((rc = sqlite3_open(":memory:", &conn)) != SQLITE_OK)
    return rc;
  if ((rc = sqlite3_exec(conn,
                         "CREATE TABLE kv(id INTEGER PRIMARY KEY, v INTEGER, "
                         "t TEXT)",
                         0, 0, 0)) != SQLITE_OK)
    return rc;
  if ((rc = sqlite3_create_function(conn, "crashme", 1, SQLITE_UTF8, 0,
                                    crashme, 0, 0)) != SQLITE_OK)
    return rc;
  if ((rc = sqlite3_prepare_v2(conn, "INSERT INTO kv VALUES(?1, ?2, ?3)", -1,
                               &insert_stmt, 0)) != SQLITE_OK)
    return rc;
  return sqlite3_prepare_v2(conn, "SELECT v, t FROM kv WHERE id = ?1", -1,
                            &query_stmt, 0);
}

int db_exec(const char *sql) { return sqlite3_exec(conn, sql, 0, 0, 0); }

int db_insert(long long id, long long v, const char *t) {
  sqlite3_bind_int64(insert_stmt, 1, id);
  sqlite3_bind_int64(insert_stmt, 2, v);
  sqlite3_bind_text(insert_stmt, 3, t, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step(insert_stmt);
  sqlite3_reset(insert_stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

long long db_query(long long id) {
  long long answer = -1;
  sqlite3_bind_int64(query_stmt, 1, id);
  if (sqlite3_step(query_stmt) == SQLITE_ROW)
    answer = sqlite3_column_int64(query_stmt, 0) ^
             (long long)db_hash((const char *)sqlite3_column_text(query_stmt, 1));
  sqlite3_reset(query_stmt);
  return answer;
}

long long db_summary(void) {
  sqlite3_stmt *s;
  long long answer = -1;
  if (sqlite3_prepare_v2(conn,
                         "SELECT count(*), sum(v), total(length(t)) FROM kv",
                         -1, &s, 0) != SQLITE_OK)
    return -1;
  if (sqlite3_step(s) == SQLITE_ROW)
    answer = sqlite3_column_int64(s, 0) * 1000003 + sqlite3_column_int64(s, 1) +
             (long long)sqlite3_column_double(s, 2);
  sqlite3_finalize(s);
  return answer;
}

int db_crashme(int x) {
  int rc = sqlite3_prepare_v2(conn, "SELECT crashme(?1)", -1, &crash_stmt, 0);
  if (rc != SQLITE_OK)
    return rc;
  sqlite3_bind_int(crash_stmt, 1, x);
  rc = sqlite3_step(crash_stmt);
  sqlite3_finalize(crash_stmt);
  crash_stmt = 0;
  return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

const char *db_row_address(long long id) {
  sqlite3_free(row_copy);
  row_copy = 0;
  sqlite3_bind_int64(query_stmt, 1, id);
  if (sqlite3_step(query_stmt) == SQLITE_ROW)
    row_copy = sqlite3_mprintf("%s", sqlite3_column_text(query_stmt, 1));
  sqlite3_reset(query_stmt);
  return row_copy;
}

int db_close(void) {
  sqlite3_free(row_copy);
  sqlite3_finalize(insert_stmt);
  sqlite3_finalize(query_stmt);
  return sqlite3_close(conn);
}

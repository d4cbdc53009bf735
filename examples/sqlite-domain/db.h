/* db.h - the SQLite domain's entries, called by main in the default domain.
 *
 * Everything SQLite defines is in domain db (sqlite3.c is compiled with
 * -fdipc-domain=db); these entries, in db.c, are the only way in. Strings
 * the caller passes stay in the default domain: db reads them (and libc's
 * data) through its read grant on the default domain (db.c). */
#ifndef SQLITE_DOMAIN_DB_H
#define SQLITE_DOMAIN_DB_H
#include <dipc.h>

/* Opens an in-memory database with table kv(id INTEGER PRIMARY KEY, v, t)
 * and SQL function crashme(x); returns an SQLite result code (0 = OK). */
__dom("db") __entry int db_open(void);
/* Runs one SQL statement without results (BEGIN, COMMIT, ...). */
__dom("db") __entry int db_exec(const char *sql);
/* INSERT INTO kv VALUES(id, v, t) through a prepared statement. */
__dom("db") __entry int db_insert(long long id, long long v, const char *t);
/* SELECT v, t FROM kv WHERE id = ?: returns v ^ hash(t), or -1 if no row. */
__dom("db") __entry long long db_query(long long id);
/* SELECT count(*), sum(v), total(length(t)) FROM kv, folded into one value. */
__dom("db") __entry long long db_summary(void);
/* SELECT crashme(x): the SQL function dereferences a wild pointer when x is
 * 666 (a bug inside sqlite3_step); returns the SQLite result code. */
__dom("db") __entry int db_crashme(int x);
/* The address of a row's text inside SQLite's memory (its page cache or
 * heap), for main's attempt to read it directly. */
__dom("db") __entry const char *db_row_address(long long id);
/* Closes the connection; returns an SQLite result code. */
__dom("db") __entry int db_close(void);

/* The hash db_query folds t with (FNV-1a, 64 bits); inline, shared code. */
static inline unsigned long long db_hash(const char *s) {
  unsigned long long h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}
#endif

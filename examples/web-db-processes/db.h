/* db.h - the database's interface, shared by two programs (paper Figure 3,
 * as two processes): db-server defines these entries of domain db and
 * serves them; web-client calls them from another process. */
#ifndef DB_H
#define DB_H
#include <dipc.h>
#include <stddef.h>

/* Answers a query into `out`; returns the row length or -1. A query of
 * "crash" makes the database fault, to show recovery in the caller. The
 * database's code runs in the caller's thread, in the caller's address
 * space: it reads `sql` and writes `out` where the caller has them. */
int query(const char *sql, char *out, size_t n) __dom("db") __entry
    __iso_callee(reg_confidentiality) __perm("default", read);

/* The process the database's code runs as (its getpid()). */
int db_pid(void) __dom("db") __entry;

/* Where the database keeps its secret. */
extern const char *db_secret_address(void) __dom("db") __entry;
#endif

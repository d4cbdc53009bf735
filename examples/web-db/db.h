/* db.h - the database domain's public interface (paper Figure 3). */
#ifndef DB_H
#define DB_H
#include <dipc.h>
#include <stddef.h>

/* Answers a query into `out`; returns the row length or -1. A query of
 * "crash" makes the database fault, to show recovery in the caller.
 * db reads the caller's query string and libc's data, which live in the
 * default domain: it needs that grant (web gets none to db). */
int query(const char *sql, char *out, size_t n) __dom("db") __entry
    __iso_callee(reg_confidentiality) __perm("default", read);

/* Where the database keeps its secret; web has no grant to read it. */
extern const char *db_secret_address(void) __dom("db") __entry;
#endif

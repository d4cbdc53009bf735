/* db.c - the database domain: owns a secret and answers queries. */
#include "db.h"
#include <stdio.h>
#include <string.h>

static char secret[64] __dom("db") = "db-password-1234";

int query(const char *sql, char *out, size_t n) {
  if (strcmp(sql, "crash") == 0)
    *(volatile int *)0 = 1; /* a bug in the database */
  int len = snprintf(out, n, "row(%s)", sql);
  return len < (int)n ? len : -1;
}

const char *db_secret_address(void) { return secret; }

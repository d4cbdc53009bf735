/* db-server.c - the database as a process of its own: owns a secret,
 * answers queries, and serves its entries (dipc-run --listen) until it is
 * asked to stop. */
#include "db.h"
#include <dipc/rt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char secret[64] __dom("db") = "db-password-1234";

int query(const char *sql, char *out, size_t n) {
  if (strcmp(sql, "crash") == 0)
    *(volatile int *)0 = 1; /* a bug in the database */
  int len = snprintf(out, n, "row(%s)", sql);
  return len < (int)n ? len : -1;
}

int db_pid(void) { return getpid(); }

const char *db_secret_address(void) { return secret; }

int main(void) {
  printf("db-server: pid %d, serving\n", getpid());
  fflush(stdout);
  int rc = dipc_serve();
  printf("db-server: stopped (dipc_serve returned %d)\n", rc);
  return rc == 0 ? 0 : 1;
}

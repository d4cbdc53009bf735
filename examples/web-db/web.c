/* web.c - the web domain (the program's default domain): serves requests by
 * calling the database across domains. */
#include "db.h"
#include <stdio.h>
#include <string.h>

static int serve(const char *sql)
    __iso_caller(reg_integrity, reg_confidentiality) {
  char row[64];
  int len = query(sql, row, sizeof row);
  if (dipc_errno == DIPC_EFAULT) {
    printf("web: query \"%s\" crashed the db domain; answering 500\n", sql);
    return 500;
  }
  printf("web: query \"%s\" -> %.*s\n", sql, len, row);
  return 200;
}

int main(int argc, char **argv) {
  serve("select 1");
  if (argc > 1 && strcmp(argv[1], "--steal") == 0) {
    const char *secret = db_secret_address();
    printf("web: reading the db secret directly...\n");
    fflush(stdout);
    printf("web: stole \"%s\"\n", secret); /* faults when isolated */
    return 1;
  }
  if (argc > 1 && strcmp(argv[1], "--crash") == 0)
    serve("crash");
  serve("select 2");
  return 0;
}

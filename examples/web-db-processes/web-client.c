/* web-client.c - the web front end as a process of its own: serves
 * requests by calling the database's entries, which another process
 * defines (dipc-run --connect=db=PATH). */
#include "db.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int serve(const char *sql)
    __iso_caller(reg_integrity, reg_confidentiality) {
  char row[64];
  int len = query(sql, row, sizeof row);
  if (dipc_errno == DIPC_EFAULT) {
    printf("web: query \"%s\" crashed the db; answering 500\n", sql);
    return 500;
  }
  printf("web: query \"%s\" -> %.*s\n", sql, len, row);
  return 200;
}

int main(int argc, char **argv) {
  int db = db_pid();
  printf("web: pid %d; db's code ran as pid %d\n", getpid(), db);
  serve("select 1");
  if (argc > 1 && strcmp(argv[1], "--steal") == 0) {
    const char *secret = db_secret_address();
    printf("web: reading the db secret directly...\n");
    fflush(stdout);
    printf("web: stole \"%s\"\n", secret);
    return 1;
  }
  if (argc > 1 && strcmp(argv[1], "--crash") == 0)
    serve("crash");
  serve("select 2");
  return 0;
}

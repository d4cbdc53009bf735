/* client.c - the importing program of the cross-process tests: calls domain
 * db's entries (db.h), which another process defines. argv[1]: that
 * process's pid. What it prints is computed from what the calls return. */
#include "db.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  long server = strtol(argv[1], NULL, 10);
  long sum = db_add(2, 3);
  printf("db_add(2, 3) = %ld\n", sum);
  long pid = db_pid();
  printf("getpid() in db: %s\n", pid == server    ? "the server's"
                                 : pid == getpid() ? "the client's"
                                                   : "another");
  long fd = db_open();
  printf("db_open: %s\n", fd >= 0 ? "opened" : "failed");
  long status_pid = db_status_pid(fd);
  printf("the file read through db's descriptor: %s\n",
         status_pid == server ? "the server's status" : "not the server's");
  printf("db's descriptor in the client's table: %s\n",
         fcntl((int)fd, F_GETFD) >= 0 ? "open" : "not open");
  int own = open("/dev/null", O_RDONLY);
  int high = dup2(own, 1000);
  printf("the client's descriptor in db's table: %s\n",
         high == 1000 && db_fd_open(1000) ? "open" : "not open");
  long wrong = 0;
  for (long i = 0; i < 100000; i++)
    wrong += db_lookup(i % 1000) != (i % 1000) * (i % 1000) + 7;
  printf("100000 lookups, %ld wrong\n", wrong);
  return 0;
}

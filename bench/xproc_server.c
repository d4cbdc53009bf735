/* xproc_server.c - dipc-bench-xproc-server: the process whose entries
 * dipc-bench-xproc calls (xproc_entries.h). Serves until SIGTERM. */
#include "xproc_entries.h"

#include <dipc/rt.h>
#include <stdio.h>
#include <unistd.h>

int proc_low_increment(int x) { return x + 1; }

int proc_high_increment(int x) { return x + 1; }

int proc_syscall_increment(int x) { return getppid() > 0 ? x + 1 : x; }

int main(void) {
  int rc = dipc_serve();
  if (rc != 0)
    fprintf(stderr, "dipc-bench-xproc-server: dipc_serve: %d\n", rc);
  return rc == 0 ? 0 : 1;
}

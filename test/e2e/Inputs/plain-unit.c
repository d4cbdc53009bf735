/* sfi-plain-unit-calls.c: a unit compiled without dIPC (no records, no
 * call magic), linked into an instrumented program. */
#include <signal.h>
#include <stdio.h>

static void on_usr1(int sig) {
  (void)sig;
  puts("plain handler ran");
}

void plain_install(void) { signal(SIGUSR1, on_usr1); }

int plain_twice(int x) { return 2 * x; }

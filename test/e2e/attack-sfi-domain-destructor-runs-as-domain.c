// Functions a domain hands libc to call later, from whatever domain runs
// then, run as that domain (docs/runtime.md §2, "Threads created in a
// domain"): under `sfi` the loader keeps them as proxies into the domain.
// Domain `d` (a read grant on the default domain) registers a thread-
// specific data destructor and an exit handler; threads of the default
// domain end and run the destructor, the program's exit runs the handler,
// both as d (they used to run as the default domain, with its rights).
// With `attack`, the destructor overwrites a default-domain secret: under
// `sfi` the write is refused and the destructor's call ends as a crash of
// d, recovered like any callee's (the thread's exit goes on); under `none`
// (control) the secret is overwritten. The process used to stop instead:
// the thread's alternate signal stack was gone by then, so the fault's
// frame lay on d's stack, a context recovery does not trust. (The
// control runs the build without -fdipc-sfi: this program's sfi build
// crashes under `none`, on main before this change too.)
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi -lpthread
// RUN: %dipc-clang -fdipc -O1 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi attack 2>&1 | FileCheck %s --check-prefix=SFI-ATTACK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t attack 2>&1 | FileCheck %s --check-prefix=NONE-ATTACK
// SFI-COUNT-3: destructor: value 7, ran as d
// SFI-NEXT: exit handler ran as d
// SFI-ATTACK: destructor: value 7, ran as d
// SFI-ATTACK-NEXT: secret: intact
// SFI-ATTACK-NEXT: exit handler ran as d
// NONE-ATTACK: secret: overwritten
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long secret = 0x5ec2e7;
static long seen __dom("d"), ran_as __dom("d"), d_index __dom("d");
static long *target __dom("d");
static pthread_key_t key __dom("d");

static void dtor(void *p) __dom("d");
static void dtor(void *p) {
  seen = (long)p;
  ran_as = dipc_current_domain();
  if (target)
    *target = 666;
}

static const char yes[] __dom("d") = "exit handler ran as d\n";
static const char no[] __dom("d") = "exit handler did NOT run as d\n";
static void bye(void) __dom("d");
static void bye(void) {
  if (dipc_current_domain() == d_index)
    write(1, yes, sizeof yes - 1);
  else
    write(1, no, sizeof no - 1);
}

long d_setup(long *victim) __dom("d") __entry __perm("default", read) {
  d_index = dipc_current_domain();
  target = victim;
  if (pthread_key_create(&key, dtor) != 0 || atexit(bye) != 0)
    return -1;
  return 0;
}
long d_set(void) __dom("d") __entry { return pthread_setspecific(key, (void *)7); }
long d_seen(void) __dom("d") __entry {
  return seen * 10 + (ran_as == d_index && d_index != 0);
}

static void *worker(void *p) {
  (void)p;
  d_set();
  return NULL;
}

int main(int argc, char **argv) {
  int attack = argc > 1 && !strcmp(argv[1], "attack");
  if (d_setup(attack ? &secret : NULL) != 0)
    return 1;
  for (int i = 0; i < 3; i++) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    long r = d_seen();
    printf("destructor: value %ld, %s\n", r / 10,
           r % 10 ? "ran as d" : "did NOT run as d");
    if (attack)
      break;
  }
  if (attack)
    printf("secret: %s\n", secret == 0x5ec2e7 ? "intact" : "overwritten");
  fflush(stdout);
  return 0;
}

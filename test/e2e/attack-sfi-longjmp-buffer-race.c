// A longjmp under `sfi` resumes only the context the thread's last setjmp
// into that buffer saved (attack-sfi-forged-longjmp.c). Here the buffer is
// intact when the loader checks it, but a second thread of `evil` keeps
// flipping its saved return address between the saved value and a forged
// one (glibc's mangling: the pointer guard is in the TCB, which evil may
// read). glibc's longjmp read the buffer again after the check, so the
// forged one got through now and then (after 19 to 61 tries in an
// attack's runs). Now the jump is made from the runtime's checked copy:
// every try resumes as saved or is refused. Control: under `none` the
// flipped address is followed within the tries.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 3000 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 200000 2>&1 | FileCheck %s --check-prefix=HIJACKED
// SFI-NOT: hijacked
// SFI: 3000 tries: 3000 resumed as saved or refused
// HIJACKED: jump hijacked
#include "Inputs/vault.h"
#include "Inputs/pointer-guard.h"

#include <pthread.h>
#include <setjmp.h>
#include <unistd.h>

enum { JB_PC = 7 };

static void hijacked(void) {
  static const char msg[] = "jump hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

static jmp_buf buf;
static volatile long good, forged;
static volatile int armed, started;

static void *flipper(void *arg) {
  (void)arg;
  volatile long *slot = &buf[0].__jmpbuf[JB_PC];
  for (;;) {
    if (!armed)
      continue;
    long g = good, f = forged;
    // Each value held a while: on a loaded machine the two threads seldom
    // run at once, and a forged value held for two stores was then never
    // seen by the `none` control's 200,000 jumps.
    *slot = f;
    for (volatile int spin = 0; spin < 64; spin++)
      ;
    *slot = g;
    for (volatile int spin = 0; spin < 64; spin++)
      ;
  }
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)secret, (void)key, (void)loot;
  if (!started) {
    pthread_t t;
    started = 1;
    if (pthread_create(&t, NULL, flipper, NULL) != 0)
      return -1;
  }
  armed = 0;
  if (_setjmp(buf)) {
    armed = 0;
    return 1; /* resumed as saved */
  }
  good = buf[0].__jmpbuf[JB_PC];
  forged = (long)glibc_mangle((uintptr_t)hijacked);
  armed = 1;
  _longjmp(buf, 1);
}

int main(int argc, char **argv) {
  int tries = argc > 1 ? atoi(argv[1]) : 1000, ok = 0;
  char loot[32];
  for (int i = 0; i < tries; i++) {
    long r = attack("race", NULL, NULL, 0, loot);
    ok += r == 1 || (r == 0 && dipc_errno == DIPC_EFAULT);
  }
  printf("%d tries: %d resumed as saved or refused\n", tries, ok);
  return 0;
}

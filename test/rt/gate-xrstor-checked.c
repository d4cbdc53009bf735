// The gates' XRSTORs (which put back a domain's vector state after runtime
// C code) would write PKRU if their mask had bit 9, so any code that jumps
// straight to one with a chosen mask and area could set its own rights. As
// after a WRPKRU (ERIM), the instruction after each checks the mask: with
// PKRU's bit (here with an area whose header makes XRSTOR load PKRU's init
// value, 0: every key) or anything in edx, the process stops. Every XRSTOR
// of libdipc (`xrstor [rsp+64]`, found in its code; PKU and no-PKU
// variants) is tried, each in a child process.
// RUN: %rt-cc %s -o %t
// RUN: %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t | FileCheck %s
// CHECK: {{[1-9][0-9]*}} XRSTOR sites
// CHECK-NEXT: eax bit 9 (PKRU): every site stopped with "dipc: security violation: a gate's XRSTOR was reached with PKRU in its mask"
// CHECK-NEXT: edx != 0: every site stopped with "dipc: security violation: a gate's XRSTOR was reached with PKRU in its mask"
#include "rt-test.h"

#include <dlfcn.h>

#define MSG                                                                    \
  "dipc: security violation: a gate's XRSTOR was reached with PKRU in its "    \
  "mask"
#define STOPPED "every site stopped with \"" MSG "\""

/* XSAVE area at +64 from rsp, as the gates have it; all zero: XSTATE_BV 0
 * initialises every component in the mask (PKRU's init value is 0). */
static char area[16384] __attribute__((aligned(64)));

static void jump_to(char *site, unsigned eax, unsigned edx) {
  __asm__ volatile("mov %2, %%rsp\n\t"
                   "jmp *%3"
                   :
                   : "a"(eax), "d"(edx), "r"(area), "r"(site)
                   : "memory");
  __builtin_unreachable();
}

static int os_pku(void) {
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo >> 9) & 1;
}

/* Runs the jump in a child; 1 if it stopped with the gate's message. */
static int stops(char *site, unsigned eax, unsigned edx) {
  int fd[2];
  EXPECT_EQ(pipe(fd), 0);
  fflush(stdout);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    dup2(fd[1], 2);
    jump_to(site, eax, edx);
  }
  close(fd[1]);
  char out[512] = "";
  size_t n = 0;
  ssize_t r;
  while (n < sizeof out - 1 &&
         (r = read(fd[0], out + n, sizeof out - 1 - n)) > 0)
    n += (size_t)r;
  out[n] = 0;
  close(fd[0]);
  int status;
  EXPECT(waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(out, MSG))
    return 1;
  /* A PKU variant's panic starts with WRPKRU, which a CPU without PKU
   * refuses: stopped too (without the check, the jump would go on to pop
   * rflags at address 0, SIGSEGV). */
  return !os_pku() && WIFSIGNALED(status) && WTERMSIG(status) == SIGILL;
}

int main(void) {
  /* libdipc's code: the executable mapping of the object holding a gate. */
  Dl_info info;
  EXPECT(dladdr((void *)__dipc_errno_location, &info) && info.dli_fname);
  const char *name = strrchr(info.dli_fname, '/');
  name = name ? name : info.dli_fname;
  FILE *maps = fopen("/proc/self/maps", "r");
  EXPECT(maps);
  char line[512], *sites[64];
  int nsites = 0;
  static const unsigned char xrstor[5] = {0x0f, 0xae, 0x6c, 0x24, 0x40};
  while (fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    char perms[8];
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[2] != 'x' ||
        !strstr(line, name))
      continue;
    for (char *p = (char *)lo; p + 5 <= (char *)hi; p++)
      if (!memcmp(p, xrstor, 5) && nsites < 64)
        sites[nsites++] = p;
  }
  fclose(maps);
  printf("%d XRSTOR sites\n", nsites);
  EXPECT(nsites > 0);
  int pkru = 0, high = 0;
  for (int i = 0; i < nsites; i++) {
    pkru += stops(sites[i], 0x200, 0);
    high += stops(sites[i], 0, 1);
  }
  printf("eax bit 9 (PKRU): %s\n", pkru == nsites ? STOPPED : "NOT STOPPED");
  printf("edx != 0: %s\n", high == nsites ? STOPPED : "NOT STOPPED");
  return 0;
}

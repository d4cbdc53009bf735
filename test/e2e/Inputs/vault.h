/* vault.h - victim and harness of the attack-*.c tests. Domain `vault`
 * holds a secret; main hands the attacker, domain `evil`, the secret's
 * address and protection key (neither is secret), lets it try its escape
 * (attack(), defined by each test) and prints what it brought back. `evil`
 * has a write grant to the default domain, so it can call libc (stdio,
 * errno) freely, as a plugin of the program would. Under mpk the attack must be
 * stopped: an error code, or a fault that returns DIPC_EFAULT to main, and
 * nothing stolen; under `--backend=none` the same run steals the secret. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dipc.h>
#include <dipc/rt.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "pkey-of.h"

static char vault_secret[32] __dom("vault") = "vault-secret-42";
const char *vault_address(void) __dom("vault") __entry { return vault_secret; }

/* The attack: `mode` and `aux` are the test's; copies what it can read of
 * the secret into `loot` (main's stack, which every domain can write). */
long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) __dom("evil") __entry __perm("default", write);

/* Copies the secret byte by byte: the first read faults if it is denied. */
static inline void take(const volatile char *secret, char *loot) {
  for (int i = 0; i < 31 && (i == 0 || secret[i - 1]); ++i)
    loot[i] = secret[i];
}

/* Protection key of the page holding addr; 0 if the kernel shows none. */
static int vault_pkey(const void *addr) {
  int key = pkey_of(addr);
  return key < 0 ? 0 : key;
}

/* The runtime's syscall instruction: its offset in libdipc is the first
 * word of the file `path` (llvm-nm's line); NULL if unreadable. */
static char *runtime_syscall_site(const char *path) {
  FILE *f = fopen(path, "r");
  unsigned long offset = 0;
  int ok = f && fscanf(f, "%lx", &offset) == 1;
  if (f)
    fclose(f);
  Dl_info rt;
  if (!ok || !dladdr((void *)dom_create, &rt))
    return NULL;
  return (char *)rt.dli_fbase + offset;
}

/* pkey_mprotect(addr's page, read/write, key 0) through the runtime's own
 * syscall instruction (`site`, as runtime_syscall_site finds it), with
 * `cookie` in r9 where the filter looks for the runtime's: the raw result
 * (-errno on error). */
static long runtime_pkey_mprotect(char *site, const volatile void *addr,
                                  uint64_t cookie) {
  // Just before the site: the two bytes of `syscall`; after it,
  // `xor r9d, r9d; ret` returns here.
  register uint64_t r9 __asm__("r9") = cookie;
  register long r10 __asm__("r10") = 0; // pkey 0
  long r = SYS_pkey_mprotect;
  __asm__ volatile("call *%[insn]"
                   : "+a"(r), "+r"(r9), "+r"(r10)
                   : [insn] "r"(site - 2), "D"((uintptr_t)addr & -4096),
                     "S"(4096), "d"(PROT_READ | PROT_WRITE)
                   : "rcx", "r11", "memory");
  return r;
}

/* Runs the attack once; each test's main calls it with its mode. */
static int run_attack(const char *mode, void *aux) {
  const char *secret = vault_address();
  char loot[32] = "";
  int key = vault_pkey(secret);
  printf("attacking (%s)\n", mode);
  fflush(stdout);
  long r = attack(mode, aux, secret, key, loot);
  int err = dipc_errno;
  printf("attack returned %ld, dipc_errno %d\n", r, err);
  if (loot[0])
    printf("stole '%s'\n", loot);
  else
    printf("nothing stolen\n");
  return 0;
}

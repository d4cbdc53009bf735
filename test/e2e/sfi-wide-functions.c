// The wide-character functions under `sfi` (loader/sfi_wide.c): LLVM does
// not know them, so nothing is checked before a call; the loader checks
// wmemcpy, wmemmove, wmemset, wmemcmp, wmemchr, wcslen and wcsnlen over
// their ranges, and they work on a domain's own memory as under `none`;
// reaching another domain's memory faults (DIPC_EFAULT); the other wide
// string functions are refused to instrumented code (the call faults),
// and work under `none`.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: own: copy 'wide text', moved 'wwide tex', set 'zzz', cmp 0, chr 5, len 9/4
// CHECK-NEXT: own returned 0, dipc_errno 0
// SFI-NEXT: other returned 0, dipc_errno 14
// NONE-NEXT: other returned 1, dipc_errno 0
// SFI-NEXT: dipc: sfi: wcscpy refused
// SFI-NEXT: refused returned 0, dipc_errno 14
// NONE-NEXT: refused returned 1, dipc_errno 0
#include <dipc.h>
#include <stdio.h>
#include <wchar.h>

static wchar_t vault_text[16] __dom("keeper") = L"keeper's";
const wchar_t *keeper_text(void) __dom("keeper") __entry { return vault_text; }

long own(void) __dom("user") __entry __perm("default", write);
long other(const wchar_t *p) __dom("user") __entry __perm("default", write);
long refused(void) __dom("user") __entry __perm("default", write);

static wchar_t a[16] __dom("user"), b[16] __dom("user");

long own(void) {
  wmemcpy(a, L"wide text", 10);
  wmemcpy(b, a, 10);
  wmemmove(b + 1, b, 8);
  wchar_t set[4];
  wmemset(set, L'z', 3);
  set[3] = 0;
  const wchar_t *chr = wmemchr(a, L't', 9);
  printf("own: copy '%ls', moved '%ls', set '%ls', cmp %d, chr %d, len %zu/%zu\n",
         a, b, set, wmemcmp(a, L"wide text", 10), (int)(chr - a), wcslen(a),
         wcsnlen(a, 4));
  return 0;
}

long other(const wchar_t *p) {
  wchar_t copy[16];
  wmemcpy(copy, p, 8);
  return copy[0] != 0;
}

long refused(void) {
  wcscpy(b, L"copied");
  return b[0] == L'c';
}

int main(void) {
  long r = own();
  printf("own returned %ld, dipc_errno %d\n", r, dipc_errno);
  fflush(stdout);
  r = other(keeper_text());
  printf("other returned %ld, dipc_errno %d\n", r, dipc_errno);
  fflush(stdout);
  r = refused();
  printf("refused returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}

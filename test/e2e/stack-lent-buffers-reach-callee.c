// What a caller lends on purpose still reaches its callee, under mpk as
// under none, without any grant on the caller's domain: a local buffer the
// caller passes by reference (examples/web-db's `row`) is an escaping
// local, so it lives on the thread's unsafe stack, which every domain
// shares. Covered: the default domain lending to a domain; a buffer passed
// through a helper before the call; a named domain lending its own local
// and forwarding its caller's buffer to a third domain; a struct read and
// written by reference. What the callee can reach is exactly that: the
// caller's escaping locals (here `neighbour`, another escaping local of
// the same caller, is reachable from the lent buffer), never its other
// locals, saved registers or return address (the stack-callee-* tests).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -O0 %s -o %t.o0
// RUN: %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN
// PLAIN: forwarded: 'fwd:row(nested)' 15, dipc_errno 0
// CHECK: direct: 'row(select 1)' 13, dipc_errno 0
// CHECK-NEXT: through a helper: 'row(select 2)' 13, dipc_errno 0
// CHECK-NEXT: forwarded: 'fwd:row(nested)' 15, dipc_errno 0
// CHECK-NEXT: by struct: sum 7, out 42, dipc_errno 0
// CHECK-NEXT: neighbour reachable: 1
#include <dipc.h>
#include <stdio.h>
#include <string.h>

/* No grant to the default domain: no libc (stores through a volatile
 * pointer, so that no loop becomes a call to memcpy), no string constants
 * of the caller's; it reaches only what it is lent. */
long format_row(const char *q, long qlen, char *buf, long n) __dom("fmt")
    __entry {
  volatile char *out = buf;
  const char *pre = "row(";
  long len = 0;
  for (long i = 0; i < 4 && len < n; ++i)
    out[len++] = pre[i];
  for (long i = 0; i < qlen && len < n; ++i)
    out[len++] = q[i];
  if (len < n)
    out[len++] = ')';
  if (len < n)
    out[len] = 0;
  return len;
}

struct pair {
  long a, b, out;
};
long add_pair(struct pair *p) __dom("fmt") __entry {
  p->out = 42;
  return p->a + p->b;
}

/* Whether one of the 16 words after a 64-byte buffer, read from the
 * buffer itself, holds the mark: another escaping local of the caller
 * laid out next to it on the unsafe stack. */
long peek_after(const long *buf, long mark) __dom("fmt") __entry {
  for (long i = 8; i < 24; ++i)
    if (((volatile const long *)buf)[i] == mark)
      return 1;
  return 0;
}

/* A domain that lends its own local to `fmt` and forwards the buffer its
 * caller lent it. */
long forward(char *out, long n) __dom("mid") __entry __perm("fmt", call) {
  char query[8];
  const char *text = "nested";
  for (int i = 0; i < 6; ++i)
    ((volatile char *)query)[i] = text[i];
  out[0] = 'f', out[1] = 'w', out[2] = 'd', out[3] = ':';
  return 4 + format_row(query, 6, out + 4, n - 4);
}

/* The query goes by reference too: a local copy (the literal itself is
 * default-domain memory, which fmt may not read). */
__attribute__((noinline)) static long ask(const char *text, char *out,
                                          long n) {
  char q[16];
  strcpy(q, text);
  return format_row(q, (long)strlen(q), out, n);
}

int main(void) {
  char q[16] = "select 1", row[64];
  long len = format_row(q, 8, row, sizeof row);
  printf("direct: '%s' %ld, dipc_errno %d\n", row, len, dipc_errno);

  char row2[64];
  len = ask("select 2", row2, sizeof row2);
  printf("through a helper: '%s' %ld, dipc_errno %d\n", row2, len,
         dipc_errno);

  char row3[64];
  len = forward(row3, sizeof row3);
  printf("forwarded: '%s' %ld, dipc_errno %d\n", row3, len, dipc_errno);

  struct pair p = {3, 4, 0};
  long sum = add_pair(&p);
  printf("by struct: sum %ld, out %ld, dipc_errno %d\n", sum, p.out,
         dipc_errno);

  long lent[8] = {0}, neighbour[8];
  for (int i = 0; i < 8; ++i)
    neighbour[i] = 0x6e6e6e6e + i;
  long reachable = peek_after(lent, 0x6e6e6e6e);
  printf("neighbour reachable: %ld\n", reachable);
  __asm__ volatile("" : : "r"(neighbour) : "memory"); /* escapes */
  return 0;
}

// Under `sfi` no checked write lands on a callee stack: the locals a check
// may reach live in the stack's data mirror (dipc/sfi.h, "Data frames";
// llvm-passes/SfiDataFrame.cpp). What a domain does with such locals
// must work as before, on every thread and across recovery: an array
// indexed at run time, a local copied with memcpy and memset (expanded
// inline when the local stays in the frame), a va_list handed to an
// instrumented function and to libc, a byval struct written at a run-time
// index, a jmp_buf that longjmp returns through, locals of a recursion
// 2,000 calls deep, a crash in another domain's call whose frames used
// its mirror (the next call's frames reuse it), and four threads. Each line is computed; the
// same binary prints the same lines under `none`, where nothing moves.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t > %t.sfi 2>&1
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>/dev/null > %t.none
// RUN: FileCheck %s < %t.sfi
// RUN: diff %t.sfi %t.none
// CHECK: indexed: 4950
// CHECK-NEXT: copies: 3072 255
// CHECK-NEXT: va_list: 'a=1 b=two c=3.5' 'x:7 y:8 z:9'
// CHECK-NEXT: byval: 67 1
// CHECK-NEXT: longjmp: 7 jumps, total 28
// CHECK-NEXT: recursion: 2001000
// CHECK-NEXT: crash: dipc_errno 14, then 4950
// CHECK-NEXT: threads: 4 x 4950
// CHECK-NEXT: work returned 0, dipc_errno 0
#include <dipc.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

long work(int n) __dom("work") __entry __perm("default", write);
int crashy(int n, volatile int *p) __dom("crash") __entry;

static volatile int zero;

// An array indexed at run time: its stores are checked.
__attribute__((noinline)) static int indexed(int n) {
  int a[100];
  for (int i = 0; i < n; i++)
    a[(i * 7) % n] = (i * 7) % n;
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  return sum;
}

__attribute__((noinline)) static void copies(char *out) {
  char small[64], big[3072];
  memset(small, 0xff, sizeof small);
  memset(big, 1, sizeof big);
  int sum = 0;
  for (int i = 0; i < (int)sizeof big; i += 1 + zero)
    sum += big[i];
  char moved[64];
  memcpy(moved, small, sizeof moved);
  sprintf(out, "%d %d", sum, (unsigned char)moved[63]);
}

// Instrumented code and libc both walk a va_list of a caller's.
__attribute__((noinline)) static int sum_va(int n, va_list ap) {
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += va_arg(ap, int);
  return sum;
}

__attribute__((noinline, format(printf, 3, 4))) static void
format_into(char *out, size_t room, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out, room, fmt, ap);
  va_end(ap);
}

__attribute__((noinline)) static int summed(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int sum = sum_va(n, ap);
  va_end(ap);
  return sum;
}

struct pair {
  int v[8];
};

// Written at a run-time index: this call's copy, not the caller's.
__attribute__((noinline)) static int byval(struct pair p, int i) {
  p.v[i] = 60;
  int sum = 0;
  for (int k = 0; k < 8; k++)
    sum += p.v[k];
  return sum;
}

__attribute__((noinline)) static void jump(jmp_buf env, int v) {
  longjmp(env, v);
}

__attribute__((noinline)) static int jumps(void) {
  jmp_buf env;
  volatile int total = 0, count = 0;
  int v = setjmp(env);
  total += v;
  if (v < 7) {
    count++;
    jump(env, v + 1);
  }
  return count * 100 + total;
}

__attribute__((noinline)) static long recurse(int depth) {
  int local[4];
  for (int i = 0; i < 4; i += 1 + zero)
    local[i] = depth;
  if (depth == 0)
    return 0;
  return recurse(depth - 1) + local[depth % 4];
}

int crashy(int n, volatile int *p) {
  int a[100];
  for (int i = 0; i < n; i++)
    a[(i * 3) % n] = i;
  return a[n - 1] + *p;
}

static void *thread_main(void *arg) {
  *(int *)arg = indexed(100);
  return NULL;
}

long work(int n) {
  char text[64], text2[64];
  printf("indexed: %d\n", indexed(n));
  copies(text);
  printf("copies: %s\n", text);
  format_into(text, sizeof text, "a=%d b=%s c=%.1f", 1, "two", 3.5);
  snprintf(text2, sizeof text2, "x:%d y:%d z:%d", summed(2, 3, 4),
           summed(1, 8), summed(3, 2, 3, 4));
  printf("va_list: '%s' '%s'\n", text, text2);
  struct pair p = {{1, 1, 1, 1, 1, 1, 1, 1}};
  int in_copy = byval(p, n % 8);
  printf("byval: %d %d\n", in_copy, p.v[n % 8]);
  int j = jumps();
  printf("longjmp: %d jumps, total %d\n", j / 100, j % 100);
  printf("recursion: %ld\n", recurse(2000));
  int r = crashy(n, NULL);
  int errno_after = dipc_errno;
  printf("crash: dipc_errno %d, then %d\n", errno_after,
         r == 0 ? indexed(n) : -1);
  pthread_t t[4];
  int out[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, thread_main, &out[i]);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  int same = 1;
  for (int i = 1; i < 4; i++)
    same &= out[i] == out[0];
  printf("threads: %d x %d\n", same ? 4 : 0, out[0]);
  return 0;
}

int main(void) {
  long r = work(100);
  printf("work returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}

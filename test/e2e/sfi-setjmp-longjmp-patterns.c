// The jumps programs make still work under `sfi`, where a longjmp must
// resume the context the thread's last setjmp into that buffer saved
// (attack-sfi-forged-longjmp.c): out of deep recursion; nested handlers
// (an error unwinds to the innermost, which rethrows outward, as Lua's
// protected calls do); 40 live contexts at once (more than the runtime's
// 32 records: the oldest go, and still jumping to the newest works); a
// buffer reused by 10,000 setjmps in a loop; siglongjmp out of a signal
// handler; a jump in a second thread; jumps inside a named domain's entry.
// Each line is computed from what the jumps did. The same binary under
// `none` prints the same.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s
// CHECK: deep: jumped out of depth 500 with 500
// CHECK-NEXT: nested: innermost caught 1, rethrown to level 0 as 4
// CHECK-NEXT: many: 40 live contexts, jump to the newest returned 40
// CHECK-NEXT: loop: 10000 jumps through one buffer
// CHECK-NEXT: signal: siglongjmp out of the handler returned 10
// CHECK-NEXT: thread: jumped with 77
// CHECK-NEXT: domain: entry jumped 3 times
#include <dipc.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static jmp_buf deep_buf;

__attribute__((noinline)) static void descend(int depth) {
  if (depth == 500)
    longjmp(deep_buf, depth);
  descend(depth + 1);
  __asm__ volatile("" ::: "memory"); /* not a tail call */
}

static jmp_buf *levels[4];

__attribute__((noinline)) static int level(int n) {
  jmp_buf here;
  levels[n] = &here;
  int v = setjmp(here);
  if (v == 0) {
    if (n == 3)
      longjmp(here, 1); /* the error, caught innermost */
    return level(n + 1);
  }
  if (n == 0)
    return v;
  if (n == 3)
    printf("nested: innermost caught %d, ", v);
  longjmp(*levels[n - 1], v + 1); /* rethrown outward */
}

__attribute__((noinline)) static int many(int n, jmp_buf *newest) {
  jmp_buf b;
  if (n == 40) {
    if (setjmp(*newest) == 0)
      longjmp(*newest, n);
    return n;
  }
  if (setjmp(b) == 0)
    return many(n + 1, newest);
  return -1;
}

static sigjmp_buf sig_buf;
static void on_usr1(int sig) {
  (void)sig;
  siglongjmp(sig_buf, 10);
}

static void *thread_main(void *arg) {
  (void)arg;
  jmp_buf b;
  int v = setjmp(b);
  if (v == 0)
    longjmp(b, 77);
  return (void *)(long)v;
}

long jumps(int n) __dom("worker") __entry;
long jumps(int n) {
  volatile int count = 0;
  jmp_buf b;
  if (setjmp(b) < n) {
    count++;
    longjmp(b, count);
  }
  return count;
}

int main(void) {
  int v = setjmp(deep_buf);
  if (v == 0)
    descend(0);
  printf("deep: jumped out of depth 500 with %d\n", v);

  printf("rethrown to level 0 as %d\n", level(0));

  jmp_buf newest;
  printf("many: 40 live contexts, jump to the newest returned %d\n",
         many(0, &newest));

  jmp_buf one;
  volatile int jumped = 0;
  for (int i = 0; i < 10000; ++i)
    if (setjmp(one) == 0)
      longjmp(one, 1);
    else
      jumped++;
  printf("loop: %d jumps through one buffer\n", jumped);

  signal(SIGUSR1, on_usr1);
  v = sigsetjmp(sig_buf, 1);
  if (v == 0)
    raise(SIGUSR1);
  printf("signal: siglongjmp out of the handler returned %d\n", v);

  pthread_t t;
  void *r;
  pthread_create(&t, NULL, thread_main, NULL);
  pthread_join(t, &r);
  printf("thread: jumped with %ld\n", (long)r);

  printf("domain: entry jumped %ld times\n", jumps(3));
  return 0;
}

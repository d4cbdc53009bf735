// The control-flow checks that -fdipc-sfi compiles in (include/dipc/sfi.h,
// "Control flow"), run against the stand-in backend
// (Inputs/sfi-fake-backend.c, no libdipc): calls, recursion, an indirect
// call of an instrumented function, a computed goto to its own labels and
// a longjmp out of nested frames all run (the frames the longjmp left are
// dropped by the return slow path, once); a return address overwritten in
// the stack is refused at the return; an indirect call of a function
// without the magic (puts, uninstrumented) goes to the call slow path; a
// computed goto to an address that is none of the function's labels fails,
// and so does one through a table of labels (an interpreter's dispatch,
// checked by bounding the index) with an index past its end.
// The same at -O0. Control: without -fdipc-sfi the overwritten return
// address is followed.
// RUN: %clang -O2 -I %dipc-include -c %S/Inputs/sfi-fake-backend.c -o %t.fake.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -c %s -o %t.o
// RUN: %clang %t.o %t.fake.o -o %t
// RUN: %t 0 | FileCheck %s --check-prefix=OK
// RUN: not %t 1 | FileCheck %s --check-prefix=RET
// RUN: not %t 2 | FileCheck %s --check-prefix=CALL
// RUN: not %t 3 | FileCheck %s --check-prefix=GOTO
// RUN: not %t 4 | FileCheck %s --check-prefix=TABLE
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 -c %s -o %t.o0.o
// RUN: %clang %t.o0.o %t.fake.o -o %t.o0
// RUN: %t.o0 0 | FileCheck %s --check-prefix=OK
// RUN: not %t.o0 1 | FileCheck %s --check-prefix=RET
// RUN: not %t.o0 2 | FileCheck %s --check-prefix=CALL
// RUN: not %t.o0 3 | FileCheck %s --check-prefix=GOTO
// RUN: not %t.o0 4 | FileCheck %s --check-prefix=TABLE
// RUN: %dipc-clang -fdipc -O2 -c %s -o %t.plain.o
// RUN: %clang %t.plain.o %t.fake.o -o %t.plain
// RUN: %t.plain 1 | FileCheck %s --check-prefix=UNCHECKED
// OK: fib 6765
// OK-NEXT: indirect 42
// OK-NEXT: goto 2
// OK-NEXT: interpreted 7
// OK-NEXT: longjmp 1, return slow paths 1
// OK-NEXT: done, return slow paths 1
// RET: smashing
// RET-NEXT: fake: return to 0x{{[0-9a-f]+}} refused
// RET-NOT: gadget
// CALL: fake: call of 0x{{[0-9a-f]+}} refused
// CALL-NOT: calling
// GOTO: fake: control-flow fault 3 at 0x{{[0-9a-f]+}}
// GOTO-NOT: landed
// TABLE: fake: control-flow fault 3 at 0x{{[0-9a-f]+}}
// TABLE-NOT: interpreted
// UNCHECKED: smashing
// UNCHECKED-NEXT: gadget
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

extern int ret_slow_calls;

__attribute__((noinline)) static int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int answer(int x) { return x + 1; }

static int (*volatile answer_ptr)(int) = answer;

__attribute__((noinline)) static int dispatch(int i, void *volatile forged) {
  static void *const labels[] = {&&zero, &&one, &&two};
  void *to = forged ? forged : labels[i];
  goto *to;
zero:
  return 0;
one:
  return 1;
two:
  printf("goto %d\n", i);
  return 2;
}

// ops: 0 stop, 1 add one, 2 double; an index past the table's end is
// an attack (a byte the program does not mask).
__attribute__((noinline)) static int interpret(const unsigned char *code) {
  static const void *const ops[] = {&&stop, &&inc, &&dbl};
  int acc = 0;
  goto *ops[*code++];
stop:
  return acc;
inc:
  acc += 1;
  goto *ops[*code++];
dbl:
  acc *= 2;
  goto *ops[*code++];
}

static jmp_buf env;

__attribute__((noinline)) static void deep(int n) {
  if (n == 0)
    longjmp(env, 1);
  deep(n - 1);
  printf("not reached\n");
}

// Left by the jump (after a longjmp, the jumper's frames are stale).
__attribute__((noinline)) static int jump_out(void) {
  if (setjmp(env))
    return 1;
  deep(5);
  return 0;
}

__attribute__((noinline)) static void gadget(void) {
  printf("gadget\n");
  fflush(stdout);
  exit(0);
}

__attribute__((noinline)) static void smash(void **slot, void *to) {
  *slot = to;
}

__attribute__((noinline)) static void victim(void) {
  printf("smashing\n");
  smash((void **)__builtin_frame_address(0) + 1, (void *)gadget);
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  if (mode == 1) {
    victim();
    printf("returned\n");
    return 0;
  }
  if (mode == 2) {
    int (*volatile fp)(const char *) = puts;
    fp("calling");
    return 0;
  }
  if (mode == 4) {
    static const unsigned char evil[] = {1, 2, 40, 0};
    printf("interpreted %d\n", interpret(evil));
    return 0;
  }
  if (mode == 3) {
    dispatch(0, (void *)gadget);
    printf("landed\n");
    return 0;
  }
  printf("fib %d\n", fib(20));
  printf("indirect %d\n", answer_ptr(41));
  dispatch(2, 0);
  static const unsigned char prog[] = {1, 2, 1, 2, 1, 0};
  printf("interpreted %d\n", interpret(prog));
  int j = jump_out();
  printf("longjmp %d, return slow paths %d\n", j, ret_slow_calls);
  printf("done, return slow paths %d\n", ret_slow_calls);
  return 0;
}

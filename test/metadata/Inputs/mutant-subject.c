/* A program with every kind of dIPC record, for metadata-mutants.py: two
 * named domains (one calling the other, so its slot lives in its own data
 * pages), an entry called through its address (an anycall record), grants
 * of each permission, and output computed from every call. */
#include <dipc.h>
#include <stdio.h>

int scale(int v) __dom("calc") __entry __iso_callee(reg_confidentiality);
int twice(int v) __dom("front") __entry __iso_caller(reg_integrity);
int front_total(void) __dom("front") __entry;

static int calc_calls __dom("calc");
int scale(int v) {
  ++calc_calls;
  return v * 3 + calc_calls;
}

static int front_sum __dom("front") __perm("calc", call)
    __perm("default", read);
int twice(int v) {
  front_sum += scale(v) + scale(v + 1);
  return front_sum;
}
int front_total(void) { return front_sum; }

int main(void) {
  int (*through_address)(int) = scale;
  int a = twice(2);
  int b = through_address(5);
  int c = twice(b);
  printf("twice=%d address=%d again=%d total=%d\n", a, b, c, front_total());
  return 0;
}

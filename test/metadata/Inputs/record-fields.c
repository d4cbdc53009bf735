/* A record of every kind whose fields hold values that tell them apart:
 * flags, signature members, policies and the permission all differ. */
#include <dipc.h>

static long total __dom("db");

/* 6 integer and 1 vector argument in registers, the 7th integer argument
 * on the stack (8 bytes), a double result; db may write default's data. */
double mix(long a, long b, long c, long d, long e, long f, long g, double x)
    __dom("db") __entry __iso_callee(reg_integrity, stack_confidentiality)
        __perm("default", write);
double mix(long a, long b, long c, long d, long e, long f, long g,
           double x) {
  total += a + b + c + d + e + f + g;
  return x + total;
}

long peek(void) __dom("db") __entry;
long peek(void) { return total; }

long (*peek_fn)(void) = peek; /* an anycall record */

int main(void) __iso_caller(reg_confidentiality) {
  return (int)mix(1, 2, 3, 4, 5, 6, 7, 0.5) + (int)peek_fn();
}

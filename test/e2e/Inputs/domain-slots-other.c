// The second object of domain-slots-two-objects.c: more of domain mid (a
// caller of leaf, like the first object) and leaf itself.
#include <dipc.h>

long leaf_inc(long v) __dom("leaf") __entry { return v + 1; }
long mid_b(long v) __dom("mid") __entry { return leaf_inc(v) * 100; }
long mid_peek(const long *p) __dom("mid") __entry {
  return *(const volatile long *)p;
}

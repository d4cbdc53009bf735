/* A function with a cross-domain call, inlinable from another object under
 * LTO; and the entry it calls. */
#include <dipc.h>

long get(long) __dom("db") __entry;
long get(long x) { return x; }
long carrier(long x) __iso_caller(reg_confidentiality) { return get(x); }

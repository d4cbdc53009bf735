/* The default domain: calls one db entry, takes the address of another. */
#include <dipc.h>

long store_add(long v) __dom("db") __entry __iso_callee(reg_integrity);
long store_peek(const long *p) __dom("db") __entry;

long (*peek_fn)(const long *) = store_peek;

int main(void) { return (int)store_add(1) + (int)peek_fn(0); }

/* A library built without -fdipc: uninstrumented code, which would read
 * any address for whoever calls it. */
long peek(const char *p) { return *(const volatile char *)p; }

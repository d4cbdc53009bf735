/* Included by two translation units: each emits a grant record for the
 * same __perm (grant-printed-once.test). */
#include <dipc.h>
long twice_get(long x) __dom("db") __perm("default", read) __entry;
long twice_put(long x) __dom("db") __perm("default", read) __entry;

/* A second object of domain db, with a grant and an entry whose address the
 * default domain takes. */
#include <dipc.h>

static long total __dom("db");

long store_add(long v) __dom("db") __entry __iso_callee(reg_integrity);
long store_add(long v) { return total += v; }

/* db may read the default domain's data (an APL entry). */
long store_peek(const long *p) __dom("db") __perm("default", read) __entry;
long store_peek(const long *p) { return *p; }

/* Domain lib's first object: an entry and zero-fill data, no initialised
 * data (like a library's wrapper). */
#include <dipc.h>
static int calls __dom("lib");
int lib_counter_next(void) __dom("lib");
__dom("lib") __entry int lib_next(void) { ++calls; return lib_counter_next(); }

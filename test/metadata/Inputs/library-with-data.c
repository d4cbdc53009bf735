/* Domain lib's second object: initialised data (dipc_data_lib). */
#include <dipc.h>
static int counter __dom("lib") = 41;
__dom("lib") int lib_counter_next(void) { return ++counter; }

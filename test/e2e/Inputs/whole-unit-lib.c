// A "third-party library" without dIPC annotations but its entry points,
// compiled with -fdipc-domain=lib by fdipc-domain-library-isolated.c.
#include <dipc.h>

char lib_secret[32] = "lib-secret-42";
static int calls;

static int bump(int x) { return x + ++calls; }

__entry int lib_call(int x) { return bump(x) + (lib_secret[0] == 'l'); }

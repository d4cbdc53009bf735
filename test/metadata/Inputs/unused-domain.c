/* Domain db's only function is never referenced. */
#include <dipc.h>

void db_unused(void) __dom("db");
void db_unused(void) {}

int main(void) { return 0; }

#include <dipc.h>
int query(const char *sql) __dom("db") __entry __iso_callee(reg_confidentiality);

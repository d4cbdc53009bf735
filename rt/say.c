/* say.c - dipc_say (say.h). */
#include "say.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void dipc_say(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0)
    (void)!write(STDERR_FILENO, line,
                 (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* say.c - loader_say (say.h). */
#include "say.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void loader_say(const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0)
    (void)!write(STDERR_FILENO, line,
                 (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* say.h - one line to stderr, formatted, without stdio's streams (whose
 * state a domain may share) and without allocating: for reports made
 * where the loader stops a call or the process (say.c). */
#ifndef DIPC_LOADER_SAY_H
#define DIPC_LOADER_SAY_H

__attribute__((format(printf, 1, 2))) void loader_say(const char *fmt, ...);

#endif

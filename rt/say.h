/* say.h - one line on stderr, formatted into a stack buffer and written
 * straight to fd 2: another thread may hold stdio's lock, and a domain may
 * share stdio's state (say.c). For libdipc and the loader, which compiles
 * say.c in too. */
#ifndef DIPC_RT_SAY_H
#define DIPC_RT_SAY_H

__attribute__((visibility("hidden"), format(printf, 1, 2))) void
dipc_say(const char *fmt, ...);

#endif

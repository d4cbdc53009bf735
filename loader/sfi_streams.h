/* sfi_streams.h - the stream kinds instrumented code may hand stdio
 * (sfi_streams.c). */
#ifndef DIPC_LOADER_SFI_STREAMS_H
#define DIPC_LOADER_SFI_STREAMS_H

#include <stdio.h>

#include "stream_memory.h"

/* Under sfi, at start: learns the vtables of the byte streams libc makes. */
void sfi_streams_init(void);
/* A stream libc just made for instrumented code (f, or NULL: failed),
 * inside the stream window when `entered` (stream_memory.h): recorded
 * with the running domain (and a cookie stream's cookie and functions).
 * Returns what the domain holds: a decoy (below) when f lies in runtime
 * memory, f itself where the window is not available; NULL when f was
 * NULL, or (f closed with `close`, errno set) when there is no room: past
 * 1024 open streams of instrumented code (one not recorded would escape
 * the exit check), past the window's memory, or no memory for a decoy.
 *
 * A decoy is a FILE in the domain's heap that no libc function is ever
 * handed: every stdio interceptor takes it for the stream it stands for
 * (sfi_stream_of), whose state (buffer pointers, vtable, cookie) no
 * domain can reach. Its read and write pointers stay NULL, so glibc's
 * inline getc_unlocked and putc_unlocked call __uflow and __overflow with
 * it; its flags follow the stream's after each call (sfi_stream_sync), for
 * the inline feof_unlocked and ferror_unlocked. */
enum { SFI_STREAM_PLAIN, SFI_STREAM_COOKIE, SFI_STREAM_FMEM };
FILE *sfi_stream_made(FILE *f, int kind, int entered, int (*close)(FILE *));
/* The stream libc is to use for f: a decoy's, else f. For instrumented
 * code (checked) f must be writable by the running domain, and the
 * stream's spans (and an fmemopen buffer) too; a FILE not a decoy is
 * checked whole (sfi_check_file). */
FILE *sfi_stream_of(FILE *f, int checked);
/* After libc used `real` for `held`: a decoy's flags follow. */
void sfi_stream_sync(FILE *held, FILE *real);
/* fclose or pclose (close) of what f stands for: a decoy's stream in the
 * window, then the decoy itself. */
int sfi_stream_close(FILE *f, int checked, int (*close)(FILE *));
/* Under sfi, for instrumented code: sfi_check_file on every open stream
 * (fflush(NULL) and exit flush them all, a domain's tampered ones too:
 * an attack round's fflush(NULL) wrote vault's secret into a pipe). */
void sfi_check_all_streams(void);
/* Whether f, readable as a FILE and its vtable, is a byte stream of a kind
 * libc makes. */
int sfi_stream_known(FILE *f);

/* In an interceptor of a call that makes a stream: for instrumented code
 * the call runs in the stream window (stream_memory.h), so that libc's
 * state for it is runtime memory, and the stream is recorded (the domain
 * gets a decoy); another caller's as libc made it. */
#define OPENED(kind, call, close)                                              \
  do {                                                                         \
    if (!SFI_CHECKED())                                                        \
      return call;                                                             \
    int w_ = stream_memory_enter();                                            \
    FILE *f_ = call;                                                           \
    stream_memory_leave(w_);                                                   \
    return sfi_stream_made(f_, kind, w_, close);                               \
  } while (0)

/* A call on stream f: the stream libc is to use for it (checked for
 * instrumented code) as `r`, then a decoy's flags follow. */
#define ON_STREAM(type, f, call)                                               \
  do {                                                                         \
    FILE *r = sfi_stream_of(f, SFI_CHECKED());                                 \
    type v_ = call;                                                            \
    sfi_stream_sync(f, r);                                                     \
    return v_;                                                                 \
  } while (0)
#define ON_STREAM_VOID(f, call)                                                \
  do {                                                                         \
    FILE *r = sfi_stream_of(f, SFI_CHECKED());                                 \
    call;                                                                      \
    sfi_stream_sync(f, r);                                                     \
  } while (0)

#endif

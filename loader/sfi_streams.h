/* sfi_streams.h - the stream kinds instrumented code may hand stdio
 * (sfi_streams.c). */
#ifndef DIPC_LOADER_SFI_STREAMS_H
#define DIPC_LOADER_SFI_STREAMS_H

#include <stdio.h>

/* Under sfi, at start: learns the vtables of the byte streams libc makes. */
void sfi_streams_init(void);
/* Learns the vtable of a stream libc just made (popen's). */
void sfi_stream_learn(FILE *f);
/* A stream libc just made for instrumented code, recorded with the
 * running domain (and a cookie stream's cookie and functions); forgotten
 * when it is closed. 0, or -1 with EMFILE when there is no room (the
 * caller closes the stream and fails: a stream not recorded would not be
 * checked at exit). */
enum { SFI_STREAM_PLAIN, SFI_STREAM_COOKIE, SFI_STREAM_FMEM };
int sfi_stream_made(FILE *f, int kind);
void sfi_stream_closing(FILE *f);
/* Under sfi, for instrumented code: sfi_check_file on every open stream
 * (fflush(NULL) and exit flush them all, a domain's tampered ones too:
 * an attack round's fflush(NULL) wrote vault's secret into a pipe). */
void sfi_check_all_streams(void);
/* Whether f, readable as a FILE and its vtable, is a byte stream of a kind
 * libc makes. */
int sfi_stream_known(FILE *f);

#endif

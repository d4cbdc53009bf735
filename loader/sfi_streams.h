/* sfi_streams.h - the stream kinds instrumented code may hand stdio
 * (sfi_streams.c). */
#ifndef DIPC_LOADER_SFI_STREAMS_H
#define DIPC_LOADER_SFI_STREAMS_H

#include <stdio.h>

/* Under sfi, at start: learns the vtables of the byte streams libc makes. */
void sfi_streams_init(void);
/* Learns the vtable of a stream libc just made (popen's). */
void sfi_stream_learn(FILE *f);
/* A cookie stream libc just made for instrumented code (fopencookie's;
 * fmemopen's, fmem 1), recorded with its cookie and functions; forgotten
 * when it is closed. */
void sfi_stream_made(FILE *f, int fmem);
void sfi_stream_closing(FILE *f);
/* Whether f, readable as a FILE and its vtable, is a byte stream of a kind
 * libc makes. */
int sfi_stream_known(FILE *f);

#endif

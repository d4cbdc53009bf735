/* x86len.h - x86-64 instruction lengths, to find instruction boundaries. */
#ifndef DIPC_LOADER_X86LEN_H
#define DIPC_LOADER_X86LEN_H

#include <stddef.h>

/* Length of the instruction at code (at most avail bytes), or -1 if it is
 * not one this decoder knows. *opcode_at (if not NULL): offset of its
 * opcode (0x0f escape included), after prefixes and REX. */
int x86_insn_length(const unsigned char *code, size_t avail, size_t *opcode_at);

#endif

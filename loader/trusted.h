/* trusted.h - the system libc and dynamic linker, and their PKRU writes. */
#ifndef DIPC_LOADER_TRUSTED_H
#define DIPC_LOADER_TRUSTED_H

#include <stdint.h>

/* 1 if the file with this device and inode is the system's libc or dynamic
 * linker (a root-owned file only root may write). */
int trusted_file(unsigned dev_major, unsigned dev_minor, unsigned long ino);

/* Rewrites every PKRU- or fs/gs-writing instruction of the trusted object
 * mapped executable at [lo, hi) to a trap, in `copy` (its bytes, to be
 * installed in its place). Returns 0, or -1 after printing why (a byte
 * sequence that is not an instruction of a function). */
int trusted_rewrite(uintptr_t lo, uintptr_t hi, unsigned char *copy,
                    const char *path);

#endif

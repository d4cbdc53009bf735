/* pointer-guard.h - glibc's mangling of the code addresses it keeps in a
 * jmp_buf (and a cleanup buffer): rol 0x11 of the value xor the thread's
 * pointer guard, which lies in the TCB (offset 0x30, pthread_self() on
 * x86-64), default-domain memory an attacker with a write grant on it
 * reads. For the attack tests that forge such buffers. */
#ifndef DIPC_TEST_POINTER_GUARD_H
#define DIPC_TEST_POINTER_GUARD_H

#include <pthread.h>
#include <stdint.h>

static inline uintptr_t glibc_mangle(uintptr_t v) {
  uintptr_t guard = *(const uintptr_t *)((const char *)pthread_self() + 0x30);
  v ^= guard;
  return (v << 0x11) | (v >> (64 - 0x11));
}

#endif

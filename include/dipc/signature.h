/* signature.h - an entry point's signature and policy, as recorded by the
 * compiler (ELF metadata) and checked by the runtime (entry_request, P4).
 * Shared by C (rt/, loader/) and C++ (llvm-passes/, tools/). */
#ifndef DIPC_SIGNATURE_H
#define DIPC_SIGNATURE_H

#include <stdint.h>

/* Limits of the x86-64 SysV calling convention that proxies support. */
#define DIPC_MAX_INT_ARGS 6
#define DIPC_MAX_VEC_ARGS 8
#define DIPC_MAX_STACK_BYTES 4096

/* What a proxy must carry across a domain switch: argument registers in
 * order (rdi, rsi, rdx, rcx, r8, r9 / xmm0-7), bytes of stack arguments (the
 * SysV argument area above the return address: 7th integer argument on,
 * structs passed in memory, long double), and result registers (rax, rdx /
 * xmm0, xmm1 / st0 for a long double). Two signatures match when every
 * field is equal. */
struct dipc_signature {
  uint8_t int_args;     /* 0..6 */
  uint8_t vec_args;     /* 0..8 */
  uint8_t int_results;  /* 0..2 */
  uint8_t vec_results;  /* 0..2 */
  uint16_t stack_bytes; /* multiple of 8, at most DIPC_MAX_STACK_BYTES */
  uint8_t x87_results;  /* 0..1: a long double result in st0 */
  uint8_t reserved;     /* 0 */
};

/* Every field in range (the compiler records nothing else). */
#define DIPC_SIGNATURE_OK(s)                                                   \
  ((s)->int_args <= DIPC_MAX_INT_ARGS &&                                       \
   (s)->vec_args <= DIPC_MAX_VEC_ARGS && (s)->int_results <= 2 &&              \
   (s)->vec_results <= 2 && (s)->stack_bytes % 8 == 0 &&                       \
   (s)->stack_bytes <= DIPC_MAX_STACK_BYTES && (s)->x87_results <= 1 &&        \
   (s)->reserved == 0)

/* Isolation policy: a mask of enum dipc_iso_property (dipc.h). */
typedef uint32_t dipc_policy_t;

/* The names of the dipc_iso_property bits, in bit order: the one list the
 * plugin, the loader and the dumper build their tables from. A macro, so
 * that C files which do not print policies carry no unused array. */
#define DIPC_ISO_PROPERTY_NAMES                                               \
  "reg_integrity", "reg_confidentiality", "stack_integrity",                 \
      "stack_confidentiality", "dcs_integrity", "dcs_confidentiality"

#endif /* DIPC_SIGNATURE_H */

/* signature.h - an entry point's signature and policy, as recorded by the
 * compiler (ELF metadata) and checked by the runtime (entry_request, P4).
 * Shared by C (rt/, loader/) and C++ (llvm-passes/, tools/). */
#ifndef DIPC_SIGNATURE_H
#define DIPC_SIGNATURE_H

#include <stdint.h>

/* Limits of the x86-64 SysV calling convention that proxies support:
 * argument registers rdi, rsi, rdx, rcx, r8, r9 / xmm0-7, result registers
 * rax, rdx / xmm0, xmm1 / st0, stack arguments in 8-byte slots. */
#define DIPC_MAX_INT_ARGS 6
#define DIPC_MAX_VEC_ARGS 8
#define DIPC_MAX_INT_RESULTS 2
#define DIPC_MAX_VEC_RESULTS 2
#define DIPC_MAX_X87_RESULTS 1
#define DIPC_MAX_STACK_BYTES 4096
#define DIPC_STACK_SLOT 8

/* What a proxy must carry across a domain switch: argument registers in
 * order, bytes of stack arguments (the SysV argument area above the return
 * address: 7th integer argument on, structs passed in memory, long
 * double), and result registers (a long double result in st0). Two
 * signatures match when every field is equal.
 *
 * X(type, field, limit): the fields in order, each at most its limit; the
 * struct and the compiler's writer (llvm-passes/MetadataRecords.cpp) are
 * made from this list. `reserved` is 0. */
#define DIPC_SIGNATURE_FIELDS(X)                                               \
  X(uint8_t, int_args, DIPC_MAX_INT_ARGS)                                      \
  X(uint8_t, vec_args, DIPC_MAX_VEC_ARGS)                                      \
  X(uint8_t, int_results, DIPC_MAX_INT_RESULTS)                                \
  X(uint8_t, vec_results, DIPC_MAX_VEC_RESULTS)                                \
  X(uint16_t, stack_bytes, DIPC_MAX_STACK_BYTES)                               \
  X(uint8_t, x87_results, DIPC_MAX_X87_RESULTS)                                \
  X(uint8_t, reserved, 0)

struct dipc_signature {
#define DIPC_SIGNATURE_MEMBER(type, field, limit) type field;
  DIPC_SIGNATURE_FIELDS(DIPC_SIGNATURE_MEMBER)
#undef DIPC_SIGNATURE_MEMBER
};

/* Every field in range (the compiler records nothing else). */
#define DIPC_SIGNATURE_FIELD_OK(type, field, limit) (s)->field <= (limit) &&
static inline int dipc_signature_in_range(const struct dipc_signature *s) {
  return DIPC_SIGNATURE_FIELDS(DIPC_SIGNATURE_FIELD_OK)
      s->stack_bytes % DIPC_STACK_SLOT == 0;
}
#undef DIPC_SIGNATURE_FIELD_OK
#define DIPC_SIGNATURE_OK(s) dipc_signature_in_range(s)

/* Isolation policy: a mask of enum dipc_iso_property (dipc.h). */
typedef uint32_t dipc_policy_t;

/* The names of the dipc_iso_property bits, in bit order: the one list the
 * plugin, the loader and the dumper build their tables from. A macro, so
 * that C files which do not print policies carry no unused array. */
#define DIPC_ISO_PROPERTY_NAMES                                                \
  "reg_integrity", "reg_confidentiality", "stack_integrity",                   \
      "stack_confidentiality", "dcs_integrity", "dcs_confidentiality"

#endif /* DIPC_SIGNATURE_H */

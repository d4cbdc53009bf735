/* vector-state.h - the vector state a cross-domain call hands over: every
 * vector register the CPU has (xmm0-15, or ymm0-15, or zmm0-31 and k0-7,
 * read at run time with CPUID and XGETBV, so no -mavx is needed), MXCSR,
 * the x87 control word and rflags.DF. VS_FILL loads a chosen state right
 * before a call, VS_DUMP stores it (at a callee's first instruction), and
 * vs_judge compares. Shared by test/rt/vector-state-*.c and
 * test/e2e/vector-state-*.c. */
#ifndef VECTOR_STATE_H
#define VECTOR_STATE_H

#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { VS_SSE, VS_AVX, VS_AVX512 };

struct vstate {
  uint64_t v[32][8]; /* zmm0-31 (ymm: 4 qwords of 0-15, xmm: 2) */
  uint64_t k[8];
  uint32_t mxcsr;
  uint16_t fcw, pad;
  uint64_t rflags;
};
_Static_assert(offsetof(struct vstate, k) == 2048 &&
                   offsetof(struct vstate, mxcsr) == 2112 &&
                   offsetof(struct vstate, fcw) == 2116 &&
                   offsetof(struct vstate, rflags) == 2120,
               "offsets VS_FILL and VS_DUMP use");

/* AVX-512 counts only with BW (64-bit k registers). */
static inline long vs_level(void) {
  unsigned a, b, c, d, lo, hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28)))
    return VS_SSE;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0x6) != 0x6)
    return VS_SSE;
  if ((lo & 0xe6) == 0xe6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
      (b & (1u << 16)) && (b & (1u << 30)))
    return VS_AVX512;
  return VS_AVX;
}

static inline const char *vs_level_name(long level) {
  return level == VS_AVX512 ? "avx512" : level == VS_AVX ? "avx" : "sse";
}

/* The caller's markers: every qword distinct and nonzero; MXCSR and the
 * x87 control word round toward zero (not the defaults). */
static inline void vs_markers(struct vstate *s) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < 32; i++)
    for (int l = 0; l < 8; l++)
      s->v[i][l] = 0x5ec0000000000000ull | (uint64_t)i << 8 | (uint64_t)l + 1;
  for (int i = 0; i < 8; i++)
    s->k[i] = 0x5ec00000000c0000ull | (uint64_t)i;
  s->mxcsr = 0x7f80;
  s->fcw = 0x0f7f;
}

/* clang-format off */
#define VS_R8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define VS_R16(M) VS_R8(M) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define VS_R32(M)                                                              \
  VS_R16(M) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25)      \
  M(26) M(27) M(28) M(29) M(30) M(31)

/* Extended asm text, base address in rdi and level in rsi; labels 1-3. */
#define VS_LD_Z(n) "vmovdqu64 " #n "*64(%%rdi), %%zmm" #n "\n\t"
#define VS_LD_K(n) "kmovq 2048+" #n "*8(%%rdi), %%k" #n "\n\t"
#define VS_LD_Y(n) "vmovdqu " #n "*64(%%rdi), %%ymm" #n "\n\t"
#define VS_LD_X(n) "movdqu " #n "*64(%%rdi), %%xmm" #n "\n\t"
#define VS_ST_Z(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%%rdi)\n\t"
#define VS_ST_K(n) "kmovq %%k" #n ", 2048+" #n "*8(%%rdi)\n\t"
#define VS_ST_Y(n) "vmovdqu %%ymm" #n ", " #n "*64(%%rdi)\n\t"
#define VS_ST_X(n) "movdqu %%xmm" #n ", " #n "*64(%%rdi)\n\t"

#define VS_FILL                                                                \
  "cmpq $2, %%rsi\n\tjb 1f\n\t" VS_R32(VS_LD_Z) VS_R8(VS_LD_K) "jmp 3f\n"      \
  "1:\n\tcmpq $1, %%rsi\n\tjb 2f\n\t" VS_R16(VS_LD_Y) "jmp 3f\n"               \
  "2:\n\t" VS_R16(VS_LD_X) "3:\n\t"                                            \
  "ldmxcsr 2112(%%rdi)\n\tfldcw 2116(%%rdi)\n\t"

/* rflags first: the level test changes the arithmetic flags. Pushes. */
#define VS_DUMP                                                                \
  "pushfq\n\tpopq 2120(%%rdi)\n\tstmxcsr 2112(%%rdi)\n\t"                      \
  "fnstcw 2116(%%rdi)\n\t"                                                     \
  "cmpq $2, %%rsi\n\tjb 1f\n\t" VS_R32(VS_ST_Z) VS_R8(VS_ST_K) "jmp 3f\n"      \
  "1:\n\tcmpq $1, %%rsi\n\tjb 2f\n\t" VS_R16(VS_ST_Y) "jmp 3f\n"               \
  "2:\n\t" VS_R16(VS_ST_X) "3:\n\t"
/* clang-format on */

/* The C defaults again, after a VS_FILL. */
static inline void vs_reset_control(void) {
  static const uint32_t mxcsr = 0x1f80;
  static const uint16_t fcw = 0x037f;
  __asm__ volatile("ldmxcsr %0\n\tfldcw %1" : : "m"(mxcsr), "m"(fcw));
}

#define VS_CLOBBERS                                                            \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",      \
      "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16",   \
      "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",  \
      "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k0",     \
      "k1", "k2", "k3", "k4", "k5", "k6", "k7"

/* What `seen` is, given the caller's `want`: "as the caller left it" (every
 * vector register the CPU has), "zeroed" (all of them 0), or a description
 * of the first register that is neither; then, unless MXCSR and the x87
 * control word are the caller's and DF is clear, what differs. */
static inline const char *vs_judge(const struct vstate *want,
                                   const struct vstate *seen, long level,
                                   char *buf, size_t size) {
  int regs = level == VS_AVX512 ? 32 : 16;
  int lanes = level == VS_AVX512 ? 8 : level == VS_AVX ? 4 : 2;
  const char *name = level == VS_AVX512 ? "zmm"
                     : level == VS_AVX  ? "ymm"
                                        : "xmm";
  int kept = 1, zero = 1;
  char odd[64] = "", left[64] = "";
  for (int i = 0; i < regs; i++)
    for (int l = 0; l < lanes; l++) {
      uint64_t v = seen->v[i][l];
      kept &= v == want->v[i][l];
      zero &= v == 0;
      if (!odd[0] && v != 0 && v != want->v[i][l])
        snprintf(odd, sizeof odd, "%s%d[%d]=%llx", name, i, l,
                 (unsigned long long)v);
      if (!left[0] && v == want->v[i][l])
        snprintf(left, sizeof left, "%s%d[%d]", name, i, l);
    }
  if (level == VS_AVX512)
    for (int i = 0; i < 8; i++) {
      uint64_t v = seen->k[i];
      kept &= v == want->k[i];
      zero &= v == 0;
      if (!odd[0] && v != 0 && v != want->k[i])
        snprintf(odd, sizeof odd, "k%d=%llx", i, (unsigned long long)v);
      if (!left[0] && v == want->k[i])
        snprintf(left, sizeof left, "k%d", i);
    }
  int n;
  if (kept)
    n = snprintf(buf, size, "as the caller left it");
  else if (zero)
    n = snprintf(buf, size, "zeroed");
  else if (odd[0])
    n = snprintf(buf, size, "FOREIGN VALUE %s", odd);
  else
    n = snprintf(buf, size, "PARTLY ZEROED, %s kept", left);
  if (seen->mxcsr != want->mxcsr || seen->fcw != want->fcw ||
      (seen->rflags & 0x400))
    snprintf(buf + n, size - (size_t)n, ", CONTROL mxcsr=%x fcw=%x df=%d",
             seen->mxcsr, seen->fcw, (int)(seen->rflags >> 10 & 1));
  return buf;
}

#endif

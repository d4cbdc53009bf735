/* x86len.c - length of one x86-64 instruction (64-bit mode): legacy
 * prefixes, REX, VEX, EVEX, the one-, two- and three-byte opcode maps,
 * ModRM/SIB/displacement and immediates. Enough to walk compiled code from
 * a function's start; anything it does not know is an error, so a caller
 * that needs instruction boundaries fails closed. */
#include "x86len.h"

/* What follows an opcode: bit 0 a ModRM byte, bits 1-4 the kind of
 * immediate; BAD: not an instruction in 64-bit mode. */
enum {
  M = 1,
  I8 = 2,
  I16 = 4,
  IZ = 6, /* 16 or 32 bits */
  IV = 8, /* 16, 32 or 64 bits */
  REL8 = 10,
  REL32 = 12,
  MOFFS = 14,
  ENTER = 16,
  BAD = 0x80
};

#define IN(op, ...)                                                            \
  in(op, (const unsigned char[]){__VA_ARGS__},                                 \
     sizeof((const unsigned char[]){__VA_ARGS__}))

static int in(unsigned char op, const unsigned char *list, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (list[i] == op)
      return 1;
  return 0;
}

static unsigned char one_byte(unsigned char op) {
  if (IN(op, 0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f, 0x37, 0x3f,
         0x60, 0x61, 0x82, 0x9a, 0xce, 0xd4, 0xd5, 0xd6, 0xea))
    return BAD;
  if (op < 0x40) /* ALU: r/m forms 0-3, al and imm8 4, eax and imm32 5 */
    return (op & 7) < 4 ? M : (op & 7) == 4 ? I8 : IZ;
  if (IN(op, 0x63, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d,
         0x8e, 0x8f, 0xd0, 0xd1, 0xd2, 0xd3, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd,
         0xde, 0xdf, 0xf6, 0xf7, 0xfe, 0xff))
    return M;
  if (IN(op, 0x6b, 0x80, 0x83, 0xc0, 0xc1, 0xc6))
    return M | I8;
  if (IN(op, 0x69, 0x81, 0xc7))
    return M | IZ;
  if (IN(op, 0x6a, 0xa8, 0xcd, 0xe4, 0xe5, 0xe6, 0xe7) ||
      (op >= 0xb0 && op <= 0xb7))
    return I8;
  if (IN(op, 0x68, 0xa9))
    return IZ;
  if (op >= 0xb8 && op <= 0xbf)
    return IV;
  if (IN(op, 0xc2, 0xca))
    return I16;
  if (IN(op, 0xe0, 0xe1, 0xe2, 0xe3, 0xeb) || (op >= 0x70 && op <= 0x7f))
    return REL8;
  if (IN(op, 0xe8, 0xe9))
    return REL32;
  if (op >= 0xa0 && op <= 0xa3)
    return MOFFS;
  if (op == 0xc8)
    return ENTER;
  return 0; /* no operand bytes */
}

/* Two-byte map (0f xx). */
static unsigned char two_byte(unsigned char op) {
  if (IN(op, 0x04, 0x0a, 0x0c, 0x24, 0x25, 0x26, 0x27, 0x36, 0x39, 0x3b, 0x3c,
         0x3d, 0x3e, 0x3f))
    return BAD;
  if (IN(op, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0b, 0x0e, 0x30, 0x31, 0x32, 0x33,
         0x34, 0x35, 0x37, 0x77, 0xa0, 0xa1, 0xa2, 0xa8, 0xa9, 0xaa) ||
      (op >= 0xc8 && op <= 0xcf))
    return 0;
  if (IN(op, 0x0f, 0x70, 0x71, 0x72, 0x73, 0xa4, 0xac, 0xba, 0xc2, 0xc4, 0xc5,
         0xc6))
    return M | I8;
  if (op >= 0x80 && op <= 0x8f)
    return REL32;
  return M;
}

/* ModRM, SIB and displacement bytes at p; -1 past the end. */
static int modrm_length(const unsigned char *p, size_t avail) {
  if (avail < 1)
    return -1;
  unsigned mod = p[0] >> 6, rm = p[0] & 7;
  int n = 1;
  if (mod == 3)
    return n;
  if (rm == 4) {
    if (avail < 2)
      return -1;
    if (mod == 0 && (p[1] & 7) == 5)
      n += 4;
    ++n;
  } else if (mod == 0 && rm == 5) {
    n += 4;
  }
  n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
  return (size_t)n <= avail ? n : -1;
}

static int immediate(unsigned kind, int opsize16, int rexw, int addr32) {
  switch (kind & ~(unsigned)M) {
  case I8:
  case REL8:
    return 1;
  case I16:
    return 2;
  case IZ:
    return opsize16 && !rexw ? 2 : 4;
  case IV:
    return rexw ? 8 : opsize16 ? 2 : 4;
  case REL32:
    return 4;
  case MOFFS:
    return addr32 ? 4 : 8;
  case ENTER:
    return 3;
  }
  return 0;
}

int x86_insn_length(const unsigned char *code, size_t avail,
                    size_t *opcode_at) {
  size_t i = 0;
  int opsize16 = 0, addr32 = 0, rexw = 0;
  for (;; ++i) {
    if (i >= avail || i >= 14)
      return -1;
    unsigned char b = code[i];
    if (b == 0x66)
      opsize16 = 1;
    else if (b == 0x67)
      addr32 = 1;
    else if (!(b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 ||
               b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65))
      break;
  }
  if ((code[i] & 0xf0) == 0x40) { /* REX, right before the opcode */
    rexw = (code[i] >> 3) & 1;
    if (++i >= avail)
      return -1;
  }
  if (opcode_at)
    *opcode_at = i;
  unsigned char op = code[i];
  int n;
  if (op == 0xc4 || op == 0xc5 || op == 0x62) { /* VEX, EVEX */
    size_t prefix = op == 0xc5 ? 2 : op == 0xc4 ? 3 : 4;
    if (i + prefix >= avail)
      return -1;
    unsigned map = op == 0xc5 ? 1 : code[i + 1] & (op == 0x62 ? 7 : 0x1f);
    unsigned char vop = code[i + prefix];
    i += prefix + 1;
    if (op != 0x62 && map == 1 && vop == 0x77) /* vzeroupper, vzeroall */
      return (int)i;
    n = modrm_length(code + i, avail - i);
    if (n < 0 || map == 0 || map > 6)
      return -1;
    i += (size_t)n + (map == 3 || (map == 1 && (two_byte(vop) & I8)));
    return i <= avail ? (int)i : -1;
  }
  unsigned kind;
  if (op != 0x0f) {
    kind = one_byte(op);
    ++i;
    if (op == 0xf6 || op == 0xf7) /* test r/m, imm: /0 and /1 */
      kind |=
          i < avail && ((code[i] >> 3) & 7) < 2 ? (op == 0xf6 ? I8 : IZ) : 0;
  } else {
    if (i + 1 >= avail)
      return -1;
    op = code[++i];
    ++i;
    if (op == 0x38 || op == 0x3a) { /* three-byte maps: ModRM always */
      ++i;
      kind = op == 0x3a ? M | I8 : M;
    } else {
      kind = two_byte(op);
    }
  }
  if (kind & BAD)
    return -1;
  if (kind & M) {
    n = modrm_length(code + i, i < avail ? avail - i : 0);
    if (n < 0)
      return -1;
    i += (size_t)n;
  }
  i += (size_t)immediate(kind, opsize16, rexw, addr32);
  return i <= avail ? (int)i : -1;
}

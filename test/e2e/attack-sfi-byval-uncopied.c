// A byval parameter no caller filled (attack round 20): the compiled
// checks took a byval argument for this call's own copy and left accesses
// at constant offsets inside it unchecked. evil called its own function
// taking an 8 MiB struct by value through a pointer cast to a type with no
// parameter: nothing was copied, and the "argument" was whatever lay above
// the return address: evil's callee stack, the guard, then vault's callee
// stack, whose copy of the secret evil read (and could write). A byval
// argument is no frame object now: its uses go to a copy in the data frame
// whose read is checked (llvm-passes/SfiDataFrame.cpp), so the copy of an
// area past the callee stack faults (here the 8 MiB copy overflows the
// callee stack first). Control: the same program built without
// -fdipc-sfi steals under `none`.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-clang -fdipc -O2 %s -o %t.plain
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.plain 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: attack returned 0, dipc_errno 14
// SFI: nothing stolen
// NONE: stole 'vault-secret-42'
#define OFF 0x800100
#include "Inputs/vault.h"
#ifndef OFF
#define OFF 0x800000
#endif
#define WIN 0x10000
unsigned vault_check(void) __dom("vault") __entry {
  /* a victim that works on a local copy of its secret (a key schedule, a
   * hash state): the copy is on vault's callee stack */
  volatile uint64_t copy[4];
  copy[0] = ((const uint64_t *)vault_secret)[0];
  copy[1] = ((const uint64_t *)vault_secret)[1];
  copy[2] = ((const uint64_t *)vault_secret)[2];
  copy[3] = ((const uint64_t *)vault_secret)[3];
  return (unsigned)(copy[0] ^ copy[1] ^ copy[2] ^ copy[3]);
}
long vault_frame(void) __dom("vault") __entry { return (long)__builtin_frame_address(0); }
struct big { char b[OFF + WIN]; };
static char window[WIN] __dom("evil");
__attribute__((noinline)) static long peek(struct big s) __dom("evil");
__attribute__((noinline)) static long peek(struct big s) {
  __builtin_memcpy(window + 0, &s.b[OFF + 0], 256);
  __builtin_memcpy(window + 256, &s.b[OFF + 256], 256);
  __builtin_memcpy(window + 512, &s.b[OFF + 512], 256);
  __builtin_memcpy(window + 768, &s.b[OFF + 768], 256);
  __builtin_memcpy(window + 1024, &s.b[OFF + 1024], 256);
  __builtin_memcpy(window + 1280, &s.b[OFF + 1280], 256);
  __builtin_memcpy(window + 1536, &s.b[OFF + 1536], 256);
  __builtin_memcpy(window + 1792, &s.b[OFF + 1792], 256);
  __builtin_memcpy(window + 2048, &s.b[OFF + 2048], 256);
  __builtin_memcpy(window + 2304, &s.b[OFF + 2304], 256);
  __builtin_memcpy(window + 2560, &s.b[OFF + 2560], 256);
  __builtin_memcpy(window + 2816, &s.b[OFF + 2816], 256);
  __builtin_memcpy(window + 3072, &s.b[OFF + 3072], 256);
  __builtin_memcpy(window + 3328, &s.b[OFF + 3328], 256);
  __builtin_memcpy(window + 3584, &s.b[OFF + 3584], 256);
  __builtin_memcpy(window + 3840, &s.b[OFF + 3840], 256);
  __builtin_memcpy(window + 4096, &s.b[OFF + 4096], 256);
  __builtin_memcpy(window + 4352, &s.b[OFF + 4352], 256);
  __builtin_memcpy(window + 4608, &s.b[OFF + 4608], 256);
  __builtin_memcpy(window + 4864, &s.b[OFF + 4864], 256);
  __builtin_memcpy(window + 5120, &s.b[OFF + 5120], 256);
  __builtin_memcpy(window + 5376, &s.b[OFF + 5376], 256);
  __builtin_memcpy(window + 5632, &s.b[OFF + 5632], 256);
  __builtin_memcpy(window + 5888, &s.b[OFF + 5888], 256);
  __builtin_memcpy(window + 6144, &s.b[OFF + 6144], 256);
  __builtin_memcpy(window + 6400, &s.b[OFF + 6400], 256);
  __builtin_memcpy(window + 6656, &s.b[OFF + 6656], 256);
  __builtin_memcpy(window + 6912, &s.b[OFF + 6912], 256);
  __builtin_memcpy(window + 7168, &s.b[OFF + 7168], 256);
  __builtin_memcpy(window + 7424, &s.b[OFF + 7424], 256);
  __builtin_memcpy(window + 7680, &s.b[OFF + 7680], 256);
  __builtin_memcpy(window + 7936, &s.b[OFF + 7936], 256);
  __builtin_memcpy(window + 8192, &s.b[OFF + 8192], 256);
  __builtin_memcpy(window + 8448, &s.b[OFF + 8448], 256);
  __builtin_memcpy(window + 8704, &s.b[OFF + 8704], 256);
  __builtin_memcpy(window + 8960, &s.b[OFF + 8960], 256);
  __builtin_memcpy(window + 9216, &s.b[OFF + 9216], 256);
  __builtin_memcpy(window + 9472, &s.b[OFF + 9472], 256);
  __builtin_memcpy(window + 9728, &s.b[OFF + 9728], 256);
  __builtin_memcpy(window + 9984, &s.b[OFF + 9984], 256);
  __builtin_memcpy(window + 10240, &s.b[OFF + 10240], 256);
  __builtin_memcpy(window + 10496, &s.b[OFF + 10496], 256);
  __builtin_memcpy(window + 10752, &s.b[OFF + 10752], 256);
  __builtin_memcpy(window + 11008, &s.b[OFF + 11008], 256);
  __builtin_memcpy(window + 11264, &s.b[OFF + 11264], 256);
  __builtin_memcpy(window + 11520, &s.b[OFF + 11520], 256);
  __builtin_memcpy(window + 11776, &s.b[OFF + 11776], 256);
  __builtin_memcpy(window + 12032, &s.b[OFF + 12032], 256);
  __builtin_memcpy(window + 12288, &s.b[OFF + 12288], 256);
  __builtin_memcpy(window + 12544, &s.b[OFF + 12544], 256);
  __builtin_memcpy(window + 12800, &s.b[OFF + 12800], 256);
  __builtin_memcpy(window + 13056, &s.b[OFF + 13056], 256);
  __builtin_memcpy(window + 13312, &s.b[OFF + 13312], 256);
  __builtin_memcpy(window + 13568, &s.b[OFF + 13568], 256);
  __builtin_memcpy(window + 13824, &s.b[OFF + 13824], 256);
  __builtin_memcpy(window + 14080, &s.b[OFF + 14080], 256);
  __builtin_memcpy(window + 14336, &s.b[OFF + 14336], 256);
  __builtin_memcpy(window + 14592, &s.b[OFF + 14592], 256);
  __builtin_memcpy(window + 14848, &s.b[OFF + 14848], 256);
  __builtin_memcpy(window + 15104, &s.b[OFF + 15104], 256);
  __builtin_memcpy(window + 15360, &s.b[OFF + 15360], 256);
  __builtin_memcpy(window + 15616, &s.b[OFF + 15616], 256);
  __builtin_memcpy(window + 15872, &s.b[OFF + 15872], 256);
  __builtin_memcpy(window + 16128, &s.b[OFF + 16128], 256);
  __builtin_memcpy(window + 16384, &s.b[OFF + 16384], 256);
  __builtin_memcpy(window + 16640, &s.b[OFF + 16640], 256);
  __builtin_memcpy(window + 16896, &s.b[OFF + 16896], 256);
  __builtin_memcpy(window + 17152, &s.b[OFF + 17152], 256);
  __builtin_memcpy(window + 17408, &s.b[OFF + 17408], 256);
  __builtin_memcpy(window + 17664, &s.b[OFF + 17664], 256);
  __builtin_memcpy(window + 17920, &s.b[OFF + 17920], 256);
  __builtin_memcpy(window + 18176, &s.b[OFF + 18176], 256);
  __builtin_memcpy(window + 18432, &s.b[OFF + 18432], 256);
  __builtin_memcpy(window + 18688, &s.b[OFF + 18688], 256);
  __builtin_memcpy(window + 18944, &s.b[OFF + 18944], 256);
  __builtin_memcpy(window + 19200, &s.b[OFF + 19200], 256);
  __builtin_memcpy(window + 19456, &s.b[OFF + 19456], 256);
  __builtin_memcpy(window + 19712, &s.b[OFF + 19712], 256);
  __builtin_memcpy(window + 19968, &s.b[OFF + 19968], 256);
  __builtin_memcpy(window + 20224, &s.b[OFF + 20224], 256);
  __builtin_memcpy(window + 20480, &s.b[OFF + 20480], 256);
  __builtin_memcpy(window + 20736, &s.b[OFF + 20736], 256);
  __builtin_memcpy(window + 20992, &s.b[OFF + 20992], 256);
  __builtin_memcpy(window + 21248, &s.b[OFF + 21248], 256);
  __builtin_memcpy(window + 21504, &s.b[OFF + 21504], 256);
  __builtin_memcpy(window + 21760, &s.b[OFF + 21760], 256);
  __builtin_memcpy(window + 22016, &s.b[OFF + 22016], 256);
  __builtin_memcpy(window + 22272, &s.b[OFF + 22272], 256);
  __builtin_memcpy(window + 22528, &s.b[OFF + 22528], 256);
  __builtin_memcpy(window + 22784, &s.b[OFF + 22784], 256);
  __builtin_memcpy(window + 23040, &s.b[OFF + 23040], 256);
  __builtin_memcpy(window + 23296, &s.b[OFF + 23296], 256);
  __builtin_memcpy(window + 23552, &s.b[OFF + 23552], 256);
  __builtin_memcpy(window + 23808, &s.b[OFF + 23808], 256);
  __builtin_memcpy(window + 24064, &s.b[OFF + 24064], 256);
  __builtin_memcpy(window + 24320, &s.b[OFF + 24320], 256);
  __builtin_memcpy(window + 24576, &s.b[OFF + 24576], 256);
  __builtin_memcpy(window + 24832, &s.b[OFF + 24832], 256);
  __builtin_memcpy(window + 25088, &s.b[OFF + 25088], 256);
  __builtin_memcpy(window + 25344, &s.b[OFF + 25344], 256);
  __builtin_memcpy(window + 25600, &s.b[OFF + 25600], 256);
  __builtin_memcpy(window + 25856, &s.b[OFF + 25856], 256);
  __builtin_memcpy(window + 26112, &s.b[OFF + 26112], 256);
  __builtin_memcpy(window + 26368, &s.b[OFF + 26368], 256);
  __builtin_memcpy(window + 26624, &s.b[OFF + 26624], 256);
  __builtin_memcpy(window + 26880, &s.b[OFF + 26880], 256);
  __builtin_memcpy(window + 27136, &s.b[OFF + 27136], 256);
  __builtin_memcpy(window + 27392, &s.b[OFF + 27392], 256);
  __builtin_memcpy(window + 27648, &s.b[OFF + 27648], 256);
  __builtin_memcpy(window + 27904, &s.b[OFF + 27904], 256);
  __builtin_memcpy(window + 28160, &s.b[OFF + 28160], 256);
  __builtin_memcpy(window + 28416, &s.b[OFF + 28416], 256);
  __builtin_memcpy(window + 28672, &s.b[OFF + 28672], 256);
  __builtin_memcpy(window + 28928, &s.b[OFF + 28928], 256);
  __builtin_memcpy(window + 29184, &s.b[OFF + 29184], 256);
  __builtin_memcpy(window + 29440, &s.b[OFF + 29440], 256);
  __builtin_memcpy(window + 29696, &s.b[OFF + 29696], 256);
  __builtin_memcpy(window + 29952, &s.b[OFF + 29952], 256);
  __builtin_memcpy(window + 30208, &s.b[OFF + 30208], 256);
  __builtin_memcpy(window + 30464, &s.b[OFF + 30464], 256);
  __builtin_memcpy(window + 30720, &s.b[OFF + 30720], 256);
  __builtin_memcpy(window + 30976, &s.b[OFF + 30976], 256);
  __builtin_memcpy(window + 31232, &s.b[OFF + 31232], 256);
  __builtin_memcpy(window + 31488, &s.b[OFF + 31488], 256);
  __builtin_memcpy(window + 31744, &s.b[OFF + 31744], 256);
  __builtin_memcpy(window + 32000, &s.b[OFF + 32000], 256);
  __builtin_memcpy(window + 32256, &s.b[OFF + 32256], 256);
  __builtin_memcpy(window + 32512, &s.b[OFF + 32512], 256);
  __builtin_memcpy(window + 32768, &s.b[OFF + 32768], 256);
  __builtin_memcpy(window + 33024, &s.b[OFF + 33024], 256);
  __builtin_memcpy(window + 33280, &s.b[OFF + 33280], 256);
  __builtin_memcpy(window + 33536, &s.b[OFF + 33536], 256);
  __builtin_memcpy(window + 33792, &s.b[OFF + 33792], 256);
  __builtin_memcpy(window + 34048, &s.b[OFF + 34048], 256);
  __builtin_memcpy(window + 34304, &s.b[OFF + 34304], 256);
  __builtin_memcpy(window + 34560, &s.b[OFF + 34560], 256);
  __builtin_memcpy(window + 34816, &s.b[OFF + 34816], 256);
  __builtin_memcpy(window + 35072, &s.b[OFF + 35072], 256);
  __builtin_memcpy(window + 35328, &s.b[OFF + 35328], 256);
  __builtin_memcpy(window + 35584, &s.b[OFF + 35584], 256);
  __builtin_memcpy(window + 35840, &s.b[OFF + 35840], 256);
  __builtin_memcpy(window + 36096, &s.b[OFF + 36096], 256);
  __builtin_memcpy(window + 36352, &s.b[OFF + 36352], 256);
  __builtin_memcpy(window + 36608, &s.b[OFF + 36608], 256);
  __builtin_memcpy(window + 36864, &s.b[OFF + 36864], 256);
  __builtin_memcpy(window + 37120, &s.b[OFF + 37120], 256);
  __builtin_memcpy(window + 37376, &s.b[OFF + 37376], 256);
  __builtin_memcpy(window + 37632, &s.b[OFF + 37632], 256);
  __builtin_memcpy(window + 37888, &s.b[OFF + 37888], 256);
  __builtin_memcpy(window + 38144, &s.b[OFF + 38144], 256);
  __builtin_memcpy(window + 38400, &s.b[OFF + 38400], 256);
  __builtin_memcpy(window + 38656, &s.b[OFF + 38656], 256);
  __builtin_memcpy(window + 38912, &s.b[OFF + 38912], 256);
  __builtin_memcpy(window + 39168, &s.b[OFF + 39168], 256);
  __builtin_memcpy(window + 39424, &s.b[OFF + 39424], 256);
  __builtin_memcpy(window + 39680, &s.b[OFF + 39680], 256);
  __builtin_memcpy(window + 39936, &s.b[OFF + 39936], 256);
  __builtin_memcpy(window + 40192, &s.b[OFF + 40192], 256);
  __builtin_memcpy(window + 40448, &s.b[OFF + 40448], 256);
  __builtin_memcpy(window + 40704, &s.b[OFF + 40704], 256);
  __builtin_memcpy(window + 40960, &s.b[OFF + 40960], 256);
  __builtin_memcpy(window + 41216, &s.b[OFF + 41216], 256);
  __builtin_memcpy(window + 41472, &s.b[OFF + 41472], 256);
  __builtin_memcpy(window + 41728, &s.b[OFF + 41728], 256);
  __builtin_memcpy(window + 41984, &s.b[OFF + 41984], 256);
  __builtin_memcpy(window + 42240, &s.b[OFF + 42240], 256);
  __builtin_memcpy(window + 42496, &s.b[OFF + 42496], 256);
  __builtin_memcpy(window + 42752, &s.b[OFF + 42752], 256);
  __builtin_memcpy(window + 43008, &s.b[OFF + 43008], 256);
  __builtin_memcpy(window + 43264, &s.b[OFF + 43264], 256);
  __builtin_memcpy(window + 43520, &s.b[OFF + 43520], 256);
  __builtin_memcpy(window + 43776, &s.b[OFF + 43776], 256);
  __builtin_memcpy(window + 44032, &s.b[OFF + 44032], 256);
  __builtin_memcpy(window + 44288, &s.b[OFF + 44288], 256);
  __builtin_memcpy(window + 44544, &s.b[OFF + 44544], 256);
  __builtin_memcpy(window + 44800, &s.b[OFF + 44800], 256);
  __builtin_memcpy(window + 45056, &s.b[OFF + 45056], 256);
  __builtin_memcpy(window + 45312, &s.b[OFF + 45312], 256);
  __builtin_memcpy(window + 45568, &s.b[OFF + 45568], 256);
  __builtin_memcpy(window + 45824, &s.b[OFF + 45824], 256);
  __builtin_memcpy(window + 46080, &s.b[OFF + 46080], 256);
  __builtin_memcpy(window + 46336, &s.b[OFF + 46336], 256);
  __builtin_memcpy(window + 46592, &s.b[OFF + 46592], 256);
  __builtin_memcpy(window + 46848, &s.b[OFF + 46848], 256);
  __builtin_memcpy(window + 47104, &s.b[OFF + 47104], 256);
  __builtin_memcpy(window + 47360, &s.b[OFF + 47360], 256);
  __builtin_memcpy(window + 47616, &s.b[OFF + 47616], 256);
  __builtin_memcpy(window + 47872, &s.b[OFF + 47872], 256);
  __builtin_memcpy(window + 48128, &s.b[OFF + 48128], 256);
  __builtin_memcpy(window + 48384, &s.b[OFF + 48384], 256);
  __builtin_memcpy(window + 48640, &s.b[OFF + 48640], 256);
  __builtin_memcpy(window + 48896, &s.b[OFF + 48896], 256);
  __builtin_memcpy(window + 49152, &s.b[OFF + 49152], 256);
  __builtin_memcpy(window + 49408, &s.b[OFF + 49408], 256);
  __builtin_memcpy(window + 49664, &s.b[OFF + 49664], 256);
  __builtin_memcpy(window + 49920, &s.b[OFF + 49920], 256);
  __builtin_memcpy(window + 50176, &s.b[OFF + 50176], 256);
  __builtin_memcpy(window + 50432, &s.b[OFF + 50432], 256);
  __builtin_memcpy(window + 50688, &s.b[OFF + 50688], 256);
  __builtin_memcpy(window + 50944, &s.b[OFF + 50944], 256);
  __builtin_memcpy(window + 51200, &s.b[OFF + 51200], 256);
  __builtin_memcpy(window + 51456, &s.b[OFF + 51456], 256);
  __builtin_memcpy(window + 51712, &s.b[OFF + 51712], 256);
  __builtin_memcpy(window + 51968, &s.b[OFF + 51968], 256);
  __builtin_memcpy(window + 52224, &s.b[OFF + 52224], 256);
  __builtin_memcpy(window + 52480, &s.b[OFF + 52480], 256);
  __builtin_memcpy(window + 52736, &s.b[OFF + 52736], 256);
  __builtin_memcpy(window + 52992, &s.b[OFF + 52992], 256);
  __builtin_memcpy(window + 53248, &s.b[OFF + 53248], 256);
  __builtin_memcpy(window + 53504, &s.b[OFF + 53504], 256);
  __builtin_memcpy(window + 53760, &s.b[OFF + 53760], 256);
  __builtin_memcpy(window + 54016, &s.b[OFF + 54016], 256);
  __builtin_memcpy(window + 54272, &s.b[OFF + 54272], 256);
  __builtin_memcpy(window + 54528, &s.b[OFF + 54528], 256);
  __builtin_memcpy(window + 54784, &s.b[OFF + 54784], 256);
  __builtin_memcpy(window + 55040, &s.b[OFF + 55040], 256);
  __builtin_memcpy(window + 55296, &s.b[OFF + 55296], 256);
  __builtin_memcpy(window + 55552, &s.b[OFF + 55552], 256);
  __builtin_memcpy(window + 55808, &s.b[OFF + 55808], 256);
  __builtin_memcpy(window + 56064, &s.b[OFF + 56064], 256);
  __builtin_memcpy(window + 56320, &s.b[OFF + 56320], 256);
  __builtin_memcpy(window + 56576, &s.b[OFF + 56576], 256);
  __builtin_memcpy(window + 56832, &s.b[OFF + 56832], 256);
  __builtin_memcpy(window + 57088, &s.b[OFF + 57088], 256);
  __builtin_memcpy(window + 57344, &s.b[OFF + 57344], 256);
  __builtin_memcpy(window + 57600, &s.b[OFF + 57600], 256);
  __builtin_memcpy(window + 57856, &s.b[OFF + 57856], 256);
  __builtin_memcpy(window + 58112, &s.b[OFF + 58112], 256);
  __builtin_memcpy(window + 58368, &s.b[OFF + 58368], 256);
  __builtin_memcpy(window + 58624, &s.b[OFF + 58624], 256);
  __builtin_memcpy(window + 58880, &s.b[OFF + 58880], 256);
  __builtin_memcpy(window + 59136, &s.b[OFF + 59136], 256);
  __builtin_memcpy(window + 59392, &s.b[OFF + 59392], 256);
  __builtin_memcpy(window + 59648, &s.b[OFF + 59648], 256);
  __builtin_memcpy(window + 59904, &s.b[OFF + 59904], 256);
  __builtin_memcpy(window + 60160, &s.b[OFF + 60160], 256);
  __builtin_memcpy(window + 60416, &s.b[OFF + 60416], 256);
  __builtin_memcpy(window + 60672, &s.b[OFF + 60672], 256);
  __builtin_memcpy(window + 60928, &s.b[OFF + 60928], 256);
  __builtin_memcpy(window + 61184, &s.b[OFF + 61184], 256);
  __builtin_memcpy(window + 61440, &s.b[OFF + 61440], 256);
  __builtin_memcpy(window + 61696, &s.b[OFF + 61696], 256);
  __builtin_memcpy(window + 61952, &s.b[OFF + 61952], 256);
  __builtin_memcpy(window + 62208, &s.b[OFF + 62208], 256);
  __builtin_memcpy(window + 62464, &s.b[OFF + 62464], 256);
  __builtin_memcpy(window + 62720, &s.b[OFF + 62720], 256);
  __builtin_memcpy(window + 62976, &s.b[OFF + 62976], 256);
  __builtin_memcpy(window + 63232, &s.b[OFF + 63232], 256);
  __builtin_memcpy(window + 63488, &s.b[OFF + 63488], 256);
  __builtin_memcpy(window + 63744, &s.b[OFF + 63744], 256);
  __builtin_memcpy(window + 64000, &s.b[OFF + 64000], 256);
  __builtin_memcpy(window + 64256, &s.b[OFF + 64256], 256);
  __builtin_memcpy(window + 64512, &s.b[OFF + 64512], 256);
  __builtin_memcpy(window + 64768, &s.b[OFF + 64768], 256);
  __builtin_memcpy(window + 65024, &s.b[OFF + 65024], 256);
  __builtin_memcpy(window + 65280, &s.b[OFF + 65280], 256);
  return (long)__builtin_frame_address(0);
}
long attack(const char *mode, void *aux, const volatile char *secret, int key, char *loot) {
  long (*volatile fp)(void) = (long (*)(void))peek;
  long at = fp();
  printf("evil: peek frame at %#lx, window %#lx..%#lx\n", at, at + OFF, at + OFF + WIN);
  /* vault's copy is four 8-byte words its compiler may have laid out
   * apart: the word starting "vault-se", then the one ending it */
  for (long i = 0; i + 8 <= WIN; i += 8)
    if (!memcmp(window + i, "vault-se", 8)) {
      memcpy(loot, window + i, 8);
      printf("evil: \"vault-se\" at %#lx\n", at + OFF + i);
      for (long j = 0; j + 8 <= WIN; j += 8)
        if (!memcmp(window + j, "cret-42", 8)) {
          memcpy(loot + 8, window + j, 8);
          printf("evil: \"cret-42\" at %#lx\n", at + OFF + j);
          break;
        }
      break;
    }
  { long nz = -1, first=-1; for (long i = 0; i < WIN; i++) if (window[i]) { nz = i; if (first<0) first=i; }
    printf("evil: window nonzero bytes from %#lx to %#lx\n", first, nz); }
  return 0;
}
int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *secret = vault_address();
  printf("vault frame %p\n", (void *)vault_frame());
  vault_check(); /* vault's last call: its copy of the secret stays on its stack */
  char loot[32] = "";
  printf("attacking (byval)\n");
  long r = attack(argc > 1 ? argv[1] : "byval", 0, secret, 0, loot);
  printf("attack returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  return 0;
}

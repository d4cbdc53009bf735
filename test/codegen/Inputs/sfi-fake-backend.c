// A stand-in for the sfi backend's runtime (include/dipc/sfi.h): shadow,
// rights matrix, %gs:40 and the slow path, enough to run code compiled
// with -fdipc-sfi on the host without libdipc (test/codegen/sfi-run.c).
// Domain 0 may read and write tag 0 and read tag 7; nothing else. And the
// control flow's: a shadow stack at %gs:SSP (floor: its top), a return
// slow path that drops stale entries and stops on a forged return address,
// a call slow path that stops (every target here is instrumented) and the
// branch failure (test/codegen/sfi-cfi-run.c).
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "dipc/sfi.h"

static char gsarea[DIPC_SFI_SSP_GS_OFFSET + 8] __attribute__((aligned(4096)));
static uint64_t shadow_stack[2 * 4096];
int slow_calls, ret_slow_calls;

#define SSP (*(uint64_t **)(gsarea + DIPC_SFI_SSP_GS_OFFSET))
static uint64_t *SSP_FLOOR; /* the empty top: no proxy here (the runtime's
                              floor is its newest KCS entry's top) */

void __dipc_sfi_ret_slow(void **slot) {
  ret_slow_calls++;
  uint64_t *ssp = SSP;
  while (ssp < SSP_FLOOR && ssp[1] < (uint64_t)slot) /* frames left */
    ssp += 2;
  if (ssp < SSP_FLOOR && ssp[1] == (uint64_t)slot &&
      ssp[0] == (uint64_t)*slot) {
    SSP = ssp + 2;
    return;
  }
  printf("fake: return to %p refused\n", *slot);
  fflush(stdout);
  _exit(43);
}

void __dipc_sfi_check_call(const void *target) {
  printf("fake: call of %p refused\n", target);
  fflush(stdout);
  _exit(44);
}

void __dipc_sfi_cfi_fail(uint32_t kind, const void *where) {
  printf("fake: control-flow fault %u at %p\n", kind, where);
  fflush(stdout);
  _exit(45);
}

void __dipc_sfi_check(uintptr_t addr, uint64_t size, uint32_t write) {
  slow_calls++;
  uint16_t *shadow = (uint16_t *)DIPC_SFI_SHADOW_ADDR;
  uint8_t *row = (uint8_t *)DIPC_SFI_RIGHTS_ADDR;
  for (uintptr_t p = addr >> 12; size && p <= (addr + size - 1) >> 12; p++)
    if (!(row[shadow[p]] & (write ? 2 : 1))) {
      printf("fake: denied %s of %lu at %#lx (tag %u)\n", write ? "write" : "read",
             (unsigned long)size, (unsigned long)addr, shadow[p]);
      fflush(stdout);
      _exit(42);
    }
}

__attribute__((constructor(101))) static void fake_init(void) {
  if (mmap((void *)DIPC_SFI_SHADOW_ADDR, DIPC_SFI_SHADOW_SIZE, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0) == MAP_FAILED ||
      mmap((void *)DIPC_SFI_RIGHTS_ADDR, DIPC_SFI_RIGHTS_SIZE, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED) {
    perror("fake: mmap");
    _exit(1);
  }
  uint8_t *row = (uint8_t *)DIPC_SFI_RIGHTS_ADDR; // domain 0
  row[0] = DIPC_SFI_READ | DIPC_SFI_WRITE;
  row[7] = DIPC_SFI_READ;
  syscall(SYS_arch_prctl, ARCH_SET_GS, (unsigned long)gsarea);
  *(uint32_t *)(gsarea + DIPC_SFI_CUR_DOM_GS_OFFSET) = 0;
  SSP = SSP_FLOOR = shadow_stack + sizeof shadow_stack / sizeof *shadow_stack;
}

void fake_tag(void *p, uint16_t tag) {
  ((uint16_t *)DIPC_SFI_SHADOW_ADDR)[(uintptr_t)p >> 12] = tag;
}

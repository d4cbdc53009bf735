/* A plain unit of attack-sfi-runtime-name-defined.c: the access checks'
 * slow path, as a no-op that lets every access through. */
#include <stdint.h>

void __dipc_sfi_check(uintptr_t addr, uint64_t size, uint32_t write) {
  (void)addr, (void)size, (void)write;
}

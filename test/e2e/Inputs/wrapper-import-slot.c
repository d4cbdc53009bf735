/* A plain unit of attack-sfi-wrapper-return-slot.c: the address of the
 * program's import slot of vault's `smash`, a weak definition of the
 * instrumented unit that the linker binds this reference to. */
extern void *smash_slot __asm__("__dipc_slot.default.00.smash");

void **wrapper_import_slot(void) { return &smash_slot; }

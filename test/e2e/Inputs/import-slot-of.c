/* A plain unit: the program's import slot of vault_get, a weak definition
 * of the instrumented unit that the linker binds this reference to
 * (security-violation-in-callee-stops-process.c). */
extern void *vault_get_slot __asm__("__dipc_slot.default.00.vault_get");

void *import_slot_value(void) { return vault_get_slot; }

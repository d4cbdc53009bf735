/* limits.h - the sizes of the runtime's tables that the loader's tables
 * mirror, and the exit status of a refused program: one definition shared
 * by rt/ (C and assembly) and loader/. Only #defines: gate.S includes it. */
#ifndef DIPC_LIMITS_H
#define DIPC_LIMITS_H

/* Domains, the default one included; a power of two (gate.S masks domain
 * ids with DIPC_MAX_DOMAINS - 1). */
#define DIPC_MAX_DOMAINS 1024
/* A domain's name, with its NUL. */
#define DIPC_DOMAIN_NAME_MAX 64
/* Live grants (grant_create). */
#define DIPC_MAX_GRANTS 4096
/* Live entry sets (entry_register); the loader registers one per entry. */
#define DIPC_MAX_ENTRY_SETS 512
/* Import slots handed to the runtime (dipc_import_register). */
#define DIPC_MAX_IMPORTS 16384
/* Page ranges whose domain the runtime tracks (dom_remap). */
#define DIPC_MAX_RANGES 4096

/* Exit status of a program that is refused (loader) or stopped because an
 * import cannot be resolved or the loader is missing (runtime): EX_CONFIG;
 * 127 would read as "command not found" to shells and test drivers. */
#define DIPC_EXIT_REFUSED 78

#endif /* DIPC_LIMITS_H */

/* domains.h - the loader's view of the program: domains, entries and
 * imports built from the records of every loaded object. */
#ifndef DIPC_LOADER_DOMAINS_H
#define DIPC_LOADER_DOMAINS_H

#include "metadata.h"

#include <dipc/rt.h>
#include <stdio.h>

/* Applies the records of one object: moves each domain's pages out of the
 * default domain, registers entries, applies grants, hands import slots to
 * the runtime's lazy resolution and binds every import whose entry is now
 * loaded. Returns 0, or -1 after printing why. */
int domains_apply(const struct object_metadata *object);

/* Forgets what the records of an object that spanned [lo, hi), now
 * unloaded, left in the loader's tables: its entries, imports and entry
 * addresses, its domains' page ranges; imports and entry addresses of
 * other objects that named its entries are unbound again (a later load
 * binds them). Domains and grants stay. */
void domains_forget(uintptr_t lo, uintptr_t hi);

/* The domain whose pages hold addr, NULL for the default domain's memory.
 * Reads only loader tables: safe in a signal handler. */
const char *domains_owner_of(uintptr_t addr);

/* The name of the domain whose heap region starts at region, NULL if none
 * does. Reads only loader tables. */
const char *domains_name_of_heap(uintptr_t region);

/* An owner handle to the domain called name, -DIPC_ENOENT if none is. */
dom_t domains_handle_named(const char *name);

/* Checks that each domain DIPC_CALLEE_STACK names (dipc-run
 * --callee-stack=NAME=SIZE) is one of the program's, at start (the runtime
 * checks the rest of the setting). Returns 0, or -1 after printing why. */
int domains_check_settings(void);

/* Cross-process dIPC (xproc_*.c). Calls fn for every loaded entry. */
typedef void (*domains_entry_fn)(const char *name, const char *domain,
                                 void *stub,
                                 const struct dipc_signature *signature,
                                 dipc_policy_t policy, void *arg);
void domains_each_entry(domains_entry_fn fn, void *arg);

/* Calls fn once for each entry of domain that an import names and no
 * loaded object defines (with the first import's signature). */
typedef void (*domains_missing_fn)(const char *name,
                                   const struct dipc_signature *signature,
                                   void *arg);
void domains_each_missing_entry(const char *domain, domains_missing_fn fn,
                                void *arg);

/* A listening process under mpk: its default domain, whose threads run the
 * system calls importers delegate (their pointers into any of its
 * memory), may write every domain's pages. 0, or -1 after printing why. */
int domains_open_to_default(void);

/* Defines count entries of domain (created if new) whose callee stubs are
 * stubs[k], thunks in the page(s) [code, code + len) given to it, and binds
 * the imports that name them. 0, or -1 after printing why. */
int domains_define_remote(const char *domain, void *code, size_t len,
                          const char *const *names, void *const *stubs,
                          const struct dipc_signature *signatures,
                          unsigned count);

/* Prints the backend, domains, entries, imports and grants (--info). */
void domains_print(FILE *out);

#endif

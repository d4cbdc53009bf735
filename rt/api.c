/* api.c - the public API (dipc/rt.h). Each function runs in the caller's
 * domain: it marshals its arguments into a block on its own stack (copying
 * user arrays with the caller's rights, never the runtime's) and enters the
 * API gate; results come back the same way. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

#define ARGS(...) struct dipc_gate_args a = {.arg = {__VA_ARGS__}}

/* A string copied into dst, an array of `room` bytes (NUL included):
 * exactly the bytes checked, read once more by the copy (strncpy read on
 * to room bytes, past a NUL another thread of the caller's removed after
 * the check: attack round 21). */
#define USER_STRING_COPY(dst, s, room)                                         \
  do {                                                                         \
    size_t n_ = strnlen((s), (room)-1);                                        \
    DIPC_USER_READ((s), n_ < (room)-1 ? n_ + 1 : n_);                          \
    memcpy((dst), (s), n_);                                                    \
    (dst)[n_] = 0;                                                             \
  } while (0)

DIPC_EXPORT dom_t dom_default(void) {
  ARGS(0);
  return dipc_gate(OP_DOM_DEFAULT, &a);
}

DIPC_EXPORT dom_t dom_create(void) {
  ARGS(0);
  return dipc_gate(OP_DOM_CREATE, &a);
}

DIPC_EXPORT dom_t dom_copy(dom_t dom, int perm) {
  ARGS((uint64_t)dom, (uint64_t)(int64_t)perm);
  return dipc_gate(OP_DOM_COPY, &a);
}

DIPC_EXPORT void *dom_mmap(dom_t dom, void *addr, size_t length, int prot,
                           int flags, int fd, off_t offset) {
  /* Under `sfi` code runs unchecked unless compiled with the checks: only
   * the loader maps code for a domain (validated objects, another
   * process's domains); a file's bytes a domain mapped here with the call
   * magic in front ran with no check at all. */
  if ((prot & PROT_EXEC) && dipc_machine.backend == DIPC_BACKEND_SFI &&
      !dipc_trusted_caller(__builtin_return_address(0)))
    return DIPC_ERR_PTR(-DIPC_EPERM);
  ARGS((uint64_t)dom, (uint64_t)addr, length, (uint64_t)prot, (uint64_t)flags,
       (uint64_t)fd, (uint64_t)offset);
  return (void *)dipc_gate(OP_DOM_MMAP, &a);
}

DIPC_EXPORT int dipc_lend_unsafe_stride(void *addr, int fd) {
  ARGS((uint64_t)addr, (uint64_t)(int64_t)fd);
  return (int)dipc_gate(OP_LEND_UNSAFE, &a);
}

DIPC_EXPORT const void *dipc_runtime_syscall_site(void) {
  extern const char dipc_syscall_site[] DIPC_HIDDEN;
  return dipc_syscall_site;
}

DIPC_EXPORT int dipc_lent_fs(uintptr_t tcb) {
  ARGS((uint64_t)tcb);
  return (int)dipc_gate(OP_LENT_FS, &a);
}

DIPC_EXPORT int dipc_share_map(void *addr, size_t len, int prot, int fd,
                               off_t offset, int copy) {
  ARGS((uint64_t)addr, len, (uint64_t)prot, (uint64_t)(int64_t)fd,
       (uint64_t)offset, (uint64_t)copy);
  return (int)dipc_gate(OP_SHARE_MAP, &a);
}

/* The loader's munmap for instrumented code under `sfi` (sfi.c): only the
 * loader may ask. */
DIPC_EXPORT long __dipc_sfi_munmap(void *addr, size_t len) {
  if (!dipc_trusted_caller(__builtin_return_address(0)))
    return -EPERM;
  ARGS((uint64_t)addr, len);
  return dipc_gate(OP_SFI_UNMAP, &a);
}

DIPC_EXPORT int dipc_set_fault_hook(void (*hook)(void)) {
  ARGS((uint64_t)hook);
  return (int)dipc_gate(OP_SET_FAULT_HOOK, &a);
}

DIPC_EXPORT void *dom_heap(dom_t dom) {
  ARGS((uint64_t)dom);
  return (void *)dipc_gate(OP_DOM_HEAP, &a);
}

/* The loader, which knows the names, replaces this (loader/heap.c). */
DIPC_EXPORT dom_t dipc_domain_named(const char *name) {
  (void)name;
  return -DIPC_ENOENT;
}

DIPC_EXPORT int dom_remap(dom_t dst, dom_t src, void *addr, size_t size) {
  ARGS((uint64_t)dst, (uint64_t)src, (uint64_t)addr, size);
  return (int)dipc_gate(OP_DOM_REMAP, &a);
}

DIPC_EXPORT grant_t grant_create(dom_t src, dom_t dst) {
  ARGS((uint64_t)src, (uint64_t)dst);
  return dipc_gate(OP_GRANT_CREATE, &a);
}

DIPC_EXPORT int grant_revoke(grant_t grant) {
  ARGS((uint64_t)grant);
  return (int)dipc_gate(OP_GRANT_REVOKE, &a);
}

#define ENTRY_ARGS(...)                                                        \
  struct dipc_gate_entry_args a = {.base = {.arg = {__VA_ARGS__}}}

DIPC_EXPORT entry_t entry_register(dom_t dom, unsigned count,
                                   const struct dipc_entry_desc *entries) {
  if (count == 0 || count > DIPC_MAX_ENTRIES || !entries)
    return -DIPC_EINVAL;
  ENTRY_ARGS((uint64_t)dom, count);
  DIPC_USER_READ(entries, count * sizeof *entries);
  memcpy(a.desc, entries, count * sizeof *entries);
  return dipc_gate(OP_ENTRY_REGISTER, &a.base);
}

DIPC_EXPORT dom_t entry_request(entry_t entry, unsigned count,
                                struct dipc_entry_desc *entries) {
  if (count == 0 || count > DIPC_MAX_ENTRIES || !entries)
    return -DIPC_EINVAL;
  ENTRY_ARGS((uint64_t)entry, count);
  DIPC_USER_WRITE(entries, count * sizeof *entries);
  memcpy(a.desc, entries, count * sizeof *entries);
  long r = dipc_gate(OP_ENTRY_REQUEST, &a.base);
  if (r >= 0)
    for (unsigned i = 0; i < count; i++)
      entries[i].address = a.desc[i].address;
  return r;
}

DIPC_EXPORT long dipc_import_register(dom_t caller, void **slot,
                                      const struct dipc_signature *signature,
                                      dipc_policy_t policy, const char *what) {
  if (!signature || !what)
    return -DIPC_EINVAL;
  DIPC_USER_READ(signature, sizeof *signature);
  struct dipc_gate_import_args a = {
      .base = {.arg = {(uint64_t)caller, (uint64_t)slot}},
      .desc = {NULL, *signature, policy}};
  USER_STRING_COPY(a.what, what, sizeof a.what);
  return dipc_gate(OP_IMPORT_REGISTER, &a.base);
}

DIPC_EXPORT int dipc_domain_name(dom_t dom, const char *name) {
  if (!name)
    return -DIPC_EINVAL;
  struct dipc_gate_import_args a = {.base = {.arg = {(uint64_t)dom}}};
  USER_STRING_COPY(a.what, name, sizeof a.what);
  return (int)dipc_gate(OP_DOM_NAME, &a.base);
}

DIPC_EXPORT int dipc_import_bind(long import, entry_t entry) {
  ARGS((uint64_t)import, (uint64_t)entry);
  return (int)dipc_gate(OP_IMPORT_BIND, &a);
}

DIPC_EXPORT long dipc_anycall_register(entry_t entry, void *stub,
                                      const struct dipc_signature *signature) {
  if (!signature)
    return -DIPC_EINVAL;
  ENTRY_ARGS((uint64_t)entry);
  DIPC_USER_READ(signature, sizeof *signature);
  a.desc[0] = (struct dipc_entry_desc){stub, *signature, 0};
  return dipc_gate(OP_ANYCALL_REGISTER, &a.base);
}

DIPC_EXPORT long dipc_forget_object(void *addr, size_t size) {
  ARGS((uint64_t)addr, (uint64_t)addr + size);
  return dipc_gate(OP_FORGET, &a);
}

DIPC_EXPORT int dipc_handle_close(int64_t handle) {
  ARGS((uint64_t)handle);
  return (int)dipc_gate(OP_HANDLE_CLOSE, &a);
}

DIPC_EXPORT const char *dipc_backend(void) {
  switch (dipc_machine.backend) {
  case DIPC_BACKEND_MPK:
    return "mpk";
  case DIPC_BACKEND_SFI:
    return "sfi";
  default:
    return "none";
  }
}

/* Output pointers are written here (DIPC_USER_WRITE); NULL is refused. */
DIPC_EXPORT int dipc_get_stats(struct dipc_stats *out) {
  if (!out)
    return -DIPC_EINVAL;
  DIPC_USER_WRITE(out, sizeof *out);
  ARGS(0);
  long r = dipc_gate(OP_STATS, &a);
  out->apl_misses = a.out[0];
  out->resident_domains = (uint32_t)a.out[1];
  out->live_handles = (uint32_t)a.out[2];
  return (int)r;
}

DIPC_EXPORT int dipc_domain_pkey(dom_t dom) {
  ARGS((uint64_t)dom);
  return (int)dipc_gate(OP_DOM_PKEY, &a);
}

DIPC_EXPORT long dipc_kcs_depth(void) {
  ARGS(0);
  return dipc_gate(OP_KCS_DEPTH, &a);
}

DIPC_EXPORT void *dipc_thread_state(void) {
  ARGS(0);
  return (void *)dipc_gate(OP_THREAD_STATE, &a);
}

DIPC_EXPORT long dipc_current_domain(void) {
  ARGS(0);
  return dipc_gate(OP_CURRENT_DOM, &a);
}

DIPC_EXPORT int dipc_thread_init(void) {
  ARGS(0);
  return (int)dipc_gate(OP_THREAD_INIT, &a);
}

DIPC_EXPORT int dipc_thread_reserve(void) {
  ARGS(1);
  return (int)dipc_gate(OP_THREAD_RESERVE, &a);
}

DIPC_EXPORT void dipc_thread_unreserve(void) {
  ARGS(0);
  dipc_gate(OP_THREAD_RESERVE, &a);
}

DIPC_EXPORT int dipc_thread_init_reserved(void) {
  ARGS(0);
  return (int)dipc_gate(OP_THREAD_INIT_RESERVED, &a);
}

DIPC_EXPORT long dipc_thread_spawn(void *(*routine)(void *), void *arg) {
  ARGS((uint64_t)routine, (uint64_t)arg);
  return dipc_gate(OP_THREAD_SPAWN, &a);
}

DIPC_EXPORT int dipc_thread_adopt(long ticket, void **proxy, void **arg) {
  ARGS((uint64_t)ticket);
  int r = (int)dipc_gate(OP_THREAD_ADOPT, &a);
  if (r == 0) {
    DIPC_USER_WRITE(proxy, sizeof *proxy);
    DIPC_USER_WRITE(arg, sizeof *arg);
    *proxy = (void *)a.out[0];
    *arg = (void *)a.out[1];
  }
  return r;
}

DIPC_EXPORT void dipc_thread_spawn_drop(long ticket) {
  ARGS((uint64_t)ticket);
  dipc_gate(OP_THREAD_SPAWN_DROP, &a);
}

DIPC_EXPORT void *dipc_domain_callback(void *fn, int args) {
  ARGS((uint64_t)fn, (uint64_t)args);
  long r = dipc_gate(OP_CALLBACK_PROXY, &a);
  return r < 0 ? NULL : (void *)r;
}

DIPC_EXPORT long dipc_thread_exit_value(void *value) {
  ARGS(1, (uint64_t)value);
  return dipc_gate(OP_THREAD_EXIT_VALUE, &a);
}

DIPC_EXPORT int dipc_thread_exit_value_take(void **value) {
  ARGS(0);
  int r = (int)dipc_gate(OP_THREAD_EXIT_VALUE, &a);
  DIPC_USER_WRITE(value, sizeof *value);
  *value = r == 1 ? (void *)a.out[0] : NULL;
  return r;
}

/* pthread_atfork handlers (dipc_runtime_init): through the gate, since the
 * locks are runtime memory. */
static void fork_gate(enum dipc_fork_phase phase) {
  ARGS(phase);
  dipc_gate(OP_FORK, &a);
}
static void fork_prepare(void) { fork_gate(FORK_PREPARE); }
static void fork_parent(void) { fork_gate(FORK_PARENT); }
static void fork_child(void) { fork_gate(FORK_CHILD); }

void dipc_fork_handlers_install(void) {
  DIPC_CHECK(pthread_atfork(fork_prepare, fork_parent, fork_child) == 0,
             "pthread_atfork");
}

/* ---- capabilities ------------------------------------------------------- */

DIPC_EXPORT int dipc_cap_create(unsigned reg, const void *base, size_t size,
                                int perm) {
  ARGS(reg, (uint64_t)base, size, (uint64_t)(int64_t)perm);
  return (int)dipc_gate(OP_CAP_CREATE, &a);
}

DIPC_EXPORT int dipc_cap_derive(unsigned dst, unsigned src, size_t offset,
                                size_t size, int perm) {
  ARGS(dst, src, offset, size, (uint64_t)(int64_t)perm);
  return (int)dipc_gate(OP_CAP_DERIVE, &a);
}

DIPC_EXPORT int dipc_cap_push(unsigned reg) {
  ARGS(reg);
  return (int)dipc_gate(OP_CAP_PUSH, &a);
}

DIPC_EXPORT int dipc_cap_pop(unsigned reg) {
  ARGS(reg);
  return (int)dipc_gate(OP_CAP_POP, &a);
}

DIPC_EXPORT int dipc_cap_revoke(unsigned reg) {
  ARGS(reg);
  return (int)dipc_gate(OP_CAP_REVOKE, &a);
}

/* The loader's scans and a program's (dipc/rt.h). */
DIPC_EXPORT int dipc_code_scan(const void *code, size_t size,
                               struct dipc_code_hit *hit) {
  DIPC_USER_READ(code, size);
  DIPC_USER_WRITE(hit, sizeof *hit);
  return dipc_code_find(code, size, hit);
}

DIPC_EXPORT int dipc_cap_read(unsigned reg, struct dipc_cap *out) {
  if (!out)
    return -DIPC_EINVAL;
  DIPC_USER_WRITE(out, sizeof *out);
  ARGS(reg);
  long r = dipc_gate(OP_CAP_READ, &a);
  if (r == 0)
    memcpy(out, a.out, sizeof *out);
  return (int)r;
}

DIPC_EXPORT int dipc_cap_check(unsigned reg, const void *addr, size_t size,
                               int perm) {
  ARGS(reg, (uint64_t)addr, size, (uint64_t)(int64_t)perm);
  return (int)dipc_gate(OP_CAP_CHECK, &a);
}

DIPC_EXPORT long dipc_dcs_depth(void) {
  ARGS(0);
  return dipc_gate(OP_DCS_DEPTH, &a);
}

DIPC_EXPORT int dipc_set_call_timeout(unsigned long ns) {
  ARGS(ns);
  return (int)dipc_gate(OP_SET_CALL_TIMEOUT, &a);
}

DIPC_EXPORT long dipc_unwind_jump(const void *sp) {
  ARGS((uint64_t)sp);
  return dipc_gate(OP_UNWIND_JUMP, &a);
}

/* The loader's (loader/xproc_listen.c) serves; this one is what a program
 * run without it finds. */
DIPC_EXPORT int dipc_serve(void) {
  fputs("dipc: dipc_serve() needs the program run with dipc-run "
        "--listen=PATH\n",
        stderr);
  return -DIPC_EINVAL;
}

/* dipc/rt.h - the dIPC run-time API (paper Table 2) and the emulated CODOMs
 * machine of libdipc.
 *
 * Objects and handles. Domains, grants and entry-point sets are named by
 * opaque 64-bit handles, the user-space analogue of the paper's file
 * descriptors. Every function validates them: a value that is not a live
 * handle of the right kind yields -DIPC_EBADF, a handle that was closed
 * (dipc_handle_close) or a revoked grant yields -DIPC_ESTALE, a handle whose
 * permission is too low yields -DIPC_EPERM. A handle belongs to the domain
 * whose code obtained it (the emulation's processes are its domains): to
 * code running in another domain its value is no handle (-DIPC_EBADF).
 * Nothing ever crashes on a bad handle. Functions return a handle (>= 0) or 0 on success and a negated
 * DIPC_E* code on failure; dom_mmap returns a pointer or DIPC_ERR_PTR(-code).
 *
 * Permissions are ordered owner > write > read > call > nil. A domain handle
 * carries one; `owner` allows managing the domain (mmap, remap, grants from
 * it, entry registration).
 *
 * The runtime initialises itself from a constructor; the enforcement
 * backend is chosen there: DIPC_BACKEND=mpk|none in the environment, else
 * `mpk` when protection keys work and `none` (with a warning) otherwise.
 */
#ifndef DIPC_RT_H
#define DIPC_RT_H

#include <dipc.h>
#include <dipc/perm.h>
#include <dipc/signature.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes (negated on return). Values equal the Linux errno names. */
#define DIPC_EPERM 1   /* handle lacks the required permission */
#define DIPC_ENOENT 2  /* dom_remap: pages are not (all) in the source */
#define DIPC_EBADF 9   /* not a handle, forged, or a handle of another kind */
#define DIPC_ENOMEM 12 /* out of memory or address space */
/* DIPC_EFAULT 14 (dipc.h): a cross-domain callee faulted */
#define DIPC_EINVAL                                                            \
  22                    /* malformed argument (count, signature, perm, flags)  \
                         */
#define DIPC_EBUSY 16   /* dipc_forget_object: some page is still mapped */
#define DIPC_EEXIST 17  /* dipc_anycall_register: stub already registered */
#define DIPC_ENOSPC 28  /* a runtime table is full */
#define DIPC_EPROTO 71  /* entry_request: signature mismatch (P4) */
#define DIPC_ESTALE 116 /* handle closed, grant revoked */

#define DIPC_ERR_PTR(err) ((void *)(intptr_t)(err))
static inline long dipc_ptr_err(const void *p) {
  return (uintptr_t)p >= (uintptr_t)-4095 ? (long)(intptr_t)p : 0;
}

typedef int64_t dom_t;
typedef int64_t grant_t;
typedef int64_t entry_t;

/* Most entries one entry_register / entry_request handles. */
#define DIPC_MAX_ENTRIES 64

/* One entry point: its address, signature and isolation policy (a mask of
 * enum dipc_iso_property). entry_request overwrites `address` with the
 * proxy to call. */
struct dipc_entry_desc {
  void *address;
  struct dipc_signature signature;
  dipc_policy_t policy;
};

/* ---- Table 2 ------------------------------------------------------------ */

/* Owner handle to the process's default domain, for code running in it;
 * code running in a named domain gets a handle with the permission its APL
 * gives it on the default domain (nil, call, read or write). */
dom_t dom_default(void);
/* Owner handle to a new, isolated domain (P1: in no APL). */
dom_t dom_create(void);
/* Handle to dom's domain with permission perm; -EPERM unless
 * perm <= dom's permission, -EINVAL for a perm outside enum dipc_perm. */
dom_t dom_copy(dom_t dom, int perm);
/* mmap(2) whose pages belong to dom (owner). prot: PROT_READ, PROT_WRITE,
 * PROT_EXEC; flags: MAP_SHARED, MAP_PRIVATE, MAP_SHARED_VALIDATE,
 * MAP_ANONYMOUS, MAP_NORESERVE, MAP_POPULATE, MAP_STACK; anything else
 * (MAP_FIXED, MAP_GROWSDOWN, huge pages) is -EINVAL. */
void *dom_mmap(dom_t dom, void *addr, size_t length, int prot, int flags,
               int fd, off_t offset);
/* First byte of dom's heap region (any permission): DIPC_HEAP_STRIDE bytes
 * (dipc/abi.h) from which the loader's malloc serves code running in that
 * domain (docs/loader.md, "Heaps"). DIPC_ERR_PTR(-DIPC_ENOENT) for the
 * default domain, whose heap is the C library's. */
void *dom_heap(dom_t dom);
/* An owner handle to the domain the program's records call `name`
 * (`__dom(name)`, -fdipc-domain=name), for code of the default domain:
 * -DIPC_ENOENT for an unknown name or without the loader (dipc-run),
 * -DIPC_EPERM from any other domain. Each call returns a new handle. */
dom_t dipc_domain_named(const char *name);
/* Move the pages [addr, addr+size) from src to dst; both owner, addr and size
 * page aligned, all pages in src (-ENOENT otherwise: the default domain's
 * pages never include the runtime's state, thread stacks or kernel-made
 * mappings), none of a shared mapping under an enforcing backend (-EPERM:
 * another mapping of its object would still show them). Nothing moves when dst and src are the
 * same domain. */
int dom_remap(dom_t dst, dom_t src, void *addr, size_t size);
/* Add dst to src's APL with dst's permission (owner becomes write);
 * src must be owner. */
grant_t grant_create(dom_t src, dom_t dst);
/* Set the APL entry of the grant to nil; the grant handle becomes stale. */
int grant_revoke(grant_t grant);
/* Entry-point set of count entries of dom (owner); every address must lie in
 * dom's pages and every signature within the limits of signature.h. */
entry_t entry_register(dom_t dom, unsigned count,
                       const struct dipc_entry_desc *entries);
/* Proxies to the first count entries of entry; every signature must equal the
 * registered one (-EPROTO). Each entries[i].address is set to its proxy;
 * the policy is entries[i].policy | the registered policy. Returns a handle
 * with `call` permission to the new proxy domain. */
dom_t entry_request(entry_t entry, unsigned count,
                    struct dipc_entry_desc *entries);

/* Invalidate one handle (the object lives on). */
int dipc_handle_close(int64_t handle);

/* ---- Capabilities (paper §4): 8 registers and the DCS per thread --------- */

#define DIPC_CAP_REGS 8
struct dipc_cap {
  uint64_t base, size;
  uint32_t perm, dom; /* DIPC_PERM_NIL: empty register */
  uint64_t reserved;
};
/* reg = capability to [base, base+size) with perm (call..write), allowed only
 * if the current domain's APL grants at least perm on all those pages. */
int dipc_cap_create(unsigned reg, const void *base, size_t size, int perm);
/* dst = a narrower capability within src: offset+size within src, perm
 * at most src's. Widening is -EPERM. */
int dipc_cap_derive(unsigned dst, unsigned src, size_t offset, size_t size,
                    int perm);
int dipc_cap_push(unsigned reg); /* onto the DCS; -ENOSPC when full */
int dipc_cap_pop(unsigned reg);  /* -EPERM below the DCS base */
int dipc_cap_revoke(unsigned reg);
int dipc_cap_read(unsigned reg, struct dipc_cap *out);
/* 0 if reg grants perm on [addr, addr+size), else -EPERM. */
int dipc_cap_check(unsigned reg, const void *addr, size_t size, int perm);
/* Entries between the DCS base and top visible to the current domain.
 * A NULL `out` (dipc_cap_read, dipc_get_stats) is -EINVAL. */
long dipc_dcs_depth(void);

/* ---- Introspection ------------------------------------------------------ */

/* "mpk" or "none". */
const char *dipc_backend(void);
struct dipc_stats {
  uint64_t apl_misses;       /* resident domains evicted (key re-used) */
  uint32_t resident_domains; /* domains holding a protection key now */
  uint32_t live_handles;
};
int dipc_get_stats(struct dipc_stats *out);
/* Protection key currently tagging dom's pages (-1: virtualised away). */
int dipc_domain_pkey(dom_t dom);
/* Cross-domain calls in progress on this thread. */
long dipc_kcs_depth(void);
/* Address of this thread's runtime state (for diagnostics and tests: it
 * cannot be read or written outside the runtime's gates). */
void *dipc_thread_state(void);
/* Index of the domain the calling thread runs in (0 = default). */
long dipc_current_domain(void);
/* Names domain dom (an owner handle) once, from the default domain: the
 * loader names each annotated domain. The name (an identifier, under 64
 * bytes) picks the domain's callee stack size from DIPC_CALLEE_STACK
 * (`dipc-run --callee-stack=NAME=SIZE`) and names it in the runtime's
 * reports. -DIPC_EPERM from a named domain or without owner rights,
 * -DIPC_EEXIST if dom or another domain already has the name,
 * -DIPC_EINVAL for a bad name. */
int dipc_domain_name(dom_t dom, const char *name);

/* ---- Time-outs (docs/loader.md, "Signals, jumps and time-outs") ---------- */

/* Bounds every outermost cross-domain call this thread makes from now on
 * to about ns nanoseconds (at least 100000; 0: no bound): a call still
 * running between ns and 1.5 ns after it started is unwound like a callee
 * fault and returns 0 with dipc_errno == DIPC_ETIMEDOUT; the callee domain
 * stays usable. Only outside cross-domain calls (-DIPC_EPERM); needs the
 * loader (-DIPC_EINVAL without it). */
int dipc_set_call_timeout(unsigned long ns);

/* Sets the calling domain's fault hook (NULL: none): a function of the
 * domain's own code, run as the domain on a thread whose call into the
 * domain crashed, timed out or threw, right after the call was unwound and
 * before that thread's caller resumes (docs/loader.md, "Fault hooks"). It
 * releases what the dead call held (locks) and resets state; other threads
 * may call into the domain meanwhile. A crash in the hook makes it return
 * early. -DIPC_EPERM from the default domain, -DIPC_EINVAL if hook is not
 * the domain's code. */
int dipc_set_fault_hook(void (*hook)(void));

/* ---- Cross-process calls (docs/cross-process.md) ------------------------- */

/* Serves this process's entries to other processes (dipc-run
 * --listen=PATH): makes its memory shareable, starts the threads callers
 * borrow and the socket's, and waits; returns 0 once the process is asked
 * to stop (SIGINT, SIGTERM, SIGHUP; the socket file is removed), or
 * -DIPC_EINVAL (with a message) when not run with --listen or when the
 * process cannot be shared. Call it from main after initialising what the
 * entries use, while no other thread of the program runs. */
int dipc_serve(void);

/* ---- For the loader ----------------------------------------------------- */

/* Maps fd's first stride over the lent unsafe stride at addr (cross-process
 * calls, loader/xproc_*.c): shared between processes, accepted by compiled
 * code as unsafe stacks. Default domain only (-DIPC_EPERM); -DIPC_EINVAL
 * for an address that is not a lent stride's. */
int dipc_lend_unsafe_stride(void *addr, int fd);
/* Cross-process calls under mpk (loader/xproc_enter.S): the thread's fs
 * base becomes tcb, a TCB another process lends, which must lie in the
 * running domain's pages, and that domain stand for the other process
 * (the loader's watcher said so: dipc_share_map with fd -3), else
 * -DIPC_EPERM; 0 gives the thread its own back. */
int dipc_lent_fs(uintptr_t tcb);
/* The address after the runtime's own system-call instruction (what a
 * seccomp filter sees), which another filter of the process must let
 * through: the runtime makes its calls with every signal blocked, so a
 * trap there would kill the process (mpk: the runtime's filter checks
 * them). */
const void *dipc_runtime_syscall_site(void);
/* Cross-process memory (loader/xproc_*.c), default domain only
 * (-DIPC_EPERM): fd at offset is mapped shared over [addr, addr + len),
 * read/write protections only, each page with the key of the domain that
 * owns it (mpk). copy = 1 (a process run with --listen): the contents of
 * [addr, addr + len) are first written to fd at offset, so the process
 * keeps them. copy = 0 (a process run with --connect): [addr, addr + len)
 * must be the pages of one domain, reserved (PROT_NONE when they were
 * given to it, and not mapped over since), and the calling thread one that
 * claimed the right (addr NULL, len 0, fd -1, copy 0) before the claims
 * were sealed (the same with fd -2): the loader's, at start. Such a thread
 * says with fd -3 (prot 0, copy 0) that the domain owning the reservation
 * [addr, addr + len) stands for another process (dipc_lent_fs). copy = 2
 * (--listen): the contents are only written to fd (code, which importers
 * copy). Never the runtime's memory. */
int dipc_share_map(void *addr, size_t len, int prot, int fd, off_t offset,
                   int copy);

/* The real-time signal of the time-out timers (SIGRTMAX), which the loader
 * keeps for itself. */
#define DIPC_TIMEOUT_SIGNAL 64

/* The size of the alternate signal stack the loader gives every thread
 * (its handlers run there); the runtime tells code running on it by it. */
#define DIPC_ALTSTACK_SIZE (256 * 1024)
/* Signal handlers (gates, like __dipc_recover_from_fault): before a
 * program's handler runs, and after it returned, with its ucontext. The
 * handler runs as the default domain on the loader's alternate stack and
 * may call across domains; 1 if it may (leave must then follow), 0 if not
 * (it interrupted the runtime). */
int __dipc_signal_enter(void *ucontext);
int __dipc_signal_leave(void *ucontext);
/* The time-out timer's signal: unwinds a call past its bound (rewrites
 * the context, 1) or does nothing (0). */
int __dipc_timeout_tick(void *ucontext);
/* Whether the calling thread's outermost call has run past its time-out
 * (1) or not (0): the loader asks while the thread waits for a system
 * call another process makes for it, where no tick can unwind the call. */
int __dipc_timeout_due(void);
/* Before a longjmp-family jump to a frame whose stack pointer is sp: pops
 * the cross-domain calls and signal frames it leaves. 0: jump;
 * -DIPC_EPERM: refused, the calling domain may not leave its call that
 * way (treat as its fault); -DIPC_EINVAL: refused, the frame is not one
 * the thread can resume (outside the stack it would run on, or not the
 * default domain's when calls are left). */
long dipc_unwind_jump(const void *sp);

/* Create this thread's state now (it is otherwise created at its first
 * gate or proxy). Returns 0. */
int dipc_thread_init(void);
/* Thread slots (docs/loader.md): set one aside for a thread about to be
 * created (0, or -DIPC_ENOSPC when every slot is in use or set aside); give
 * it back when the thread could not be created; the new thread creates
 * its state in it with dipc_thread_init_reserved (returns 0). A thread
 * without a reservation never takes a slot set aside. */
int dipc_thread_reserve(void);
void dipc_thread_unreserve(void);
int dipc_thread_init_reserved(void);
/* Threads a named domain creates run their start routine as that domain
 * (docs/runtime.md §2). The loader's pthread_create asks for a ticket
 * (0 when the caller runs as the default domain: start as usual; negative:
 * -DIPC_E...), hands it to the new thread, which trades it, running as the
 * default domain outside any call, for the proxy to call with arg; a ticket
 * no thread will take is dropped by the domain that got it. */
long dipc_thread_spawn(void *(*routine)(void *), void *arg);
int dipc_thread_adopt(long ticket, void **proxy, void **arg);
void dipc_thread_spawn_drop(long ticket);
/* A function the calling domain hands libc to call later, from whatever
 * domain runs then (a thread-specific data destructor, an exit handler;
 * the loader's interceptors under `sfi`; a signal handler, the loader's
 * sigaction): a proxy that runs it as the calling domain (callable by the
 * default domain and that domain), fn itself in the default domain, NULL
 * when none can be made. args: its integer arguments, at most 4. */
void *dipc_domain_callback(void *fn, int args);
/* pthread_exit in such a thread (the loader's): the start routine's call
 * keeps value (0; -DIPC_EPERM as the default domain, -DIPC_EINVAL inside a
 * deeper call) and then ends as a crash; the start code, back in the
 * default domain, takes it (1 and *value when there is one, else 0). */
long dipc_thread_exit_value(void *value);
int dipc_thread_exit_value_take(void **value);
/* Called by the loader's SIGSEGV/SIGBUS/... handler with the signal's
 * ucontext. If the thread is inside a cross-domain call, unwinds the KCS to
 * the newest entry whose recovery buffer is armed and rewrites the context
 * to resume there with dipc_errno = DIPC_EFAULT (setjmp style, docs/abi.md
 * §4), restoring the caller's domain, stack and DCS. Returns 1 if the
 * context was rewritten, 0 if the fault is not recoverable by dIPC. */
int __dipc_recover_from_fault(void *ucontext);
/* Under `sfi`: what the thread's checks refused last (dipc/sfi.h), for
 * the fault report: an access (*kind 0: its first refused byte, size,
 * read or write, the tag of the refused page) or a control transfer
 * (*kind DIPC_SFI_CFI_*: its target in *addr; for a return, *expected is
 * the return address the shadow stack holds), and the running domain. 0
 * under other backends, and to any caller but the loader: a domain would
 * learn where another domain's refused access went (an index of its
 * secret's, attack round 29; a demangled jump buffer's word, round 15). */
int __dipc_sfi_fault_info(uintptr_t *addr, uint64_t *size, int *write,
                          uint32_t *running, uint32_t *owner_tag,
                          uint32_t *kind, uintptr_t *expected);
/* Under `sfi`: 1 if the running domain may unmap, re-protect or map over
 * every page of [addr, addr + len) (it may write them, they are a
 * domain's, and no page of the runtime's is next to them), else 0. 1 under
 * the other backends, whose own checks apply. */
int __dipc_sfi_may_replace(uintptr_t addr, uint64_t len);
/* Under `sfi`: 1 if a page of the runtime's lies right below or above
 * [addr, addr + len): memory a domain may not map (libc writing through a
 * pointer near its end would run on into the runtime's). */
int __dipc_sfi_next_to_runtime(uintptr_t addr, uint64_t len);
/* Under `sfi`, for the loader's interceptor only (-EPERM to anyone
 * else): munmap(2) made under the runtime's lock, the pages tagged 0
 * after; the raw result (-errno on failure), -EPERM where the running
 * domain may not, or the range has more than one tag. */
long __dipc_sfi_munmap(void *addr, size_t len);

/* Lazy imports (paper §6.2.1; docs/runtime.md). dipc_import_register points
 * *slot at a guard address of the runtime's: the first call through it
 * faults, the crash handler passes the fault to dipc_import_fault, and the
 * call continues in a runtime trampoline that requests a proxy to the bound
 * entry with caller's signature and policy (step A: P4 check, policies
 * merged, call grant to `caller`), stores it in *slot (step B) and enters
 * it. `caller` needs owner permission; the slot must be 8-aligned memory
 * caller's domain may write (its own pages or pages its APL grants write
 * on; never runtime state or a stack: -EPERM), mapped writable (-EINVAL),
 * which the calling domain may write too unless it is in caller's own
 * pages. `what` names the import in the message printed if it cannot be
 * resolved then (the process stops with status 78). Returns the import's
 * id (>= 0) or a negated error. */
#define DIPC_IMPORT_WHAT 160
long dipc_import_register(dom_t caller, void **slot,
                          const struct dipc_signature *signature,
                          dipc_policy_t policy, const char *what);
/* Binds an import to the entry set whose first entry it calls (once; only
 * the domain that registered the import, else -EPERM). */
int dipc_import_bind(long import, entry_t entry);

/* Entry addresses (docs/abi.md §4, "Anycall"): makes `stub`, an entry's
 * anycall stub (the address -fdipc code takes of the entry), call the
 * first entry of `entry`'s set from any domain, through a proxy of its
 * own. The signature is the one the stub's object declares (P4:
 * -DIPC_EPROTO if it differs). Only the default domain (the loader) may
 * register; a stub is registered once (-DIPC_EEXIST), never replaced;
 * -DIPC_EINVAL if `stub` is not an anycall stub in the default domain's
 * text. */
long dipc_anycall_register(entry_t entry, void *stub,
                           const struct dipc_signature *signature);
/* The loader unloaded (dlclose) an object that spanned [addr, addr + size),
 * page-aligned and now wholly unmapped (-DIPC_EBUSY otherwise): the runtime
 * forgets it. Its pages leave their domains; its entry sets die, with
 * every handle to them; imports bound to them are unbound (their slot is
 * back on its guard: the next call stops the process as an undefined
 * import does, unless the entry is loaded and bound again first); imports
 * whose slot was in it are dropped; anycall stubs in it, or calling its
 * entries, are removed (a call through one stops the process); proxies
 * to its entries stop being executable (a call through one kept faults).
 * Domains, their keys and heaps stay. Only the default domain may ask
 * (-DIPC_EPERM). Returns how many runtime objects it dropped. */
long dipc_forget_object(void *addr, size_t size);
/* Rewrites a fault on an import's guard address to resume in the
 * trampoline; 1 if it did, 0 if the fault is not one. Signal-safe. */
int dipc_import_fault(void *ucontext);

/* ---- Executable memory (mpk backend) ------------------------------------ */

/* A byte sequence that could write PKRU or the fs/gs base outside the
 * runtime's gates: `insn` is "wrpkru", "xrstor", "wrfsbase" or
 * "wrgsbase", `offset` the position of its 0x0f byte. */
struct dipc_code_hit {
  const char *insn;
  size_t offset;
};
/* Finds the first such sequence at any byte offset of [code, code+size)
 * (jumps may land inside instructions). Returns 1 and fills *hit, else 0. */
int dipc_code_scan(const void *code, size_t size, struct dipc_code_hit *hit);
/* For the loader's SIGSYS handler: the runtime's seccomp filter traps
 * every mmap and mprotect with PROT_EXEC that does not come from the
 * runtime; this rewrites such a trap's context to perform the call in the
 * runtime, checked (docs/runtime.md §6). Returns 1 if it did, 0 if the
 * signal is not such a trap. Signal-safe. */
int dipc_syscall_trap(const void *siginfo, void *ucontext);
/* How many requests to map a file executable were refused so far (the
 * loader stops the program when dlopen fails because of one). */
unsigned long dipc_exec_refusals(void);

#ifdef __cplusplus
}
#endif

#endif

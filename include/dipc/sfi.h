/* sfi.h - the contract between code compiled with -fdipc -fdipc-sfi and
 * the `sfi` backend of libdipc (docs/abi.md §7): CODOMs' access checks done
 * in software. #defines and one declaration only: shared by C, C++
 * (llvm-passes/) and the runtime.
 *
 * Every page of the 47-bit user address space has a 16-bit tag in the
 * shadow: the domain that owns the page (0 = the default domain, which
 * owns all memory no other domain owns), or one of the special tags below.
 * The runtime keeps the tags in step with page ownership (the same events
 * that re-key pages under `mpk`); pages never tagged read as 0.
 *
 * The rights matrix holds one row of DIPC_SFI_TAGS bytes per domain: the
 * bits DIPC_SFI_READ and DIPC_SFI_WRITE that the domain's APL grants on
 * pages of each tag. A row is the software image of what a PKRU value is
 * under `mpk`.
 *
 * The running domain is the u32 at %gs:DIPC_SFI_CUR_DOM_GS_OFFSET (the
 * thread's runtime state, written by proxies only): code checks an access
 * against the rights of the domain the thread runs as, exactly as PKRU
 * does, so code reached without an entry runs with its caller's rights.
 *
 * An access of `size` bytes at `addr` by instrumented code is allowed when
 *
 *   row  = DIPC_SFI_RIGHTS_ADDR + cur_dom * DIPC_SFI_TAGS
 *   tag  = ((uint16_t *)DIPC_SFI_SHADOW_ADDR)[addr >> DIPC_SFI_PAGE_SHIFT]
 *   row[tag] & (write ? DIPC_SFI_WRITE : DIPC_SFI_READ)
 *
 * and the access stays in one page; otherwise (or for a range of run-time
 * length) the code calls DIPC_SFI_CHECK_FN, which checks every page of the
 * range (a callee stack's by whose it is, DIPC_SFI_TAG_STACK; and the
 * thread's capability registers) and either returns (the
 * access is allowed) or reports the fault as `mpk` reports a protection-key
 * fault and recovers the same way (DIPC_EFAULT to the nearest live caller).
 * Neither the shadow nor the matrix is writable by instrumented code:
 * their pages carry DIPC_SFI_TAG_RUNTIME. */
#ifndef DIPC_SFI_H
#define DIPC_SFI_H

#include "dipc/limits.h"

#define DIPC_SFI_PAGE_SHIFT 12
/* u16 per page of [0, 2^47): 2^35 pages, 64 GiB reserved, touched pages
 * only cost memory. 24 TiB: above AddressSanitizer's shadow, below the
 * domain heaps (dipc/abi.h). */
#define DIPC_SFI_SHADOW_ADDR 0x180000000000ull
#define DIPC_SFI_SHADOW_SIZE 0x1000000000ull
/* u8 rights[DIPC_MAX_DOMAINS][DIPC_SFI_TAGS], in the runtime's window
 * below 2 GiB (rt/layout.h), so the row offset fits an x86 displacement. */
#define DIPC_SFI_RIGHTS_ADDR 0x78000000
#define DIPC_SFI_TAGS 2048
#define DIPC_SFI_RIGHTS_SIZE (DIPC_MAX_DOMAINS * DIPC_SFI_TAGS)

/* Tags beyond the domains (0 .. DIPC_MAX_DOMAINS - 1). */
#define DIPC_SFI_TAG_RUNTIME DIPC_MAX_DOMAINS /* no domain: runtime state */
#define DIPC_SFI_TAG_SHARED (DIPC_MAX_DOMAINS + 1) /* every domain's: unsafe
  stacks, public thread pages, the runtime vector (page protections keep
  the read-only ones read-only) */
#define DIPC_SFI_TAG_STACK (DIPC_MAX_DOMAINS + 2) /* callee stacks: no row
  grants it. They hold return addresses, spills and saved registers, which
  compiled code trusts: no check allows a write there (a domain rewrote
  the saved copy of a pointer its caller had checked), and the slow path
  allows a read to the thread whose stack of the running domain it is
  only (libc hands callbacks pointers into its frames). The locals a check
  may reach live in the stack's data mirror instead (below). */

/* Data frames. Under `sfi` every callee stack [lo, hi) has a data mirror
 * [lo - DELTA, hi - DELTA), tagged the stack's domain: a function keeps
 * the locals its checks may reach (indexed at run time, passed on, a
 * variable-sized local, a va_list, a setjmp buffer, a byval copy) in the
 * mirror of a reservation of the same size in its frame, so that they
 * take no checked write on the callee stack and need no pointer of their
 * own (a frame's mirror moves with the stack pointer: threads, recovery,
 * longjmp and unwinding need nothing more). The offset is DELTA when the
 * stack pointer's page is tagged DIPC_SFI_TAG_STACK at the function's
 * entry, else 0 (the default domain's own stacks, and every stack under
 * the other backends: the reservation is the storage). */
#define DIPC_SFI_DATA_MIRROR_DELTA 0x200000000000ull /* 32 TiB */

/* The slow path's `write` argument for a move of the stack pointer (a
 * variable-sized local, a stackrestore): the stack it takes must be
 * writable, or lie in the thread's own callee stack of the running
 * domain below the stack's cur, where the running call's frames start. */
#define DIPC_SFI_STACK_MOVE 2

/* The slow path's `write` argument for a pointer argument of a call to a
 * function the unit does not define (libc, other libraries, other units):
 * its first byte must be readable, and on no callee stack, the thread's
 * own included (uninstrumented code writes through it unchecked). */
#define DIPC_SFI_CALL_ARG 3

#define DIPC_SFI_READ 1
#define DIPC_SFI_WRITE 2

/* struct dipc_thread's cur_dom (rt/layout.h ST_CUR_DOM). */
#define DIPC_SFI_CUR_DOM_GS_OFFSET 40

/* void __dipc_sfi_check(uintptr_t addr, uint64_t size, uint32_t write):
 * the slow path and the range check, exported by libdipc. */
#define DIPC_SFI_CHECK_FN "__dipc_sfi_check"

/* A page no one maps (in the runtime's window): the slow path, having
 * found an access denied, loads from it so that the fault is reported and
 * recovered from by the same signal path as a protection-key fault. */
#define DIPC_SFI_TRAP_ADDR 0x7fe00000

/* Control flow (issue #15 item 1).
 *
 * Returns: every instrumented function pushes a 16-byte entry
 * {return address, address of its return-address slot} on the thread's
 * shadow stack at entry (the u64 at %gs:DIPC_SFI_SSP_GS_OFFSET is its top;
 * it grows down), and before each return pops it if its top entry names
 * the function's slot and holds the return address the slot holds now;
 * otherwise it calls DIPC_SFI_RET_SLOW_FN with the slot's address. The
 * slow path drops stale entries (frames a longjmp or an exception left
 * without returning: their slots lie below) but never those of the
 * callers across the newest proxy or signal (at or above the floor: the
 * top that proxy or signal kept in its KCS entry), pops the function's
 * entry, and returns; or reports a control-flow fault and recovers as
 * from a denied access. The top word and the shadow stack are runtime
 * memory under `sfi`.
 *
 * Indirect calls: the target's 4 bytes before it must be
 * DIPC_SFI_CALL_MAGIC, which the compiler places before every function of
 * an instrumented unit and the runtime before every proxy; the check must
 * not hold the magic itself as an immediate (it compares with the
 * negation), so that no instruction of a check is a target. Otherwise the
 * code calls DIPC_SFI_CHECK_CALL_FN(target), which returns if the target
 * is another allowed start (an uninstrumented library's exported function
 * not replaced by an interceptor, or a function of the program's plain
 * units by the executable's symbol table) or reports a control-flow fault.
 * Indirect branches (computed goto) go only to their listed labels;
 * DIPC_SFI_CFI_FAIL_FN reports any other. */
#define DIPC_SFI_SSP_PAGE_GS_OFFSET 0x3e000 /* their page; mid-page: abi.h */
#define DIPC_SFI_SSP_GS_OFFSET 0x3e800
#define DIPC_SFI_CALL_MAGIC 0xcc1d5fc0u
/* void __dipc_sfi_ret_slow(void **slot) */
#define DIPC_SFI_RET_SLOW_FN "__dipc_sfi_ret_slow"
/* void __dipc_sfi_check_call(const void *target) */
#define DIPC_SFI_CHECK_CALL_FN "__dipc_sfi_check_call"
/* _Noreturn void __dipc_sfi_cfi_fail(uint32_t kind, const void *where) */
#define DIPC_SFI_CFI_FAIL_FN "__dipc_sfi_cfi_fail"
/* Wrappers: a function that only forwards (no arithmetic, no loads of its
 * own) to one caller stub (try-style: no call before it), with no loop,
 * gets no shadow-stack entry. It reads its return address at entry, as a
 * shadow stack's push does; its stub puts that word in xmm14 and the
 * address of the return-address slot, XORed with DIPC_SFI_RET_SLOT_KEY
 * (sign-extended: no stack address of a program looks like a keyed one),
 * in xmm15, and
 * calls only a target in the runtime's arena (its proxies and import
 * guards, [DIPC_RUNTIME_ARENA_ADDR, + DIPC_RUNTIME_ARENA_SIZE)) with the
 * call magic; for any other it calls DIPC_SFI_CHECK_PROXY_CALL_FN(target),
 * which reports a control-flow fault of kind DIPC_SFI_CFI_PROXY (and
 * returns under `none`). The `sfi` proxy keeps the slot and the word in
 * its KCS entry when the slot lies above the return address it was
 * called with, in the caller's stack, and writes the word back as its
 * last store before it returns (as fault recovery does): what the callee,
 * or code the callee ran meanwhile, wrote there never becomes the
 * wrapper's return. Another thread of the domain writing the slot right
 * before the wrapper's entry read or its ret is the race a shadow stack
 * has too (its push and its check). */
#define DIPC_SFI_RET_SLOT_KEY (-0x5af03c1f)
#define DIPC_RUNTIME_ARENA_ADDR 0x68000000
#define DIPC_RUNTIME_ARENA_SIZE 0x08000000
/* void __dipc_sfi_check_proxy_call(const void *target) */
#define DIPC_SFI_CHECK_PROXY_CALL_FN "__dipc_sfi_check_proxy_call"
/* The runtime's functions that -fdipc-sfi code calls are named
 * "__dipc_sfi_..." or DIPC_FAULT_LANDED_FN. An instrumented object must
 * define none of them (the compiler refuses such a definition, the loader
 * such an object under `sfi`): its checks would call its own. */
#define DIPC_SFI_RUNTIME_PREFIX "__dipc_sfi_"
/* But the passes' own: a module-local wrapper of the slow path (a
 * measurement switch, off by default), marked with this attribute. */
#define DIPC_SFI_PRESERVE_MOST_WRAPPER "__dipc_sfi_check_preserve_most"
#define DIPC_SFI_OWN_FUNCTION_ATTR "dipc-sfi-own-function"
#define DIPC_FAULT_LANDED_FN "__dipc_fault_landed"
#ifndef __ASSEMBLER__
#include <string.h>
static inline int dipc_sfi_is_runtime_name(const char *name) {
  return strncmp(name, DIPC_SFI_RUNTIME_PREFIX,
                 sizeof DIPC_SFI_RUNTIME_PREFIX - 1) == 0 ||
         strcmp(name, DIPC_FAULT_LANDED_FN) == 0;
}
#endif
#define DIPC_SFI_CFI_RETURN 1
#define DIPC_SFI_CFI_CALL 2
#define DIPC_SFI_CFI_BRANCH 3
/* longjmp: the loader's setjmp family records the context it lets glibc
 * save (rbx, rbp, r12-r15, rsp, pc: the order of glibc's __jmpbuf,
 * unmangled) with void __dipc_sfi_jmp_record(const void *buf, const
 * uintptr_t *ctx), for its own calls only; its longjmp family resumes
 * only the context the thread's last setjmp into that buffer saved: const
 * uintptr_t *__dipc_sfi_jump_take(const void *buf) returns it, checked,
 * in runtime memory, where the jump reads it (another thread could change
 * the buffer after a check), or reports a control-flow fault of this
 * kind. A forged or altered buffer would resume anywhere, past any check,
 * with any registers. */
#define DIPC_SFI_CFI_JUMP 4
#define DIPC_SFI_CFI_PROXY 5 /* a wrapper's stub, above */
#define DIPC_SFI_JMP_WORDS 8

/* A unit compiled with -fdipc-sfi lists, in a note of this owner and
 * type (section DIPC_SFI_CALLS_SECTION), the names of the functions it
 * calls and does not define, but the C library functions LLVM knows that
 * take no pointer and that it declares as the library does (each
 * NUL-terminated), whatever their parameters: before such a call only
 * the tags of its pointer arguments are checked (DIPC_SFI_CALL_ARG), or a
 * known function's pointers' first bytes, and an integer or an unnamed
 * register may carry a pointer. Under `sfi` the loader refuses a program
 * whose instrumented code calls one that the C library, the dynamic
 * linker or libgcc_s defines and the loader neither intercepts nor knows
 * to take no memory. */
#define DIPC_SFI_CALLS_NOTE_NAME "dipcsfi"
#define DIPC_SFI_CALLS_NOTE_TYPE 1
#define DIPC_SFI_CALLS_SECTION ".note.dipc.sfi"

/* A unit compiled with -fdipc-sfi marks its records note (dipc/note.h)
 * with this type instead of DIPC_NOTE_TYPE_RECORDS (same descriptor).
 * Under `sfi` the loader refuses an object with a unit not so marked. */
#define DIPC_NOTE_TYPE_RECORDS_SFI 3

#endif /* DIPC_SFI_H */

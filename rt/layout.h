/* layout.h - byte offsets of the runtime structures that assembly (gates,
 * proxy templates) touches. Shared by C and .S; internal.h checks every
 * offset against the C structures with _Static_assert. */
#ifndef DIPC_RT_LAYOUT_H
#define DIPC_RT_LAYOUT_H

#include "dipc/abi.h" /* the runtime vector and the public thread page */
#include "dipc/limits.h"
#include "dipc/sfi.h" /* the shadow-stack words of the thread slot */

/* Protection keys with a fixed role (dipc_backend_init insists on them). */
#define RT_PKEY_RUNTIME 1 /* runtime state, proxies, parked domains */
/* Shared by every domain: unsafe stacks, public thread pages, the
 * read-only tables. Thread and callee stacks (the safe stacks) carry the
 * key of the domain that runs on them (docs/runtime.md §2). */
#define RT_PKEY_STACK 2
#define RT_PKRU_RUNTIME_DENIED 0xc /* AD|WD of RT_PKEY_RUNTIME */
/* The PKRU Linux gives a signal handler (its init_pkru): every key but 0
 * access-disabled; the mask tests those AD bits and key 0's AD and WD. */
#define RT_PKRU_HANDLER 0x55555554
#define RT_PKRU_HANDLER_MASK 0x55555557

/* The runtime's window of fixed addresses, below 2 GiB (AddressSanitizer's
 * shadow starts there) so that the seccomp filter can keep system calls
 * off it with 32-bit compares: the thread region, the arena of runtime
 * memory (dipc_alloc_runtime), reserved up to the tables; the read-only
 * alias of the PKRU image table, at a fixed address so that exit gates can
 * check the image they installed with an absolute operand, followed by the
 * runtime vector (dipc/abi.h) and the anycall table; the writable alias of
 * all three. */
#define RT_WINDOW_LO 0x20000000
#define RT_THREADS_ADDR 0x20000000 /* RT_MAX_THREADS * RT_THREAD_STRIDE */
#define RT_THREADS_END 0x60000000
#define RT_ARENA_ADDR DIPC_RUNTIME_ARENA_ADDR /* dipc/sfi.h: wrappers check */
#define RT_ARENA_SIZE DIPC_RUNTIME_ARENA_SIZE
/* Two scratch areas where the runtime checks memory that others could
 * swap for another mapping anywhere else (exec.c, backend.c). */
#define RT_SCRATCH_A 0x70000000
#define RT_SCRATCH_B 0x74000000
#define RT_SCRATCH_SIZE 0x04000000
#define RT_RO_TABLE_ADDR 0x7ff00000
/* The anycall table (anycall.c): RT_ANYCALL_SLOTS pairs {stub address,
 * proxy address} (16 bytes), open addressing from the stub's hash; key 0 =
 * empty. Read by [DIPC_VECTOR_ANYCALL] in every domain (shared key),
 * written only through the runtime's alias. */
#define RT_ANYCALL_ADDR 0x7ff02000
#define RT_ANYCALL_BITS 12
#define RT_ANYCALL_SLOTS (1 << RT_ANYCALL_BITS)
#define RT_ANYCALL_BYTES (RT_ANYCALL_SLOTS * 16)
#define RT_RW_TABLE_ADDR 0x7ff12000 /* RT_ANYCALL_ADDR + RT_ANYCALL_BYTES */
#define RT_WINDOW_HI 0x7ff24000
#define RT_MAX_DOMAINS DIPC_MAX_DOMAINS
/* Thread slots: as many as fill the thread region (1 GiB). Each costs
 * address space only until a thread uses it. */
#define RT_MAX_THREADS 4096
/* Bytes between thread-state slots (a power of two): the errno fast path
 * checks that gs is a slot's start. Slots are adjacent (thread.c maps all
 * of a stride). */
#define RT_THREAD_STRIDE (256 * 1024)
/* The KCS in each slot, mid-page: its entries' words at other page offsets
 * than the state's first words, which proxies read after storing them (4K
 * aliasing, dipc/abi.h). */
#define RT_KCS_OFF (16 * 1024 + 2048 + 64)
/* The loader's scratch area in each slot (rt/scratch.c): runtime memory
 * where, under `sfi`, the interceptors keep the copies of what they
 * checked and hand libc. */
#define RT_LOADER_SCRATCH_OFF (208 * 1024)
#define RT_LOADER_SCRATCH_SIZE (32 * 1024)
#define OP_IMPORT_RESOLVE_NUM 27 /* enum dipc_op, for __dipc_lazy_import */
#define OP_MEMORY_NUM 28 /* enum dipc_op, for __dipc_trap_trampoline */
#define OP_ANYCALL_MISS_NUM 33 /* enum dipc_op, for __dipc_anycall_miss */
/* Runtime-private byte of the vector page: nonzero when the runtime acts
 * as on a CPU without PKU (DIPC_NO_PKU=1); gate.S's PICK_VARIANT reads it. */
#define RT_VECTOR_NO_PKU (DIPC_VECTOR_ADDR + 0x800)
/* A byte per domain in the vector page: nonzero when the domain's APL lets
 * it write the default domain's memory. Such a domain allocates from the C
 * library's heap, not its own (loader/heap.c). */
#define RT_VECTOR_DEFAULT_WRITERS (DIPC_VECTOR_ADDR + 0xc00)
/* Runtime-private u32s of the vector page for the gates' XSAVE areas
 * (backend.c): bytes per area (XSAVE standard format, a multiple of 64)
 * and the requested-feature mask, XCR0 & RT_XSAVE_FEATURES. */
#define RT_VECTOR_XSAVE_SIZE (DIPC_VECTOR_ADDR + 0x808)
#define RT_VECTOR_XSAVE_MASK (DIPC_VECTOR_ADDR + 0x80c)
/* User state the gates save around runtime C code: x87, SSE, AVX, opmask,
 * ZMM_Hi256, Hi16_ZMM. Never PKRU (bit 9), nor AMX. */
#define RT_XSAVE_FEATURES 0xe7
#define RT_XSAVE_MAX (16 * 1024)  /* largest area the stacks make room for */
#define RT_BOOT_STACK (64 * 1024) /* gate.S: where thread state is made */
/* Unsafe stacks (escaping locals of -fdipc code): one per thread slot, in a
 * region of RT_MAX_THREADS strides whose bounds are in the runtime vector;
 * the lowest RT_UNSAFE_GUARD bytes of each stride stay unmapped. */
#define RT_UNSAFE_STRIDE (8 * 1024 * 1024)
#define RT_UNSAFE_GUARD (64 * 1024)
/* Strides above the threads' in the region, never a thread's: a process
 * serving cross-process calls maps the unsafe stacks it lends callers in
 * one of them, and its callers map it at the same place in their own
 * region, where their compiled checks accept it (docs/cross-process.md). */
#define RT_UNSAFE_LENT_STRIDES 64
/* The unsafe-stack and shadow-stack regions are at fixed addresses, like
 * the window: the same in every process, so that cross-process dIPC
 * neither shares them nor meets them in its way (docs/cross-process.md
 * §2). In RT_STACKS_AREA: above ASan's shadow (it ends at 0x10007fff8000),
 * below the sfi shadow (dipc/sfi.h). */
#define RT_STACKS_AREA_LO 0x110000000000
#define RT_STACKS_AREA_HI 0x120000000000
#define RT_UNSAFE_REGION_ADDR RT_STACKS_AREA_LO
#define RT_SHADOW_REGION_ADDR 0x118000000000
/* Shadow stacks of -fdipc-sfi code (dipc/sfi.h): one per thread slot, in a
 * region of RT_MAX_THREADS strides; 16 bytes a frame, 65,280 frames deep
 * above a guard page. Runtime memory under `sfi`. */
#define RT_SHADOW_STRIDE (1024 * 1024)
#define RT_SHADOW_GUARD (4 * 1024)
/* The runtime vector (dipc/abi.h) is the page right after the table. */
#if DIPC_VECTOR_ADDR != RT_RO_TABLE_ADDR + RT_MAX_DOMAINS * 4
#error "dipc/abi.h: the runtime vector must follow the PKRU image table"
#endif
#if DIPC_HEAP_END != DIPC_HEAP_ADDR + RT_MAX_DOMAINS * DIPC_HEAP_STRIDE
#error "dipc/abi.h: the heap regions end after RT_MAX_DOMAINS of them"
#endif
#if RT_ANYCALL_ADDR != DIPC_VECTOR_ADDR + 4096 ||                             \
    RT_RW_TABLE_ADDR != RT_ANYCALL_ADDR + RT_ANYCALL_BYTES
#error "layout.h: the anycall table follows the runtime vector"
#endif

/* struct dipc_thread */
#define ST_SELF 0
#define ST_FSBASE 8
#define ST_KCS_TOP 16
#define ST_KCS_LIMIT 24
#define ST_KCS_BASE 32
#define ST_CUR_DOM 40  /* u32 */
#define ST_CUR_PKRU 44 /* u32: image of ST_CUR_DOM the thread runs with */
#define ST_BASE_LO 48 /* the base stack: the thread's own, or the */
#define ST_BASE_HI 56 /* handler's while a signal handler runs */
#define ST_CUR_DS 64  /* struct dipc_dstack in use, 0 = the base stack */
#define ST_DSTACKS 72  /* struct dipc_dstack[RT_MAX_DOMAINS] */
#define ST_RECOVERY 80 /* armed setjmp buffer for the next KCS entry */
#define ST_TRUSTED_SP 88
#define ST_SLOW_ARG 96   /* u32 argument of a proxy slow path */
#define ST_IN_GATE 100   /* u32 */
#define ST_DCS_BASE 104  /* u32 index */
#define ST_DCS_TOP 108   /* u32 index */
#define ST_CALL_SEQ 112   /* u64: outermost calls made (time-outs) */
#define ST_TIMEOUT_NS 120 /* u64: the outermost calls' time-out, 0 none */
#define ST_SAVED_RSP 128  /* user rsp while a slow path runs */
#define ST_SAVED_RET 136  /* where a slow path returns to */
#define ST_LENT_FS 144    /* TCB of another process the thread runs with */

/* struct dipc_dstack: a per-thread callee stack of one domain */
#define DS_LO 0
#define DS_HI 8
#define DS_CUR 16
#define DS_SIZE 32
/* The stack in use is ST_CUR_DS's, else the base stack: read through one
 * pointer, the base bounds at r10 + ST_BASE_LO - DS_LO (gate.S). */
#if ST_BASE_HI - ST_BASE_LO != DS_HI - DS_LO
#error "layout.h: the base stack's bounds are laid out as a dstack's"
#endif

/* struct dipc_kcs_entry */
#define K_CALLER_DOM 0 /* u32 */
#define K_CALLEE_DOM 4 /* u32 */
#define K_RET 8
#define K_CALLER_RSP 16
#define K_RECOVERY 24
#define K_SAVED_PKRU 32 /* u32 */
#define K_PROXY 40
#define K_BASE_LO 48 /* signal markers only: the base stack the */
#define K_BASE_HI 56 /* interrupted code had */
#define K_RET_SLOT 48     /* `sfi` proxies only: a wrapper's return slot */
#define K_RET_SLOT_VAL 56 /* (or 0) and its word at the call (sfi.h) */
#define K_CUR_DS 64
#define K_DS_SAVED 72
#define K_CALLEE_RSP 80
#define K_DCS_BASE 88 /* u32, K_DCS_TOP after it (K_FLAG_DCS only) */
#define K_DCS_TOP 92  /* u32 */
#define K_RBX 96     /* caller's callee-saved registers: the return */
#define K_RBP 104    /* path and fault recovery restore them */
#define K_R12 112
#define K_R13 120
#define K_R14 128
#define K_R15 136
#define K_USP 144 /* caller's unsafe stack pointer (public page) */
#define K_SSP 152   /* caller's shadow-stack top (dipc/sfi.h) */
#define K_SIZE 160
/* A proxy's flags, fixed when it is made: a u32 at its address
 * (K_PROXY) + P_FLAGS, before its call magic, so that no call stores
 * them. Bits: it moved the DCS base (its return restores dcs_top too);
 * 16-31 the bytes of the caller's stack-argument area, rounded to 16. A
 * signal marker's are K_FLAG_DCS. */
#define P_FLAGS (-8)
#define K_FLAG_DCS 2
#define K_FLAG_ARGBYTES_SHIFT 16

/* Reasons a gate or proxy stops the process (dipc_gate_panic). */
#define PANIC_GATE 1   /* entered a WRPKRU gate with a foreign value */
#define PANIC_THREAD 2 /* thread state pointer is not this thread's */
#define PANIC_STACK 3  /* stack pointer outside the thread's stack (P2) */
#define PANIC_KCS_FULL 4
#define PANIC_KCS_RET 5 /* return path without its KCS entry */
#define PANIC_NESTED 6  /* runtime gate entered from inside a gate */
#define PANIC_CTX 7     /* gate argument block not on the caller's stack */
#define PANIC_NO_GRANT 8 /* proxy called without a call grant to it */
#define PANIC_XRSTOR 9   /* a gate's XRSTOR reached with PKRU in its mask */
/* A KCS entry's K_PROXY for a signal handler's frame (no proxy). */
#define K_SIGNAL_MARK 1

/* Placeholders of the proxy templates, patched by proxy.c. */
#define PH_SELF 0x7e57aa0000000001
#define PH_DOM 0x7e57aa0000000002
#define PH_RW_D 0x7e57aa0000000003
#define PH_RO_D 0x7e57aa0000000004
#define PH_VALID_D 0x7e57aa0000000005
#define PH_STUB 0x7e57aa0000000006
#define PH_TLO 0x7e57aa0000000007
#define PH_THI 0x7e57aa0000000008
#define PH_DSOFF 0x7e57aa0000000009
#define PH_ARGBYTES 0x7e57aa000000000a
#define PH_ARGQWORDS 0x7e57aa000000000b
#define PH_RW_BASE 0x7e57aa000000000c
#define PH_VALID_BASE 0x7e57aa000000000d
#define PH_H_THREAD 0x7e57aa000000000e
#define PH_H_RESIDENT 0x7e57aa000000000f
#define PH_H_STACK 0x7e57aa0000000010
#define PH_H_PANIC 0x7e57aa0000000011
#define PH_APL_COL 0x7e57aa0000000012    /* &APL[0][proxy domain] */
#define PH_APL_STRIDE 0x7e57aa0000000013 /* APL row size; 0 with `none` */
/* K_RECOVERY when no setjmp buffer is armed: 0 (try style), or
 * RT_RECOVERY_RETURN0 in anycall proxies. */
#define PH_NO_ARM 0x7e57aa0000000014

/* K_RECOVERY of a call through an entry's address (an anycall proxy, no
 * buffer armed): a fault in the callee returns 0 to the call site with
 * dipc_errno = DIPC_EFAULT (recovery.c). Never a buffer's address. */
#define RT_RECOVERY_RETURN0 1

#endif

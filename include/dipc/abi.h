/* abi.h - fixed addresses and offsets that compiled -fdipc code (caller
 * stubs, the dipc_errno macro of dipc.h) uses to reach libdipc without the
 * default domain's memory: no PLT, no GOT, no TLS. Shared by C, C++
 * (llvm-passes/) and assembly (rt/gate.S): #defines only. docs/abi.md §4.
 *
 * Runtime vector: one read-only page at a fixed address, tagged with the
 * shared key (2), which every domain's PKRU image enables. It holds the
 * addresses of the runtime functions domain code calls:
 *   [DIPC_VECTOR_SETJMP_ARM]      void __dipc_setjmp_arm(void **buf)
 *   [DIPC_VECTOR_ERRNO_LOCATION]  int *__dipc_errno_location(void)
 *   [DIPC_VECTOR_THREADS_LO]      uintptr_t: first byte of the thread region
 *   [DIPC_VECTOR_THREADS_HI]      uintptr_t: end of the thread region
 *   [DIPC_VECTOR_SCRUB]           void (*)(void): zeroes the vector state
 *                                 beyond the low 128 bits of xmm0-15 that
 *                                 the CPU has (ymm/zmm upper halves,
 *                                 zmm16-31, k0-7); changes nothing else.
 *                                 reg_confidentiality stubs call it.
 *   [DIPC_VECTOR_UNSAFE_LO]       uintptr_t: first byte of the unsafe-stack
 *                                 region (every thread's unsafe stack lies
 *                                 inside; 0 until the runtime initialised)
 *   [DIPC_VECTOR_UNSAFE_HI]       uintptr_t: end of that region
 *   [DIPC_VECTOR_ANYCALL]         jumped to (never called) by the anycall
 *                                 stub of an entry (docs/compiler.md) with
 *                                 r11 = the stub's own address and every
 *                                 argument register, rsp and [rsp] as the
 *                                 caller of the pointer left them: goes on
 *                                 to the entry's anycall proxy, or stops
 *                                 the process if r11 is no registered stub.
 *                                 Uses rax, r10, r11 and the flags only.
 * (the thread region holds one state slot per thread, each RT_THREAD_STRIDE
 * bytes, rt/layout.h; the bounds are 0 until the runtime initialised).
 * It follows the read-only PKRU image table (rt/layout.h RT_RO_TABLE_ADDR)
 * in the same mapping; only the runtime can write it (through its alias
 * under the runtime key).
 *
 * Public thread page: the page at DIPC_THREAD_PUBLIC_OFF from the gs base
 * of a thread that has runtime state (every thread that has made or is in a
 * cross-domain call: proxies create the state) is that thread's own, under
 * the shared key. dipc_errno is its first int: a caller stub stores to
 * %gs:DIPC_ERRNO_GS_OFFSET right after the proxy returned, when gs is known
 * to be the thread's. The qword at DIPC_FSBASE_GS_OFFSET holds the fs base
 * (TCB address) of the thread that owns the slot while it is live, 0
 * otherwise: with it, __dipc_errno_location's fast path tells whether gs is
 * the calling thread's own state (clone() copies gs to new threads) with
 * RDGSBASE/RDFSBASE and stack-key reads only. The qword at
 * DIPC_USP_GS_OFFSET is the thread's unsafe stack pointer: -fdipc code
 * allocates its escaping locals below it (docs/compiler.md, "Unsafe
 * stack"); every domain may write it, so code checks each value it loads
 * against [DIPC_VECTOR_UNSAFE_LO, DIPC_VECTOR_UNSAFE_HI) before use. The
 * u32 at DIPC_DOM_GS_OFFSET is the domain the thread runs as, written by
 * the runtime at every switch: a hint (any domain can write it) that the
 * loader's malloc uses to pick a heap and checks before it trusts it.
 *
 * Domain heaps: domain d (1 <= d < 1024) allocates from its own region
 * [DIPC_HEAP_ADDR + d * DIPC_HEAP_STRIDE, + DIPC_HEAP_STRIDE), mapped by
 * the runtime under the domain's key when the domain is made (pages cost
 * memory once touched; docs/loader.md, "Heaps"). A region starts with the
 * lock of the allocator in it (loader/heap_alloc.c; u32, 0 when free) and
 * the holder's thread slot + 1 (u32): the runtime releases the lock when
 * it unwinds a call of the holder (the call died inside malloc) and in a
 * child after fork, where the holder is gone. */
#ifndef DIPC_ABI_H
#define DIPC_ABI_H

#include "dipc/limits.h"

/* Under `sfi` a setjmp-style caller stub's callee that faulted returns to
 * the stub's call with r11 = DIPC_RESUME_FAULT (the proxy returns 0
 * there), not to the label of its recovery buffer, which lies in the
 * caller's own frame: its domain could have pointed it anywhere. */
#define DIPC_RESUME_FAULT 1

#define DIPC_VECTOR_ADDR 0x7ff01000
#define DIPC_VECTOR_SETJMP_ARM 0x7ff01000
#define DIPC_VECTOR_ERRNO_LOCATION 0x7ff01008
#define DIPC_VECTOR_THREADS_LO 0x7ff01010
#define DIPC_VECTOR_THREADS_HI 0x7ff01018
#define DIPC_VECTOR_SCRUB 0x7ff01020
#define DIPC_VECTOR_UNSAFE_LO 0x7ff01028
#define DIPC_VECTOR_UNSAFE_HI 0x7ff01030
#define DIPC_VECTOR_ANYCALL 0x7ff01038

/* The public words start mid-page: proxies read the thread state's first
 * words right after compiled code stored these, and a load whose address
 * matches a recent store's in its low 12 bits waits for it (4K aliasing;
 * docs/runtime.md §2). */
#define DIPC_THREAD_PUBLIC_OFF 0x3f000
#define DIPC_ERRNO_GS_OFFSET 0x3f800  /* DIPC_THREAD_PUBLIC_OFF + 2048 */
#define DIPC_FSBASE_GS_OFFSET 0x3f808 /* DIPC_THREAD_PUBLIC_OFF + 2056 */
#define DIPC_USP_GS_OFFSET 0x3f810    /* DIPC_THREAD_PUBLIC_OFF + 2064 */
#define DIPC_DOM_GS_OFFSET 0x3f818    /* DIPC_THREAD_PUBLIC_OFF + 2072 */

#define DIPC_HEAP_ADDR 0x200000000000  /* 32 TiB: above ASan's shadow */
#define DIPC_HEAP_STRIDE 0x400000000   /* 16 GiB per domain */
#define DIPC_HEAP_REGION(d) (DIPC_HEAP_ADDR + (d) * DIPC_HEAP_STRIDE)
#define DIPC_HEAP_END DIPC_HEAP_REGION(DIPC_MAX_DOMAINS)
#define DIPC_HEAP_LOCK 0                /* offset of the allocator's lock */
#define DIPC_HEAP_OWNER 4               /* and of its holder's slot + 1 */

#endif /* DIPC_ABI_H */

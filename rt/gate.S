/* gate.S - the trusted gates of libdipc: the API gate, __dipc_setjmp_arm,
 * __dipc_errno_location (and its gate-free fast path), the slow paths proxies jump to, and the proxy
 * templates proxy.c copies.
 *
 * Every gate raises PKRU to 0 with an ERIM-style checked WRPKRU (execution
 * continues only if the value written is the trusted one), switches to the
 * thread's trusted stack before running C code, and drops to the image of
 * the thread's current domain, checked against the read-only image table.
 * Each gate exists in a PKU and a no-PKU variant (the latter for CPUs
 * without protection keys, where WRPKRU would fault). Runtime C code that
 * runs in the middle of a call (lazy import, slow paths) or under the API
 * gate runs between XSAVE_USER and XRSTOR_USER: the domain's vector state
 * is kept, and none of the runtime's reaches a domain. */
#include "gprs.h"
#include "layout.h"

        .intel_syntax noprefix

/* ---- building blocks ---------------------------------------------------- */

.macro GATE_WRPKRU pku
.if \pku
        wrpkru
.else
        nop dword ptr [rax]
.endif
.endm

/* A gate's check failed: stop the process (check.c names the reason). */
.macro GATE_PANIC pku, reason
        mov r11d, \reason
.if \pku
        jmp __dipc_helper_panic_pku
.else
        jmp __dipc_helper_panic_nopku
.endif
.endm

/* Raise to the trusted image (0); clobbers eax, ecx, edx. */
.macro ENTER_TRUSTED pku, panic
        xor ecx, ecx
        xor edx, edx
        xor eax, eax
        GATE_WRPKRU \pku
        test eax, eax
        jnz \panic
.endm

/* r10 = the state gs points at; jumps to \fail unless it is a state of the
 * thread region belonging to this thread (its TCB, or the TCB another
 * process lent it, which the runtime installed: dipc_lent_fs): a state
 * inherited through clone() is another thread's. Clobbers rax. */
.macro CHECK_THREAD fail
        mov r10, gs:[0]
        cmp r10, [rip + dipc_threads_lo]
        jb \fail
        cmp r10, [rip + dipc_threads_hi]
        jae \fail
        mov rax, fs:[0]
        cmp rax, [r10 + ST_FSBASE]
        je 779f
        cmp qword ptr [r10 + ST_LENT_FS], 0
        je \fail
        cmp rax, [r10 + ST_LENT_FS]
        jne \fail
779:
.endm

/* \reg = the bounds (DS_LO, DS_HI) of a stack, st in r10: the callee
 * stack \ds (the word ST_CUR_DS for the stack in use, K_CUR_DS for a KCS
 * entry's caller's), else the base stack, whose words are laid out as a
 * dstack's (layout.h). Clobbers \tmp. */
.macro STACK_BOUNDS reg, tmp, ds=[r10+ST_CUR_DS]
        mov \reg, \ds
        lea \tmp, [r10 + ST_BASE_LO - DS_LO]
        test \reg, \reg
        cmovz \reg, \tmp
.endm

/* r10 = this thread's state, created on first use; clobbers rax, r11.
 * \ret names the return address the helper sees (the API gate's: there
 * ebx holds the op, which dipc_thread_lazy_create reads). */
.macro LOAD_THREAD pku, ret
        CHECK_THREAD 771f
        jmp 772f
771:    lea r11, [rip + 772f]
.if \pku
        jmp __dipc_helper_thread_pku
.else
        jmp __dipc_helper_thread_nopku
.endif
772:
.ifnb \ret
        .globl \ret
        .hidden \ret
\ret:
.endif
.endm

/* Publish the image of the thread's current domain (st in r10) in
 * st->cur_pkru, then make sure it is current: a domain being evicted has
 * valid == 0 (the evictor scans the published images after clearing it),
 * and an image refreshed meanwhile is re-read. Leaves the image in ecx and
 * the domain in r9; clobbers rax, rdx, r11. */
.macro PUBLISH_CURRENT pku
771:    mov r9d, [r10 + ST_CUR_DOM]
        and r9d, RT_MAX_DOMAINS - 1
        mov rax, [rip + dipc_pkru_rw_table]
        mov ecx, [rax + r9 * 4]
        mov edx, ecx                    /* xchg: store + full fence */
        xchg [r10 + ST_CUR_PKRU], edx
        mov rax, [rip + dipc_valid_table]
        cmp dword ptr [rax + r9 * 4], 0
        jne 772f
        mov [r10 + ST_SLOW_ARG], r9d
        lea r11, [rip + 771b]
.if \pku
        jmp __dipc_helper_resident_pku
.else
        jmp __dipc_helper_resident_nopku
.endif
772:    mov rax, [rip + dipc_pkru_rw_table]
        cmp ecx, [rax + r9 * 4]
        jne 771b
.endm

/* Leave a gate (st in r10): install the current domain's image, checked
 * against the read-only table; if the image changed in between, go round
 * again through the checked entry. Clobbers rax, rcx, rdx, r9, r10, r11. */
.macro EXIT_TO_CURRENT pku, panic
773:    PUBLISH_CURRENT \pku
        mov eax, ecx
        xor ecx, ecx
        xor edx, edx
        GATE_WRPKRU \pku
        cmp eax, [r9 * 4 + RT_RO_TABLE_ADDR]
        je 774f
        ENTER_TRUSTED \pku, \panic
        LOAD_THREAD \pku
        jmp 773b
774:
.endm

/* Runtime C code in the middle of a call (trusted mode, on a trusted or the
 * bootstrap stack): save the user's extended state, XSAVE of XCR0 &
 * RT_XSAVE_FEATURES (x87 with its control word, SSE with MXCSR, AVX,
 * AVX-512; never PKRU), to a 64-byte aligned area below rsp, and the
 * user's rflags above it. The C code runs with rflags clear whatever the
 * domain left there: DF as the ABI wants, and no AC (alignment checks in
 * glibc's string functions) or TF. It does no floating point, so MXCSR and
 * the x87 control word need no resetting. Leaves rsp 64-byte aligned;
 * clobbers rax, rcx, rdx. */
.macro XSAVE_USER
        pushfq
        mov rcx, rsp
        mov eax, [RT_VECTOR_XSAVE_SIZE]
        sub rsp, rax
        and rsp, -64
        sub rsp, 64                     /* [rsp]: rsp before the area */
        mov [rsp], rcx
        xor eax, eax                    /* XSAVE writes only XSTATE_BV of */
        mov [rsp + 64 + 512], rax       /* the header; XRSTOR faults on */
        mov [rsp + 64 + 520], rax       /* stale bytes in the rest */
        mov [rsp + 64 + 528], rax
        mov [rsp + 64 + 536], rax
        mov [rsp + 64 + 544], rax
        mov [rsp + 64 + 552], rax
        mov [rsp + 64 + 560], rax
        mov [rsp + 64 + 568], rax
        mov eax, [RT_VECTOR_XSAVE_MASK]
        xor edx, edx
        xsave [rsp + 64]
        push 0
        popfq
.endm

/* Undo XSAVE_USER: every component of the mask, written or initialised,
 * so nothing the C code left in a vector register survives. XRSTOR writes
 * PKRU if its mask has bit 9: a domain could jump straight to it with a
 * crafted area, so (as after WRPKRU, ERIM) execution only goes on if the
 * mask was the runtime's. Clobbers rax, rdx. */
.macro XRSTOR_USER pku
        mov eax, [RT_VECTOR_XSAVE_MASK]
        xor edx, edx
        xrstor [rsp + 64]
        test eax, 0x200
        jnz 775f
        test edx, edx
        jnz 775f
        mov rsp, [rsp]
        popfq
        jmp 776f
775:    GATE_PANIC \pku, PANIC_XRSTOR
776:
.endm

/* Runtime C code called like a function (the API gate): the caller keeps
 * nothing in vector registers, but must not find the runtime's values
 * there. rflags as for XSAVE_USER; rsp stays 16-byte aligned. */
.macro SCRUB_ENTER
        pushfq
        push 0
        popfq
        sub rsp, 8
.endm

/* Zero every vector register the CPU has ([DIPC_VECTOR_SCRUB]: all but the
 * low halves of xmm0-15, which follow), restore rflags. Clobbers flags. */
.macro SCRUB_LEAVE
        call qword ptr [DIPC_VECTOR_SCRUB]
        .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        xorps xmm\n, xmm\n
        .endr
        add rsp, 8
        popfq
.endm

/* ---- slow paths (trusted mode; r11 = return address) -------------------- */

        .text

/* First gate or proxy on a thread: create its state on the bootstrap stack.
 * Returns r10 = state; preserves every register but r10 and r11, the
 * extended state and rflags included. */
.macro HELPER_THREAD name, pku
        .globl \name
        .hidden \name
        .p2align 4
\name:
1:      mov r10d, 1
        xchg r10d, [rip + dipc_boot_lock]
        test r10d, r10d
        jz 2f
        /* Yield rather than spin: a holder preempted by many threads
         * starting at once would otherwise get the CPU back late. */
        pause
        push rax
        push rcx
        push r11
        mov eax, 24                     /* SYS_sched_yield */
        syscall
        pop r11
        pop rcx
        pop rax
        jmp 1b
2:      mov [rip + boot_saved_rsp], rsp
        mov [rip + boot_saved_ret], r11
        lea rsp, [rip + boot_stack_top]
        SAVE_GPRS
        XSAVE_USER
        mov rdi, [rip + boot_saved_rsp]
        mov rsi, [rip + boot_saved_ret]
        mov edx, ebx
        call dipc_thread_lazy_create
        mov [rip + boot_saved_st], rax
        XRSTOR_USER \pku
        RESTORE_GPRS
        mov r10, [rip + boot_saved_st]
        mov rsp, [rip + boot_saved_rsp]
        mov r11, [rip + boot_saved_ret]
        mov dword ptr [rip + dipc_boot_lock], 0
        jmp r11
.endm

        HELPER_THREAD __dipc_helper_thread_pku, 1
        HELPER_THREAD __dipc_helper_thread_nopku, 0

/* Run `fn(st, st->slow_arg)` on the thread's trusted stack (st in r10).
 * Preserves every register but r11, the extended state and rflags
 * included. */
.macro SLOW_PATH name, fn, pku
        .globl \name
        .hidden \name
        .p2align 4
\name:
        mov [r10 + ST_SAVED_RET], r11
        mov [r10 + ST_SAVED_RSP], rsp
        mov rsp, [r10 + ST_TRUSTED_SP]
        mov dword ptr [r10 + ST_IN_GATE], 1 /* no recovery in here */
        SAVE_GPRS
        XSAVE_USER
        mov rdi, r10
        mov esi, [r10 + ST_SLOW_ARG]
        call \fn
        XRSTOR_USER \pku
        RESTORE_GPRS
        mov dword ptr [r10 + ST_IN_GATE], 0
        mov rsp, [r10 + ST_SAVED_RSP]
        jmp [r10 + ST_SAVED_RET]
.endm

        SLOW_PATH __dipc_helper_resident_pku, dipc_thread_fault_in_domain, 1
        SLOW_PATH __dipc_helper_resident_nopku, dipc_thread_fault_in_domain, 0
        SLOW_PATH __dipc_helper_stack_pku, dipc_thread_alloc_dstack, 1
        SLOW_PATH __dipc_helper_stack_nopku, dipc_thread_alloc_dstack, 0

/* Stop the process: r11 = PANIC_* reason. Never returns. */
.macro PANIC_PATH name, pku
        .globl \name
        .hidden \name
        .p2align 4
\name:
        xor ecx, ecx
        xor edx, edx
        xor eax, eax
        GATE_WRPKRU \pku
        lea rsp, [rip + panic_stack_top]
        mov edi, r11d
        call dipc_gate_panic
        ud2
.endm

        PANIC_PATH __dipc_helper_panic_pku, 1
        PANIC_PATH __dipc_helper_panic_nopku, 0

/* ---- API gate: long gate(unsigned op, struct dipc_gate_args *args) ------- */

.macro API_GATE name, pku
        .globl \name
        .hidden \name
        .p2align 4
\name:
        push rbx
        push rbp
        push r12
        mov rbx, rdi
        mov rbp, rsi
        ENTER_TRUSTED \pku, 90f
        LOAD_THREAD \pku, \name\()_thread_ret
        STACK_BOUNDS rax, r11
        cmp rsp, [rax + DS_LO]
        jb 92f
        cmp rsp, [rax + DS_HI]
        jae 92f
        cmp rbp, rsp                    /* the argument block: on the */
        jb 3f                           /* caller's stack, or on the */
        cmp rbp, [rax + DS_HI]          /* unsafe stacks (a local of */
        jb 4f                           /* -fdipc code passed on) */
3:      cmp rbp, [DIPC_VECTOR_UNSAFE_LO]
        jb 98f
        cmp rbp, [DIPC_VECTOR_UNSAFE_HI]
        jae 98f
4:      cmp dword ptr [r10 + ST_IN_GATE], 0
        jne 97f
        mov dword ptr [r10 + ST_IN_GATE], 1
        mov r12, rsp
        mov rsp, [r10 + ST_TRUSTED_SP]
        push r10
        push r12
        cmp ebx, OP_IMPORT_RESOLVE_NUM  /* mid-call: keep the user's state */
        je 1f
        cmp ebx, OP_MEMORY_NUM            /* a trapped system call: the same */
        je 1f
        SCRUB_ENTER
        mov edi, ebx
        mov rsi, rbp
        mov rdx, r10
        call dipc_dispatch
        mov rbx, rax
        SCRUB_LEAVE
        jmp 2f
1:      XSAVE_USER
        mov edi, ebx
        mov rsi, rbp
        mov rdx, r10
        call dipc_dispatch
        mov rbx, rax
        XRSTOR_USER \pku
2:      pop r12
        pop r10
        mov dword ptr [r10 + ST_IN_GATE], 0
        mov rsp, r12
        EXIT_TO_CURRENT \pku, 90f
        mov rax, rbx
        xor r9d, r9d
        xor r10d, r10d
        xor r11d, r11d
        pop r12
        pop rbp
        pop rbx
        ret
90:     GATE_PANIC \pku, PANIC_GATE
92:     GATE_PANIC \pku, PANIC_STACK
97:     GATE_PANIC \pku, PANIC_NESTED
98:     GATE_PANIC \pku, PANIC_CTX
.endm

        API_GATE dipc_gate_pku, 1
        API_GATE dipc_gate_nopku, 0

/* ---- __dipc_setjmp_arm(void **buf): arm the next KCS entry -------------- */

.macro ARM_GATE name, pku
        .globl \name
        .hidden \name
        .p2align 4
\name:
        ENTER_TRUSTED \pku, 90f
        LOAD_THREAD \pku
        mov [r10 + ST_RECOVERY], rdi
        EXIT_TO_CURRENT \pku, 90f
        xor r9d, r9d
        xor r10d, r10d
        xor r11d, r11d
        ret
90:     GATE_PANIC \pku, PANIC_GATE
.endm

        ARM_GATE dipc_setjmp_arm_pku, 1
        ARM_GATE dipc_setjmp_arm_nopku, 0

/* ---- int *__dipc_errno_location(void) ----------------------------------- *
 * The thread's dipc_errno: the first int of its public page (dipc/abi.h),
 * which caller stubs write through gs. A gate, so that it creates the
 * thread's state on a thread that never crossed a domain (gs then still
 * points at another thread's state or at none) and never reads memory a
 * domain cannot: domain code calls it through the runtime vector. The slow
 * path of the fast entry below (dipc_vector_errno_fast). */

.macro ERRNO_GATE name, pku
        .globl \name
        .hidden \name
        .p2align 4
\name:
        ENTER_TRUSTED \pku, 90f
        LOAD_THREAD \pku
        lea rsi, [r10 + DIPC_ERRNO_GS_OFFSET]
        EXIT_TO_CURRENT \pku, 90f
        mov rax, rsi
        xor esi, esi
        xor r9d, r9d
        xor r10d, r10d
        xor r11d, r11d
        ret
90:     GATE_PANIC \pku, PANIC_GATE
.endm

        ERRNO_GATE dipc_errno_gate_pku, 1
        ERRNO_GATE dipc_errno_gate_nopku, 0

/* ---- fault recovery: int gate(ucontext_t *uc) --------------------------- *
 * Called from the loader's signal handlers (alternate stack in key-0
 * memory, the kernel's signal PKRU: key 0 only). Never creates thread
 * state; runs dipc_recover on the handler's stack (uc == NULL: no
 * recovery). Leaves with the default domain's image (the handler is
 * default-domain code: it keeps its key-0 stack and reaches the thread's
 * stack) when the caller could already write key 0, as a signal handler
 * can. Any other caller, e.g. a domain calling this directly with a forged
 * context, recovers nothing and leaves with its thread's current domain's
 * image: never more rights than it had. A caller must be the loader's
 * code (or libdipc's) too: under `sfi` and `none` every domain's PKRU is
 * all keys', and a callee that popped its caller's KCS entry with a forged
 * context ran on as its caller's domain. */

.macro RECOVER_GATE name, pku, fn
        .globl \name
        .hidden \name
        .p2align 4
\name:
        push rbx
        push r12
        sub rsp, 8
        mov rbx, rdi
.if \pku
        xor ecx, ecx
        rdpkru
        mov r12d, eax                   /* the caller's rights */
.else
        xor r12d, r12d
.endif
        ENTER_TRUSTED \pku, 90f
        CHECK_THREAD 4f
        mov rdi, [rsp + 24]             /* called by the loader (or */
        call dipc_trusted_caller        /* libdipc): a domain may not ask */
        mov r11d, eax                   /* (under sfi and none every */
        CHECK_THREAD 4f                 /* domain's PKRU says key 0); */
        test r11d, r11d                 /* r10 again after the call */
        jz 3f
.if \pku
        /* A signal's handler: the PKRU Linux sets for one (every key but 0
         * disabled), or the default domain's image an earlier gate of the
         * same handler installed. A domain's own image is neither (it
         * enables the domain's key): a domain with key 0 rights jumping
         * here through a `ret` of trusted code gets no say. */
        mov eax, r12d
        and eax, RT_PKRU_HANDLER_MASK
        cmp eax, RT_PKRU_HANDLER
        je 6f
        cmp r12d, [RT_RO_TABLE_ADDR]
        jne 3f
6:
.endif
        mov rdi, r10
        mov rsi, rbx
        cld                             /* a caller other than a handler */
        call \fn
        jmp 1f
3:      xor ebx, ebx                    /* r10: the state checked above */
        EXIT_TO_CURRENT \pku, 90f
        jmp 2f
4:      xor eax, eax                    /* no state: nothing recovered */
1:      mov ebx, eax
        mov eax, [RT_RO_TABLE_ADDR]
        xor ecx, ecx
        xor edx, edx
        GATE_WRPKRU \pku
        cmp eax, [RT_RO_TABLE_ADDR]
        jne 90f
2:      mov eax, ebx
        add rsp, 8
        pop r12
        pop rbx
        ret
90:     GATE_PANIC \pku, PANIC_GATE
.endm

        RECOVER_GATE dipc_recover_gate_pku, 1, dipc_recover
        RECOVER_GATE dipc_recover_gate_nopku, 0, dipc_recover
/* The same for signal handlers' frames and time-outs (timeout.c). */
        RECOVER_GATE dipc_signal_enter_gate_pku, 1, dipc_signal_enter
        RECOVER_GATE dipc_signal_enter_gate_nopku, 0, dipc_signal_enter
        RECOVER_GATE dipc_signal_leave_gate_pku, 1, dipc_signal_leave
        RECOVER_GATE dipc_signal_leave_gate_nopku, 0, dipc_signal_leave
        RECOVER_GATE dipc_timeout_tick_gate_pku, 1, dipc_timeout_tick
        RECOVER_GATE dipc_timeout_tick_gate_nopku, 0, dipc_timeout_tick

/* Try-style recovery resumes here in the caller's domain with rsp = R (the
 * slot of the caller's return address, restored) and rdi = the exception:
 * to the unwinder this is a function called from the caller's call site,
 * so the caller's landing pad is found without unwinding callee frames. */
        .globl __dipc_raise_trampoline
        .hidden __dipc_raise_trampoline
        .p2align 4
        .cfi_startproc
        nop                     /* the unwinder looks up ra - 1 */
__dipc_raise_trampoline:
        sub rsp, 8
        .cfi_adjust_cfa_offset 8
        call dipc_raise_fault   /* never returns */
        ud2
        .cfi_endproc

/* Recovery resumes here instead of at its resume address when the failed
 * callee's domain has a fault hook (fault_hook.c): [rsp] = the hook's
 * proxy, [rsp + 8] = the resume address, then 128 bytes up to the resumed
 * stack pointer (the red zone). Runs as the caller; every general register,
 * the flags, xmm0-1 (a result) and dipc_errno are as recovery left them
 * when it goes on. */
        .globl __dipc_fault_hook_tramp
        .hidden __dipc_fault_hook_tramp
        .p2align 4
__dipc_fault_hook_tramp:
        pushfq
        push rax
        push rcx
        push rdx
        push rbx
        push rbp
        push rsi
        push rdi
        push r8
        push r9
        push r10
        push r11
        push r12
        push r13
        push r14
        push r15
        mov rbx, rsp
        and rsp, -16
        sub rsp, 48
        movdqu [rsp], xmm0
        movdqu [rsp + 16], xmm1
        mov eax, gs:[DIPC_ERRNO_GS_OFFSET]
        mov [rsp + 32], eax
        call qword ptr [rbx + 128]      /* the hook, through its proxy */
        mov qword ptr [rbx + 128], 0    /* not left for the caller to find */
        mov eax, [rsp + 32]
        mov gs:[DIPC_ERRNO_GS_OFFSET], eax
        movdqu xmm0, [rsp]
        movdqu xmm1, [rsp + 16]
        mov rsp, rbx
        pop r15
        pop r14
        pop r13
        pop r12
        pop r11
        pop r10
        pop r9
        pop r8
        pop rdi
        pop rsi
        pop rbp
        pop rbx
        pop rdx
        pop rcx
        pop rax
        popfq
        lea rsp, [rsp + 8]              /* the proxy's slot; flags kept */
        ret 128                         /* to the resume address */
        .size __dipc_fault_hook_tramp, . - __dipc_fault_hook_tramp

/* The same under `sfi`, with nothing read back from the caller's stack,
 * which the caller's domain may write while the hook runs: the hook's
 * proxy and the context to resume come from the thread's state
 * (fault_hook.c). The stack below the resumed red zone is scratch. rcx,
 * which no resume address expects anything in (recovery zeroes it),
 * carries the jump. */
        .globl __dipc_fault_hook_tramp_sfi
        .hidden __dipc_fault_hook_tramp_sfi
        .p2align 4
__dipc_fault_hook_tramp_sfi:
        sub rsp, 128
        and rsp, -16
        call dipc_fault_hook_proxy
        call rax                        /* the hook, through its proxy */
        call dipc_fault_hook_resume     /* rax = the registers, NGREG */
        pxor xmm0, xmm0                 /* as recovery left them: results */
        pxor xmm1, xmm1
        mov r8, [rax + 8 * 0]           /* gregset_t: REG_R8 .. */
        mov r9, [rax + 8 * 1]
        mov r10, [rax + 8 * 2]
        mov r11, [rax + 8 * 3]
        mov r12, [rax + 8 * 4]
        mov r13, [rax + 8 * 5]
        mov r14, [rax + 8 * 6]
        mov r15, [rax + 8 * 7]
        mov rdi, [rax + 8 * 8]
        mov rsi, [rax + 8 * 9]
        mov rbp, [rax + 8 * 10]
        mov rbx, [rax + 8 * 11]
        mov rdx, [rax + 8 * 12]
        mov rsp, [rax + 8 * 15]
        mov rcx, [rax + 8 * 16]         /* REG_RIP */
        mov rax, [rax + 8 * 13]
        jmp rcx
        .size __dipc_fault_hook_tramp_sfi, . - __dipc_fault_hook_tramp_sfi

/* The first call through an unresolved import slot resumes here (import.c)
 * in the caller's domain, on its stack, as if the slot had pointed here:
 * [rsp] = the caller's return address, arguments in rdi, rsi, rdx, rcx, r8,
 * r9, xmm0-7 (al for variadic callees) and above it, r11 = the slot's guard
 * address. The API gate resolves the import (keeping the extended state
 * and rflags: XSAVE_USER); then the call enters the proxy with every
 * register but r11 and the stack as the caller left them, and r11 = the
 * proxy, as after a call through a patched slot. */
#define LAZY_FRAME 104 /* struct dipc_gate_args + 8: rsp 16-byte aligned */
        .globl __dipc_lazy_import
        .hidden __dipc_lazy_import
        .type __dipc_lazy_import, @function
        .p2align 4
__dipc_lazy_import:
        .cfi_startproc
        SAVE_GPRS                       /* 64 bytes */
        .cfi_adjust_cfa_offset 64
        sub rsp, LAZY_FRAME
        .cfi_adjust_cfa_offset LAZY_FRAME
        mov [rsp], r11                  /* arg[0]: the guard */
        mov edi, OP_IMPORT_RESOLVE_NUM
        mov rsi, rsp
        call dipc_gate
        test rax, rax
        jle 1f                          /* refused: not this domain's slot */
        mov r11, rax
        add rsp, LAZY_FRAME
        .cfi_adjust_cfa_offset -LAZY_FRAME
        RESTORE_GPRS
        .cfi_adjust_cfa_offset -64
        jmp r11
1:      ud2                             /* a crash of the jumping domain */
        .cfi_endproc
        .size __dipc_lazy_import, . - __dipc_lazy_import

/* ---- [DIPC_VECTOR_ANYCALL]: a call through an entry's address ---------- *
 * Jumped to by an anycall stub (anycall.c) in the calling domain, with
 * r11 = the stub, [rsp] = the return address and the arguments as the
 * pointer's caller left them. Looks r11 up in the anycall table (shared
 * key, read-only to domains; the hash is anycall.c's first_slot) and jumps
 * to the proxy found there. The index is masked, so no r11 makes it read
 * outside the table, and the table is never more than half full, so the
 * probe ends at an empty slot (key 0) if r11 is no stub. Uses rax, r10,
 * r11 and the flags only. */
        .globl dipc_vector_anycall
        .hidden dipc_vector_anycall
        .type dipc_vector_anycall, @function
        .p2align 4
dipc_vector_anycall:
        movabs rax, 0x9e3779b97f4a7c15
        imul rax, r11
        shr rax, 64 - RT_ANYCALL_BITS
        shl eax, 4                      /* byte offset of the slot */
1:      mov r10, [rax + RT_ANYCALL_ADDR]
        test r10, r10
        jz 2f
        cmp r10, r11
        je 3f
        add eax, 16
        and eax, RT_ANYCALL_BYTES - 1
        jmp 1b
3:      jmp qword ptr [rax + RT_ANYCALL_ADDR + 8]
2:      jmp __dipc_anycall_miss
        .size dipc_vector_anycall, . - dipc_vector_anycall

/* No stub registered at r11: the API gate names it and stops the process
 * (OP_ANYCALL_MISS), on the caller's stack. */
        .globl __dipc_anycall_miss
        .hidden __dipc_anycall_miss
        .type __dipc_anycall_miss, @function
        .p2align 4
__dipc_anycall_miss:
        and rsp, -16
        sub rsp, 96                     /* struct dipc_gate_args */
        mov [rsp], r11
        mov edi, OP_ANYCALL_MISS_NUM
        mov rsi, rsp
        call dipc_gate
        ud2
        .size __dipc_anycall_miss, . - __dipc_anycall_miss

/* ---- void (*[DIPC_VECTOR_SCRUB])(void) ---------------------------------- *
 * For caller and callee stubs under reg_confidentiality, which zero the low
 * 128 bits of xmm0-15 themselves: zero the vector state beyond them that
 * this CPU has (backend.c picks one at init), so stubs compiled for any
 * x86-64 run on any CPU. Entries pass and return at most 128-bit vectors,
 * so the upper halves of argument registers go too. Gate-free: it runs in
 * the calling domain and touches nothing else (flags untouched too). */
        .globl dipc_vector_scrub_sse
        .hidden dipc_vector_scrub_sse
        .type dipc_vector_scrub_sse, @function
        .p2align 4
dipc_vector_scrub_sse:
        ret
        .size dipc_vector_scrub_sse, . - dipc_vector_scrub_sse

        .globl dipc_vector_scrub_avx
        .hidden dipc_vector_scrub_avx
        .type dipc_vector_scrub_avx, @function
        .p2align 4
dipc_vector_scrub_avx:
        vzeroupper                      /* ymm0-15 bits 255:128 */
        ret
        .size dipc_vector_scrub_avx, . - dipc_vector_scrub_avx

        .globl dipc_vector_scrub_avx512
        .hidden dipc_vector_scrub_avx512
        .type dipc_vector_scrub_avx512, @function
        .p2align 4
dipc_vector_scrub_avx512:
        vzeroupper                      /* zmm0-15 bits 511:128 */
        .irp n, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        vpxord zmm\n, zmm\n, zmm\n
        .endr
        .irp n, 0,1,2,3,4,5,6,7
        kxorw k\n, k\n, k\n            /* clears bits 63:16 too */
        .endr
        ret
        .size dipc_vector_scrub_avx512, . - dipc_vector_scrub_avx512

/* ---- variant selection -------------------------------------------------- *
 * XCR0 bit 9 says the OS manages PKRU: then WRPKRU works, unless the
 * runtime acts as on a CPU without PKU (RT_VECTOR_NO_PKU, DIPC_NO_PKU=1).
 * That byte is read only where PKRU lets the caller read the stack key
 * (any domain can); elsewhere (a signal handler's PKRU) the PKU variant is
 * taken, which works on this CPU with any backend. Clobbers eax, ecx, edx. */

.macro PICK_VARIANT pku_variant, nopku_variant
        xor ecx, ecx
        xgetbv
        test eax, 0x200
        jz \nopku_variant
        rdpkru
        test eax, 1 << (2 * RT_PKEY_STACK)      /* AD of the stack key */
        jnz \pku_variant
        cmp byte ptr [RT_VECTOR_NO_PKU], 0
        jne \nopku_variant
        jmp \pku_variant
.endm

        .globl dipc_gate
        .hidden dipc_gate
        .p2align 4
dipc_gate:
        PICK_VARIANT dipc_gate_pku, dipc_gate_nopku

        .globl __dipc_recover_from_fault
        .type __dipc_recover_from_fault, @function
        .p2align 4
__dipc_recover_from_fault:
        PICK_VARIANT dipc_recover_gate_pku, dipc_recover_gate_nopku

        .globl __dipc_signal_enter
        .type __dipc_signal_enter, @function
        .p2align 4
__dipc_signal_enter:
        PICK_VARIANT dipc_signal_enter_gate_pku, dipc_signal_enter_gate_nopku

        .globl __dipc_signal_leave
        .type __dipc_signal_leave, @function
        .p2align 4
__dipc_signal_leave:
        PICK_VARIANT dipc_signal_leave_gate_pku, dipc_signal_leave_gate_nopku

        .globl __dipc_timeout_tick
        .type __dipc_timeout_tick, @function
        .p2align 4
__dipc_timeout_tick:
        PICK_VARIANT dipc_timeout_tick_gate_pku, dipc_timeout_tick_gate_nopku

/* Exported, and in the runtime vector under the hidden names. */
        .globl __dipc_setjmp_arm
        .type __dipc_setjmp_arm, @function
        .globl dipc_vector_setjmp_arm
        .hidden dipc_vector_setjmp_arm
        .p2align 4
__dipc_setjmp_arm:
dipc_vector_setjmp_arm:
        PICK_VARIANT dipc_setjmp_arm_pku, dipc_setjmp_arm_nopku

/* The errno gate: the slow path of __dipc_errno_location, and the
 * vector's entry on kernels without FSGSBASE. Exported for tests and the
 * benchmark that compares it with the fast path. */
        .globl __dipc_errno_location_gate
        .type __dipc_errno_location_gate, @function
        .globl dipc_vector_errno_gate
        .hidden dipc_vector_errno_gate
        .p2align 4
__dipc_errno_location_gate:
dipc_vector_errno_gate:
        PICK_VARIANT dipc_errno_gate_pku, dipc_errno_gate_nopku
        .size __dipc_errno_location_gate, . - __dipc_errno_location_gate

/* Fast path (the vector's entry when the kernel enables FSGSBASE, i.e.
 * AT_HWCAP2 has HWCAP2_FSGSBASE; RDGSBASE faults otherwise): no PKRU change,
 * and only stack-key memory read, which every domain's image allows: the
 * runtime vector and the public page of the slot gs points to. gs is the
 * calling thread's own state when it is the start of a slot of the thread
 * region and the fs base recorded in that slot's public page (set when the
 * state is created, 0 once released) is this thread's. Anything else (no
 * state yet, gs inherited through clone(), a released slot) takes the gate,
 * which creates the state. A domain can write public pages, so it can make
 * only its own thread's fast path answer another public page, which it can
 * read and write anyway. Clobbers rax, rcx (caller-saved). */
        .globl dipc_vector_errno_fast
        .hidden dipc_vector_errno_fast
        .type dipc_vector_errno_fast, @function
        .p2align 4
dipc_vector_errno_fast:
        rdgsbase rax
        mov rcx, rax
        sub rcx, [DIPC_VECTOR_THREADS_LO]
        jb 1f                           /* below the region */
        test ecx, RT_THREAD_STRIDE - 1
        jnz 1f                          /* not a slot's start */
        cmp rax, [DIPC_VECTOR_THREADS_HI]
        jae 1f
        rdfsbase rcx
        cmp rcx, [rax + DIPC_FSBASE_GS_OFFSET]
        jne 1f
        add rax, DIPC_ERRNO_GS_OFFSET
        xor ecx, ecx
        ret
1:      xor eax, eax
        xor ecx, ecx
        jmp dipc_vector_errno_gate
        .size dipc_vector_errno_fast, . - dipc_vector_errno_fast

/* Exported (C code linked against libdipc, rt tests): whichever the runtime
 * vector holds, read from its read-only stack-key page. */
        .globl __dipc_errno_location
        .type __dipc_errno_location, @function
        .p2align 4
__dipc_errno_location:
        jmp qword ptr [DIPC_VECTOR_ERRNO_LOCATION]
        .size __dipc_errno_location, . - __dipc_errno_location

/* ---- proxy templates ---------------------------------------------------- *
 * Eight: split stack or not, DCS base or not, `sfi` or the others. Entered by a SysV call: [rsp] = return address R, arguments in rdi, rsi,
 * rdx, rcx, r8, r9, xmm0-7 and above R. Scratch: rax, r10, r11. The PH_*
 * immediates are patched by proxy.c; rdpkru/wrpkru become NOPs on CPUs
 * without PKU. Position independent: only local jumps and immediates.
 * The return path gives the caller back rbx, rbp and r12-r15 from the KCS
 * entry (register integrity, docs/abi.md §3): every template does (every
 * backend, anycall proxies, PKU or not), so no caller depends on its
 * callee to preserve them. */

/* Every rdpkru/wrpkru of a template records its address in the section
 * dipc_pkru_sites (the kernel's .altinstructions pattern): proxy.c NOPs
 * exactly these sites on CPUs without PKU and checks no other remains. */
.macro PKRU_SITE insn
771:    \insn
        .pushsection dipc_pkru_sites, "a"
        .p2align 2
        .long 771b - .                  /* self-relative: no relocation */
        .popsection
.endm

.macro PANIC_TO reason
        mov r11d, \reason
        movabs rax, PH_H_PANIC
        jmp rax
.endm

/* Back to trusted mode inside a proxy: checked WRPKRU, then r10 = the
 * thread's state (which must exist). Clobbers rax, rcx, rdx. */
.macro PROXY_REENTER
        xor ecx, ecx
        xor edx, edx
        xor eax, eax
        PKRU_SITE wrpkru
        test eax, eax
        jnz 90f
        PROXY_THREAD
.endm

/* r10 = the thread's state, which must exist (the `sfi` template's
 * re-entry: it has no WRPKRU to undo). Clobbers rax. */
.macro PROXY_THREAD
        mov r10, gs:[0]
        movabs rax, PH_TLO
        cmp r10, rax
        jb 91f
        movabs rax, PH_THI
        cmp r10, rax
        jae 91f
        mov rax, fs:[0]
        cmp rax, [r10 + ST_FSBASE]
        jne 91f
.endm

/* \sfi: the template of the `sfi` backend (issue #15 item 3): the running
 * domain is ST_CUR_DOM alone, which the compiled-in checks read, so the
 * switch is two stores: no RDPKRU/WRPKRU, no published image and its
 * fences, no eviction to wait for. */
.macro PROXY name, split, dcs, sfi
.if \sfi
        PROXY_BODY \name, \split, \dcs, 1, rbx, ebx, rbp, ebp, 0
.else
        PROXY_BODY \name, \split, \dcs, 0, rcx, ecx, rdx, edx, 16
.endif
.endm

/* t1, t2 (t1d, t2d: their low halves): the push path's scratch registers
 * once the caller's callee-saved ones are in the KCS entry; fr: the bytes
 * pushed above R. The `sfi` template pushes nothing and takes rbx and rbp
 * (two stores and two loads fewer than keeping the caller's rcx and rdx
 * on its stack); the others need rcx and rdx for WRPKRU anyway. */
.macro PROXY_BODY name, split, dcs, sfi, t1, t1d, t2, t2d, fr
        .globl dipc_tpl_\name\()_begin
        .hidden dipc_tpl_\name\()_begin
        .globl dipc_tpl_\name\()_end
        .hidden dipc_tpl_\name\()_end
        .p2align 6
dipc_tpl_\name\()_begin:
.if !\sfi
        push rcx                        /* caller's rcx, rdx at R-8, R-16 */
        push rdx
        xor ecx, ecx
        xor eax, eax
        PKRU_SITE rdpkru
        mov r11d, eax                   /* caller's PKRU */
        xor eax, eax
        PKRU_SITE wrpkru
        test eax, eax
        jnz 90f
        mov ecx, r11d
.endif
        mov r10, gs:[0]
        movabs rax, PH_TLO
        cmp r10, rax
        jb 1f
        movabs rax, PH_THI
        cmp r10, rax
        jae 1f
        mov rax, fs:[0]
        cmp rax, [r10 + ST_FSBASE]
        je 2f
1:      lea r11, [rip + 2f]
        jmp [rip + 80f]
2:      STACK_BOUNDS rax, r11           /* P2: rsp in the stack in use */
        cmp rsp, [rax + DS_LO]
        jb 92f
        cmp rsp, [rax + DS_HI]
        jae 92f
        mov r11d, [r10 + ST_CUR_DOM]    /* CODOMs: the caller's APL must */
        and r11d, RT_MAX_DOMAINS - 1    /* allow calling the proxy's domain */
        movabs rax, PH_APL_STRIDE
        imul r11, rax
        movabs rax, PH_APL_COL
        cmp byte ptr [rax + r11], 1     /* DIPC_PERM_CALL */
        jb 96f
        mov rax, [r10 + ST_KCS_TOP]     /* push the KCS entry */
        cmp rax, [r10 + ST_KCS_LIMIT]
        jae 93f
        cmp rax, [r10 + ST_KCS_BASE]    /* an outermost call under a */
        jne 19f                         /* time-out: it tells this one */
        cmp qword ptr [r10 + ST_TIMEOUT_NS], 0 /* from the previous one */
        je 19f                          /* (set outside calls only) */
        inc qword ptr [r10 + ST_CALL_SEQ]
19:     mov [rax + K_RBX], rbx          /* for the return path and */
        mov [rax + K_RBP], rbp          /* fault recovery */
        mov [rax + K_R12], r12
        mov [rax + K_R13], r13
        mov [rax + K_R14], r14
        mov [rax + K_R15], r15
.if !\sfi
        mov [rax + K_SAVED_PKRU], ecx
.else
        movq \t1, xmm15                 /* a wrapper's return slot, keyed */
        xor \t1, DIPC_SFI_RET_SLOT_KEY  /* (dipc/sfi.h): its word is kept */
        lea r11, [rsp + 8]              /* if it lies above R in the */
        cmp \t1, r11                    /* caller's stack */
        jb 37f
        STACK_BOUNDS \t2, r11
        mov r11, [\t2 + DS_HI]
        sub r11, 8
        cmp \t1, r11
        ja 37f
        movq r11, xmm14                 /* the word it found there at entry */
        mov [rax + K_RET_SLOT_VAL], r11
        jmp 38f
37:     xor \t1d, \t1d
38:     mov [rax + K_RET_SLOT], \t1
.endif
        mov \t1d, [r10 + ST_CUR_DOM]    /* caller and callee domain: */
        movabs \t2, PH_DOM              /* one store (the proxy's time */
        shl \t2, 32                     /* is mostly its stores) */
        or \t1, \t2
        mov [rax + K_CALLER_DOM], \t1
        mov \t1, [rsp + \fr]
        mov [rax + K_RET], \t1
        lea \t1, [rsp + \fr]
        mov [rax + K_CALLER_RSP], \t1
        mov \t1, [r10 + ST_RECOVERY]
        test \t1, \t1                   /* nothing armed: try style, or */
        jnz 7f                          /* return 0 (anycall proxies) */
        movabs \t1, PH_NO_ARM
        jmp 8f
7:      mov qword ptr [r10 + ST_RECOVERY], 0
8:      mov [rax + K_RECOVERY], \t1
        movabs \t1, PH_SELF
        mov [rax + K_PROXY], \t1
.if \dcs                                /* the DCS bounds: only a proxy */
        mov \t1, [r10 + ST_DCS_BASE]    /* that moves them keeps them */
        mov [rax + K_DCS_BASE], \t1     /* (and ST_DCS_TOP, K_DCS_TOP) */
.endif
        mov \t1, [r10 + DIPC_USP_GS_OFFSET] /* caller's unsafe stack pointer */
        mov [rax + K_USP], \t1
        mov \t1, [r10 + DIPC_SFI_SSP_GS_OFFSET] /* the callee's shadow- */
        mov [rax + K_SSP], \t1          /* stack entries start below the */
                                        /* caller's, which it cannot drop */
                                        /* (the floor, sfi_cfi.c) */
        mov \t2, [r10 + ST_CUR_DS]      /* caller on a callee stack: its */
        mov [rax + K_CUR_DS], \t2       /* next frames start below rsp (a */
        test \t2, \t2                   /* callee of its own domain gets */
        jz 3f                           /* its stack arguments copied */
        mov \t1, [\t2 + DS_CUR]         /* there) */
        mov [rax + K_DS_SAVED], \t1
        mov \t1, rsp
        and \t1, -16
        mov [\t2 + DS_CUR], \t1
3:      lea \t1, [rax + K_SIZE]
        mov [r10 + ST_KCS_TOP], \t1
.if \split
        mov \t2, [r10 + ST_DSTACKS]     /* this thread's stack of the callee */
        movabs \t1, PH_DSOFF
        add \t2, \t1
        cmp qword ptr [\t2 + DS_CUR], 0
        jne 4f
        movabs \t1, PH_DOM
        mov [r10 + ST_SLOW_ARG], \t1d
        lea r11, [rip + 4f]
        jmp [rip + 82f]
4:      mov r11, [\t2 + DS_CUR]
        movabs \t1, PH_ARGBYTES
        sub r11, \t1
        cmp r11, [\t2 + DS_LO]          /* the copy stays above the guard */
        jb 92f
        mov [r10 + ST_CUR_DS], \t2
        movabs \t1, PH_ARGQWORDS        /* copy the stack arguments */
        test \t1, \t1
        jz 5f
        STACK_BOUNDS \t1, \t2, [rax+K_CUR_DS] /* the area from R + 8 up */
        movabs \t2, PH_ARGBYTES         /* lies in the caller's stack (P2 */
        lea \t2, [rsp + \fr + 8 + \t2] /* checked R) */
        cmp \t2, [\t1 + DS_HI]
        ja 92f
        movabs \t1, PH_ARGQWORDS
6:      mov \t2, [rsp + \fr + \t1 * 8]
        mov [r11 + \t1 * 8 - 8], \t2
        dec \t1
        jnz 6b
5:
.else
        lea r11, [rsp + \fr + 8]
.endif
        mov [rax + K_CALLEE_RSP], r11
.if \dcs
        mov \t1d, [r10 + ST_DCS_TOP]    /* callee sees no caller entries */
        mov [r10 + ST_DCS_BASE], \t1d
.endif
        movabs \t1, PH_DOM
        mov [r10 + ST_CUR_DOM], \t1d
.if !\sfi                                /* under `sfi` the loader's malloc */
        mov [r10 + DIPC_DOM_GS_OFFSET], \t1d /* reads ST_CUR_DOM, not this */
.endif                                  /* heap hint (abi.h) */
.if \sfi
        mov rsp, [rax + K_CALLEE_RSP]
        xor ebx, ebx                    /* the callee learns no runtime */
        xor ebp, ebp                    /* address, nor the caller's */
        xorps xmm15, xmm15              /* return slot */
        xorps xmm14, xmm14
.else
17:     movabs rdx, PH_RW_D             /* publish the image, then check */
        mov ecx, [rdx]                  /* it is current (PUBLISH_CURRENT) */
        mov edx, ecx                    /* xchg: store + full fence */
        xchg [r10 + ST_CUR_PKRU], edx
        movabs rdx, PH_VALID_D
        cmp dword ptr [rdx], 0
        jne 18f
        movabs rdx, PH_DOM
        mov [r10 + ST_SLOW_ARG], edx
        lea r11, [rip + 17b]
        jmp [rip + 81f]
18:     movabs rdx, PH_RW_D
        cmp ecx, [rdx]
        jne 17b
        mov r11, [rax + K_CALLEE_RSP]
        mov r10, [rax + K_CALLER_RSP]   /* caller's rdx, rcx at R-16, R-8 */
        mov eax, ecx
        mov rcx, [r10 - 8]              /* both read first: a callee of the */
        mov rdx, [r10 - 16]             /* caller's own domain (a call */
        mov rsp, r11                    /* through an entry's address) */
        push rcx                        /* starts right below R. Onto the */
        push rdx                        /* callee's stack: the callee */
        xor ecx, ecx                    /* cannot read the caller's */
        xor edx, edx
        PKRU_SITE wrpkru
        movabs r11, PH_RO_D
        cmp eax, [r11]
        jne 95f
        pop rdx
        pop rcx
.endif
        xor eax, eax
        xor r10d, r10d
        movabs r11, PH_STUB
        call r11
        /* return path: results in rax, rdx, xmm0, xmm1 */
        mov rdi, rax
        mov rsi, rdx
.if \sfi
        PROXY_THREAD
.else
        PROXY_REENTER
.endif
        mov rax, [r10 + ST_KCS_TOP]     /* our entry must be on top */
        cmp rax, [r10 + ST_KCS_BASE]
        jbe 94f
        sub rax, K_SIZE
        movabs r11, PH_SELF
        cmp [rax + K_PROXY], r11
        jne 94f
        cmp rsp, [rax + K_CALLEE_RSP]
        jne 94f
        mov [r10 + ST_KCS_TOP], rax
        cmp qword ptr [r10 + ST_RECOVERY], 0 /* a buffer the callee armed */
        je 30f                          /* for no call dies with it: the */
        mov qword ptr [r10 + ST_RECOVERY], 0 /* caller's next call would */
30:                                     /* take it */
        /* dipc_errno = 0 after a normal return: the caller stubs count on
         * it (they do not clear it: a store fewer per call) */
        /* Words a callee seldom changes are written back only when it
         * did: the proxy's time is mostly its stores. */
        cmp dword ptr [r10 + DIPC_ERRNO_GS_OFFSET], 0
        je 31f
        mov dword ptr [r10 + DIPC_ERRNO_GS_OFFSET], 0
31:     mov rcx, [rax + K_USP]          /* whatever the callee left there */
        cmp rcx, [r10 + DIPC_USP_GS_OFFSET]
        je 32f
        mov [r10 + DIPC_USP_GS_OFFSET], rcx
32:     mov rcx, [rax + K_SSP]
        cmp rcx, [r10 + DIPC_SFI_SSP_GS_OFFSET]
        je 33f
        mov [r10 + DIPC_SFI_SSP_GS_OFFSET], rcx
33:     mov rdx, [rax + K_CUR_DS]
        mov [r10 + ST_CUR_DS], rdx
        test rdx, rdx
        jz 3f
        mov rcx, [rax + K_DS_SAVED]
        mov [rdx + DS_CUR], rcx
3:
.if \dcs
        mov rcx, [rax + K_DCS_BASE]     /* and K_DCS_TOP */
        mov [r10 + ST_DCS_BASE], rcx
.endif
        mov r11d, [rax + K_CALLER_DOM]
        mov [r10 + ST_CUR_DOM], r11d
.if !\sfi
        mov [r10 + DIPC_DOM_GS_OFFSET], r11d
.endif
.if !\sfi
27:     movabs rcx, PH_RW_BASE
        mov ecx, [rcx + r11 * 4]
        mov edx, ecx                    /* xchg: store + full fence */
        xchg [r10 + ST_CUR_PKRU], edx
        movabs rdx, PH_VALID_BASE
        cmp dword ptr [rdx + r11 * 4], 0
        jne 28f
        mov [r10 + ST_SLOW_ARG], r11d
        lea r11, [rip + 29f]
        jmp [rip + 81f]
29:     mov r11d, [rax + K_CALLER_DOM]
        jmp 27b
28:     movabs rdx, PH_RW_BASE
        cmp ecx, [rdx + r11 * 4]
        jne 27b
.endif
        mov rbx, [rax + K_RBX]          /* register integrity: the caller */
        mov rbp, [rax + K_RBP]          /* gets its callee-saved registers */
        mov r12, [rax + K_R12]          /* as it called, whatever the */
        mov r13, [rax + K_R13]          /* callee left there (what the ABI */
        mov r14, [rax + K_R14]          /* promises, so on every call), */
        mov r15, [rax + K_R15]          /* and stubs need not spill them */
        mov r8, [rax + K_RET]
        mov rsp, [rax + K_CALLER_RSP]
        cmp [rsp], r8
        je 35f
        mov [rsp], r8
35:
.if \sfi
        xor ecx, ecx
.else
        mov r9d, r11d
        and r9d, RT_MAX_DOMAINS - 1
        mov eax, ecx
        xor ecx, ecx
        xor edx, edx
        PKRU_SITE wrpkru
        cmp eax, [r9 * 4 + RT_RO_TABLE_ADDR]
        jne 97f
.endif
.if \sfi
        mov r8, [rax + K_RET_SLOT]      /* a wrapper's return (dipc/sfi.h) */
        mov r9, [rax + K_RET_SLOT_VAL]
.endif
        mov rax, rdi
        mov rdx, rsi
        xor edi, edi
        xor esi, esi
        xor r10d, r10d
        xor r11d, r11d
.if \sfi
        test r8, r8                     /* back as it was at the call, */
        jz 36f                          /* whatever was written there: */
        mov [r8], r9                    /* last, so that the wrapper's */
36:                                     /* ret follows within a few */
.endif                                  /* instructions */
        xor r8d, r8d
        xor r9d, r9d
        ret
.if !\sfi
        /* The image changed between publication and WRPKRU (a concurrent
         * grant or eviction): re-enter through the checked gate, find this
         * proxy's KCS entry again, and redo the switch. */
95:     PROXY_REENTER
        mov rax, [r10 + ST_KCS_TOP]
        sub rax, K_SIZE
        cmp rax, [r10 + ST_KCS_BASE]
        jb 94f
        movabs r11, PH_SELF
        cmp [rax + K_PROXY], r11
        jne 94f
        jmp 17b
97:     PROXY_REENTER
        mov rax, [r10 + ST_KCS_TOP]     /* the entry just popped */
        movabs r11, PH_SELF
        cmp [rax + K_PROXY], r11
        jne 94f
        mov r11d, [rax + K_CALLER_DOM]
        jmp 27b
90:     PANIC_TO PANIC_GATE
.endif
91:     PANIC_TO PANIC_THREAD
92:     PANIC_TO PANIC_STACK
93:     PANIC_TO PANIC_KCS_FULL
94:     PANIC_TO PANIC_KCS_RET
96:     PANIC_TO PANIC_NO_GRANT
        .p2align 3
80:     .quad PH_H_THREAD
.if !\sfi
81:     .quad PH_H_RESIDENT
.endif
82:     .quad PH_H_STACK
dipc_tpl_\name\()_end:
.endm

        PROXY plain, 0, 0, 0
        PROXY split, 1, 0, 0
        PROXY dcs, 0, 1, 0
        PROXY split_dcs, 1, 1, 0
        PROXY sfi_plain, 0, 0, 1
        PROXY sfi_split, 1, 0, 1
        PROXY sfi_dcs, 0, 1, 1
        PROXY sfi_split_dcs, 1, 1, 1

/* ---- bootstrap and panic stacks ----------------------------------------- */

        .bss
        .p2align 12
boot_stack:
        .skip RT_BOOT_STACK
boot_stack_top:
panic_stack:
        .skip 16384
panic_stack_top:
        .p2align 3
boot_saved_rsp: .quad 0
boot_saved_ret: .quad 0
boot_saved_st:  .quad 0
/* Taken around fork too (thread.c), before dipc_lock. */
        .globl dipc_boot_lock
        .hidden dipc_boot_lock
dipc_boot_lock: .long 0

        .section .note.GNU-stack, "", @progbits

/* sfi.S - __dipc_sfi_check, the slow path of the checks compiled into
 * -fdipc-sfi code (dipc/sfi.h): returns if the access is allowed, else
 * faults on the trap page, where the signal path reports the refusal and
 * recovers (sfi.c moves the fault to the call site first). */
#include "dipc/sfi.h"
#include "gprs.h"
#include "layout.h"

        .intel_syntax noprefix
        .text
        .globl __dipc_sfi_check
        .type __dipc_sfi_check, @function
        .p2align 4
__dipc_sfi_check:
        /* A read of the thread's own callee stack of the running domain,
         * or a move of the stack pointer below its outer calls' frames
         * (rdi, rsi, edx: addr, size, write), which the fast path never
         * allows (DIPC_SFI_TAG_STACK): allowed here without the C
         * function, as own_stack_allows (sfi.c) says; a plain write, a
         * call's argument (DIPC_SFI_CALL_ARG), a thread state whose TCB
         * is not this thread's, or anything else, goes on to it. */
        test edx, ~DIPC_SFI_STACK_MOVE  /* neither 0 nor a move */
        jnz 2f
        mov rax, gs:[ST_SELF]
        mov rcx, fs:[0]
        cmp rcx, [rax + ST_FSBASE]
        jne 2f
        mov ecx, [rax + ST_CUR_DOM]
        cmp ecx, RT_MAX_DOMAINS
        jae 2f
        shl rcx, 5                      /* DS_SIZE */
        add rcx, [rax + ST_DSTACKS]
        cmp rdi, [rcx + DS_LO]
        jb 2f
        mov rax, [rcx + DS_HI]
        test edx, edx
        jz 3f
        cmp rax, [rcx + DS_CUR]
        cmova rax, [rcx + DS_CUR]       /* a move: the lower of the two */
3:
        sub rax, rdi
        jb 2f                           /* addr above the stack */
        cmp rsi, rax
        ja 2f                           /* runs past its top */
        ret
2:
        sub rsp, 8                      /* the C function's alignment */
        call dipc_sfi_allowed
        add rsp, 8
        test eax, eax
        jz 1f
        ret
1:
        .globl __dipc_sfi_trap
        .hidden __dipc_sfi_trap
__dipc_sfi_trap:
        mov al, byte ptr [DIPC_SFI_TRAP_ADDR]
        ud2
        .size __dipc_sfi_check, . - __dipc_sfi_check

/* The control-flow slow paths (dipc/sfi.h; sfi_cfi.c decides): return if
 * allowed, else fault on the trap page with the caller's return address
 * on top, as __dipc_sfi_check does. preserve_most (the pass calls them
 * so): every general register but r11 comes back as it was, which a
 * plain C caller gets as well; the vector registers are the caller's. */
.macro CFI_SLOW name, decide
        .globl \name
        .type \name, @function
        .p2align 4
\name:
        SAVE_GPRS
        sub rsp, 8                      /* 8 pushes + 8: the C alignment */
        call \decide
        add rsp, 8
        test eax, eax                   /* the pops keep the flags */
        RESTORE_GPRS
        jz __dipc_sfi_trap
        ret
        .size \name, . - \name
.endm

        CFI_SLOW __dipc_sfi_ret_slow, dipc_sfi_ret_ok
        CFI_SLOW __dipc_sfi_check_call, dipc_sfi_call_ok
        CFI_SLOW __dipc_sfi_check_callback, dipc_sfi_callback_ok
        CFI_SLOW __dipc_sfi_check_proxy_call, dipc_sfi_proxy_call_ok

/* const uintptr_t *__dipc_sfi_jump_take(const void *buf): the checked
 * context of a longjmp (sfi_cfi.c), or the fault, with the caller's
 * return address on top, as __dipc_sfi_check's. A SysV call. */
        .globl __dipc_sfi_jump_take
        .type __dipc_sfi_jump_take, @function
        .p2align 4
__dipc_sfi_jump_take:
        sub rsp, 8
        call dipc_sfi_jump_take
        add rsp, 8
        test rax, rax
        jz __dipc_sfi_trap
        ret
        .size __dipc_sfi_jump_take, . - __dipc_sfi_jump_take

/* dipc_user_fault(frame) (internal.h): the exported function whose frame
 * pointer is `frame` faults as its caller's call of it. */
        .globl dipc_user_fault
        .hidden dipc_user_fault
        .type dipc_user_fault, @function
        .p2align 4
dipc_user_fault:
        lea rsp, [rdi + 8]              /* the caller's return address */
        jmp __dipc_sfi_trap
        .size dipc_user_fault, . - dipc_user_fault

/* A computed goto to no label of its own: always refused. */
        .globl __dipc_sfi_cfi_fail
        .type __dipc_sfi_cfi_fail, @function
        .p2align 4
__dipc_sfi_cfi_fail:
        sub rsp, 8
        call dipc_sfi_cfi_refuse
        add rsp, 8
        jmp __dipc_sfi_trap
        .size __dipc_sfi_cfi_fail, . - __dipc_sfi_cfi_fail

        .section .note.GNU-stack, "", @progbits

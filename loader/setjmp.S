/* setjmp.S - the setjmp family (setjmp, _setjmp, __sigsetjmp) in front of
 * glibc's: the context glibc is about to save (the callee-saved registers,
 * the caller's stack pointer and return address, as its __jmpbuf orders
 * them) goes to setjmp_record (longjmp.c) first, then glibc's __sigsetjmp
 * runs on the untouched frame, so it saves what it would have saved. Under
 * `sfi` a longjmp resumes only a context so recorded (dipc/sfi.h,
 * DIPC_SFI_CFI_JUMP). A returns-twice function cannot be C: its frame would
 * be gone when the longjmp comes back. */
        .intel_syntax noprefix
        .text

/* rdi = buf, esi = savemask, [rsp] = the caller's return address. */
        .type setjmp_common, @function
        .p2align 4
setjmp_common:
        sub rsp, 88                     /* 8 + 88: the C alignment */
        mov [rsp], rbx                  /* ctx, glibc's JB_* order */
        mov [rsp + 8], rbp
        mov [rsp + 16], r12
        mov [rsp + 24], r13
        mov [rsp + 32], r14
        mov [rsp + 40], r15
        lea rax, [rsp + 96]             /* the caller's rsp after the call */
        mov [rsp + 48], rax
        mov rax, [rsp + 88]             /* where the call returns */
        mov [rsp + 56], rax
        mov [rsp + 64], rdi
        mov [rsp + 72], rsi
        mov rsi, rsp
        call setjmp_record              /* rax = glibc's __sigsetjmp */
        mov rdi, [rsp + 64]
        mov rsi, [rsp + 72]
        add rsp, 88
        jmp rax
        .size setjmp_common, . - setjmp_common

        .globl __sigsetjmp
        .type __sigsetjmp, @function
        .p2align 4
__sigsetjmp:
        jmp setjmp_common
        .size __sigsetjmp, . - __sigsetjmp

        .globl setjmp
        .type setjmp, @function
        .p2align 4
setjmp:
        mov esi, 1                      /* glibc's setjmp saves the mask */
        jmp setjmp_common
        .size setjmp, . - setjmp

        .globl _setjmp
        .type _setjmp, @function
        .p2align 4
_setjmp:
        xor esi, esi
        jmp setjmp_common
        .size _setjmp, . - _setjmp

        .section .note.GNU-stack, "", @progbits

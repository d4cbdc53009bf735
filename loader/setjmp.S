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

/* getcontext(ucp) in front of glibc's, for the same reason: the check
 * (getcontext_check, sfi_unknown.c) returns glibc's, which then runs on
 * the caller's frame as if called directly. */
        .globl getcontext
        .type getcontext, @function
        .p2align 4
getcontext:
        push rdi                        /* 8 + 8: the C alignment */
        mov rsi, [rsp + 8]              /* the caller's return address */
        call getcontext_check
        pop rdi
        jmp rax
        .size getcontext, . - getcontext

/* dlsym(handle, name) and dlvsym(handle, name, version) in front of
 * glibc's, which take RTLD_NEXT from their caller's return address: the
 * check (sfi_dl.c) returns glibc's function, or one returning NULL for a
 * forged handle, which then runs as if called directly. */
.macro DL_STUB name, check
        .globl \name
        .type \name, @function
        .p2align 4
\name:
        push rdi                        /* 8 + 3 * 8: the C alignment */
        push rsi
        push rdx
        mov rsi, [rsp + 24]             /* the caller's return address */
        call \check
        pop rdx
        pop rsi
        pop rdi
        jmp rax
        .size \name, . - \name
.endm
        DL_STUB __dipc_sfi_dlsym, sfi_dlsym_check
        DL_STUB __dipc_sfi_dlvsym, sfi_dlvsym_check

/* sfi_longjmp(buf, val) (longjmp.c): the context of buf, taken again and
 * checked by the runtime (another thread may have changed buf since the
 * loader's first look), resumed from the runtime's copy, with eax = val,
 * or 1 for 0, as glibc's longjmp does. Never returns. */
        .globl sfi_longjmp
        .hidden sfi_longjmp
        .type sfi_longjmp, @function
        .p2align 4
sfi_longjmp:
        push rsi                        /* val; rsp 16-aligned for the call */
        call __dipc_sfi_jump_take       /* faults if refused */
        pop rsi
        mov rbx, [rax]
        mov rbp, [rax + 8]
        mov r12, [rax + 16]
        mov r13, [rax + 24]
        mov r14, [rax + 32]
        mov r15, [rax + 40]
        mov rdx, [rax + 56]             /* pc, before rsp moves */
        mov rsp, [rax + 48]
        mov eax, esi
        test eax, eax
        jnz 1f
        inc eax
1:      jmp rdx
        .size sfi_longjmp, . - sfi_longjmp

        .section .note.GNU-stack, "", @progbits

/* xproc_enter.S - the callee side of a cross-process call, in the importer
 * (docs/cross-process.md §4). The proxy calls an imported process entry's
 * thunk (xproc_connect.c: `mov r11d, index; jmp [xproc_enter]`) on the
 * callee domain's stack, with the entry's arguments in registers and above
 * the return address (copied to the shadow thread's stack, where the
 * callee's stub finds them at the same place). This borrows a shadow thread
 * of the callee process, runs the callee's stub with that thread's TCB
 * (xproc_set_fs), call stack and unsafe stack, all in the callee's shared
 * memory, and gives back the caller's. */
#include <dipc/abi.h>
#include "../rt/layout.h"

        .intel_syntax noprefix
        .text
        .globl xproc_enter
        .hidden xproc_enter
        .type xproc_enter, @function
        .p2align 4
xproc_enter:
        push rbp
        mov rbp, rsp
        push rbx
        push r12
        push r13
        push r14
        sub rsp, 176                    /* the argument registers */
        mov [rsp], rdi
        mov [rsp + 8], rsi
        mov [rsp + 16], rdx
        mov [rsp + 24], rcx
        mov [rsp + 32], r8
        mov [rsp + 40], r9
        movdqu [rsp + 48], xmm0
        movdqu [rsp + 64], xmm1
        movdqu [rsp + 80], xmm2
        movdqu [rsp + 96], xmm3
        movdqu [rsp + 112], xmm4
        movdqu [rsp + 128], xmm5
        movdqu [rsp + 144], xmm6
        movdqu [rsp + 160], xmm7
        mov edi, r11d
        call xproc_borrow               /* struct xproc_call *: never NULL */
        mov r12, rax
        rdfsbase r13                    /* the caller's TCB */
        /* mpk: the runtime switches fs (and records the lent TCB) while
         * this thread is still on the domain's stack, which its API gate
         * wants; the loader has no WRFSBASE it would let run. */
        cmp byte ptr [rip + xproc_mpk], 0
        je 1f
        mov rdi, [r12 + 8]              /* call.tcb */
        call xproc_mpk_set_fs
1:
        mov rcx, [r12 + 40]             /* call.stack_bytes */
        mov rax, [r12 + 16]             /* call.stack_top */
        sub rax, rcx
        and rax, -16                    /* the ABI's alignment at the call */
        mov rdi, rax
        lea rsi, [rbp + 16]             /* the caller's stack arguments */
        rep movsb
        mov rdi, [rsp]
        mov rsi, [rsp + 8]
        mov rdx, [rsp + 16]
        mov rcx, [rsp + 24]
        mov r8, [rsp + 32]
        mov r9, [rsp + 40]
        movdqu xmm0, [rsp + 48]
        movdqu xmm1, [rsp + 64]
        movdqu xmm2, [rsp + 80]
        movdqu xmm3, [rsp + 96]
        movdqu xmm4, [rsp + 112]
        movdqu xmm5, [rsp + 128]
        movdqu xmm6, [rsp + 144]
        movdqu xmm7, [rsp + 160]
        add rsp, 176
        mov r14, qword ptr gs:[DIPC_USP_GS_OFFSET]
        mov rbx, rsp
        mov rsp, rax                    /* below the copied arguments */
        mov rax, [r12 + 24]             /* call.unsafe_top */
        mov qword ptr gs:[DIPC_USP_GS_OFFSET], rax
        cmp byte ptr [rip + xproc_mpk], 0
        jne 2f
        mov rax, [r12 + 8]              /* call.tcb */
        mov qword ptr gs:[ST_LENT_FS], rax /* the runtime's checks: ours */
        call [rip + xproc_set_fs]
2:
        xor eax, eax
        call [r12]                      /* call.target: the callee's stub */
        mov rsp, rbx
        sub rsp, 48                     /* the result registers */
        mov [rsp], rax
        mov [rsp + 8], rdx
        movdqu [rsp + 16], xmm0
        movdqu [rsp + 32], xmm1
        cmp byte ptr [rip + xproc_mpk], 0
        je 3f
        xor edi, edi                    /* the thread's own TCB again */
        call xproc_mpk_set_fs
        jmp 4f
3:
        mov rax, r13
        call [rip + xproc_set_fs]
        mov qword ptr gs:[ST_LENT_FS], 0
4:
        mov qword ptr gs:[DIPC_USP_GS_OFFSET], r14
        mov rdi, r12
        call xproc_return
        mov rax, [rsp]
        mov rdx, [rsp + 8]
        movdqu xmm0, [rsp + 16]
        movdqu xmm1, [rsp + 32]
        add rsp, 48
        pop r14
        pop r13
        pop r12
        pop rbx
        pop rbp
        ret
        .globl xproc_enter_end
        .hidden xproc_enter_end
xproc_enter_end:
        .size xproc_enter, . - xproc_enter

/* void (*xproc_set_fs)(rax = the fs base): `wrfsbase rax; ret`, written
 * by xproc_connect.c into the thunk page at start, with --connect only: the
 * loader's own code has no WRFSBASE, which the mpk backend's scan of loaded
 * code refuses (rt/codescan.c). Keeps every other register. */
        .data
        .globl xproc_set_fs
        .hidden xproc_set_fs
        .p2align 3
xproc_set_fs:
        .quad 0
/* Nonzero under mpk (xproc_connect.c). */
        .globl xproc_mpk
        .hidden xproc_mpk
xproc_mpk:
        .byte 0
        .text

/* Under mpk, where the loader's SIGSYS and SIGSEGV handlers send a thread
 * of the other's code (xproc_connect.c): they run with only key 0
 * accessible, this in the interrupted context (the domain standing for
 * the other, its stack), so that xproc_resume_work reads the other's
 * shared state. Every register is kept but what the work changes in the
 * saved block (rax: a delegated call's result); the red zone below the
 * interrupted rsp is left alone. Returns to where xproc_resume_work says,
 * or crashes (ud2) when it says 0: the runtime unwinds the call. */
        .globl xproc_resume
        .hidden xproc_resume
        .type xproc_resume, @function
        .p2align 4
xproc_resume:
        sub rsp, 136                    /* the red zone, the return slot */
        pushfq
        push rbp
        mov rbp, rsp                    /* [rbp + 16]: the return slot */
        and rsp, -16
        sub rsp, 80 + 256
        mov [rsp], rax
        mov [rsp + 8], rcx
        mov [rsp + 16], rdx
        mov [rsp + 24], rsi
        mov [rsp + 32], rdi
        mov [rsp + 40], r8
        mov [rsp + 48], r9
        mov [rsp + 56], r10
        mov [rsp + 64], r11
        movdqu [rsp + 80], xmm0
        movdqu [rsp + 96], xmm1
        movdqu [rsp + 112], xmm2
        movdqu [rsp + 128], xmm3
        movdqu [rsp + 144], xmm4
        movdqu [rsp + 160], xmm5
        movdqu [rsp + 176], xmm6
        movdqu [rsp + 192], xmm7
        movdqu [rsp + 208], xmm8
        movdqu [rsp + 224], xmm9
        movdqu [rsp + 240], xmm10
        movdqu [rsp + 256], xmm11
        movdqu [rsp + 272], xmm12
        movdqu [rsp + 288], xmm13
        movdqu [rsp + 304], xmm14
        movdqu [rsp + 320], xmm15
        cld
        mov rdi, rsp
        call xproc_resume_work
        test rax, rax
        jz 5f
        mov [rbp + 16], rax
        movdqu xmm0, [rsp + 80]
        movdqu xmm1, [rsp + 96]
        movdqu xmm2, [rsp + 112]
        movdqu xmm3, [rsp + 128]
        movdqu xmm4, [rsp + 144]
        movdqu xmm5, [rsp + 160]
        movdqu xmm6, [rsp + 176]
        movdqu xmm7, [rsp + 192]
        movdqu xmm8, [rsp + 208]
        movdqu xmm9, [rsp + 224]
        movdqu xmm10, [rsp + 240]
        movdqu xmm11, [rsp + 256]
        movdqu xmm12, [rsp + 272]
        movdqu xmm13, [rsp + 288]
        movdqu xmm14, [rsp + 304]
        movdqu xmm15, [rsp + 320]
        mov rax, [rsp]
        mov rcx, [rsp + 8]
        mov rdx, [rsp + 16]
        mov rsi, [rsp + 24]
        mov rdi, [rsp + 32]
        mov r8, [rsp + 40]
        mov r9, [rsp + 48]
        mov r10, [rsp + 56]
        mov r11, [rsp + 64]
        mov rsp, rbp
        pop rbp
        popfq
        ret 128
5:      /* a crash the runtime unwinds: a fault, as a crash of the other's
         * code would be (not an illegal instruction, whose handling looks
         * further at the thread, whose fs is the other's TCB) */
        mov byte ptr [0], 0
        ud2
        .size xproc_resume, . - xproc_resume

/* void xproc_mpk_set_fs(uintptr_t tcb): dipc_lent_fs, or a crash. */
        .globl xproc_mpk_set_fs
        .hidden xproc_mpk_set_fs
        .type xproc_mpk_set_fs, @function
        .p2align 4
xproc_mpk_set_fs:
        sub rsp, 8
        call dipc_lent_fs@PLT
        add rsp, 8
        test eax, eax
        jnz 6f
        ret
6:
        ud2
        .size xproc_mpk_set_fs, . - xproc_mpk_set_fs

/* The target of calls to a process that is gone: a crash of the callee. */
        .globl xproc_dead
        .hidden xproc_dead
        .type xproc_dead, @function
xproc_dead:
        mov byte ptr [0], 0             /* a fault, as in xproc_resume */
        ud2
        .size xproc_dead, . - xproc_dead

/* long xproc_site_syscall(nr, a, b, c, d, e, f): the listening process's
 * filter lets anonymous mmap and brk through from xproc_site only. */
        .globl xproc_site_syscall
        .hidden xproc_site_syscall
        .globl xproc_site
        .hidden xproc_site
        .type xproc_site_syscall, @function
        .p2align 4
xproc_site_syscall:
        mov rax, rdi
        mov rdi, rsi
        mov rsi, rdx
        mov rdx, rcx
        mov r10, r8
        mov r8, r9
        mov r9, [rsp + 8]
xproc_site:
        syscall
        ret
        .size xproc_site_syscall, . - xproc_site_syscall

        .section .note.GNU-stack, "", @progbits

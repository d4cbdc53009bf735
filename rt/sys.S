/* sys.S - the runtime's trusted system call, and where a system call that
 * the seccomp filter trapped resumes (exec.c).
 *
 * The filter (seccomp.c) lets the calls that change protection keys, the
 * gs base or executable memory through only from the syscall instruction
 * below, and only with the process's cookie in r9 (args[5], unused by
 * those calls; for an anonymous mmap it is the ignored offset, so it is
 * page-aligned). The cookie lives in runtime-key memory: a domain can jump
 * to this instruction (keys do not restrict instruction fetch) but cannot
 * supply it. Called in trusted mode only, with signals blocked (sys.c),
 * so the cookie never reaches a signal frame. */
#include "layout.h"

        .intel_syntax noprefix
        .text

/* long dipc_sys_raw(long nr, long a0, long a1, long a2, long a3, long a4) */
        .globl dipc_sys_raw
        .hidden dipc_sys_raw
        .type dipc_sys_raw, @function
        .p2align 4
dipc_sys_raw:
        mov rax, rdi
        mov rdi, rsi
        mov rsi, rdx
        mov rdx, rcx
        mov r10, r8
        mov r8, r9
        mov r9, [rip + dipc_sys_cookie]
        test r9, r9                     /* no filter yet */
        jz 1f
        mov r9, [r9]
1:
dipc_syscall_insn:
        syscall
/* What the filter checks: seccomp_data.instruction_pointer is the address
 * after the syscall instruction. */
        .globl dipc_syscall_site
        .hidden dipc_syscall_site
dipc_syscall_site:
        xor r9d, r9d
        ret
        .size dipc_sys_raw, . - dipc_sys_raw

/* A call the filter trapped in trusted mode (glibc's munmap or madvise
 * under runtime code, e.g. a thread's first malloc making its arena)
 * resumes here (exec.c), made as the runtime's own: rax = the system
 * call's number, its arguments in rdi, rsi, rdx, r10, r8 (none of these
 * calls has a sixth), rcx = where it returns. Returns like the system
 * call, r9 cleared, the red zone below the caller's rsp untouched. A
 * domain that jumps here faults reading the cookie (runtime key). */
        .globl __dipc_trusted_syscall
        .hidden __dipc_trusted_syscall
        .type __dipc_trusted_syscall, @function
        .p2align 4
__dipc_trusted_syscall:
        .cfi_startproc
        .cfi_undefined rip
        lea rsp, [rsp - 136]
        mov [rsp], rcx
        mov r9, [rip + dipc_sys_cookie]
        mov r9, [r9]
        call dipc_syscall_insn          /* syscall; xor r9d, r9d; ret */
        mov rcx, [rsp]
        lea rsp, [rsp + 136]
        jmp rcx
        .cfi_endproc
        .size __dipc_trusted_syscall, . - __dipc_trusted_syscall

/* A trapped mmap or mprotect resumes here (exec.c), in the thread's domain
 * and on its stack: rax = the system call's number, its arguments in rdi,
 * rsi, rdx, r10, r8, r9, rcx = where it returns (as the syscall
 * instruction leaves it). The API gate runs it checked (OP_MEMORY, keeping
 * the whole vector state and rflags); then this returns like the system
 * call: rax = its result, rcx and r11 clobbered, the rest kept, the red
 * zone below the caller's rsp untouched. A domain jumping here gets what
 * it would get from the API. */
        .globl __dipc_trap_trampoline
        .hidden __dipc_trap_trampoline
        .type __dipc_trap_trampoline, @function
        .p2align 4
__dipc_trap_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        lea rsp, [rsp - 128]
        push rcx
        push rbx
        push rdi
        push rsi
        push rdx
        push r8
        push r9
        push r10
        mov rbx, rsp
        and rsp, -16
        sub rsp, 96                     /* struct dipc_gate_args */
        mov [rsp], rax
        mov [rsp + 8], rdi
        mov [rsp + 16], rsi
        mov [rsp + 24], rdx
        mov [rsp + 32], r10
        mov [rsp + 40], r8
        mov [rsp + 48], r9
        mov edi, OP_MEMORY_NUM
        mov rsi, rsp
        call dipc_gate
        mov rsp, rbx
        pop r10
        pop r9
        pop r8
        pop rdx
        pop rsi
        pop rdi
        pop rbx
        ret 128
        .cfi_endproc
        .size __dipc_trap_trampoline, . - __dipc_trap_trampoline

        .section .note.GNU-stack,"",@progbits

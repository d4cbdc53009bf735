/* sfi.S - __dipc_sfi_check, the slow path of the checks compiled into
 * -fdipc-sfi code (dipc/sfi.h): returns if the access is allowed, else
 * faults on the trap page, where the signal path reports the refusal and
 * recovers (sfi.c moves the fault to the call site first). */
#include "dipc/sfi.h"

        .intel_syntax noprefix
        .text
        .globl __dipc_sfi_check
        .type __dipc_sfi_check, @function
        .p2align 4
__dipc_sfi_check:
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

        .section .note.GNU-stack, "", @progbits

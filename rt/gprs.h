/* gprs.h - assembler macros: the general registers C code may clobber,
 * but r11 (a SysV scratch register callers never expect kept), saved and
 * restored: 64 bytes of stack. For gate.S and sfi.S. */
#ifndef DIPC_RT_GPRS_H
#define DIPC_RT_GPRS_H
#ifdef __ASSEMBLER__

.macro SAVE_GPRS
        push rax
        push rcx
        push rdx
        push rsi
        push rdi
        push r8
        push r9
        push r10
.endm

.macro RESTORE_GPRS
        pop r10
        pop r9
        pop r8
        pop rdi
        pop rsi
        pop rdx
        pop rcx
        pop rax
.endm

#endif
#endif

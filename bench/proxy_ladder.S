/* proxy_ladder.S - the proxy's work, part by part (bench/breakdown.cc,
 * "breakdown/ladder/<n>"): six functions int f(int) that call
 * bench_increment (callee.c) through a pointer as a proxy calls a callee
 * stub, each doing the work of the one before plus one more part of
 * rt/gate.S's PROXY template (split stack, no DCS: what dIPC Low and High
 * get), instruction for instruction, on a state of the runtime's layout
 * (rt/layout.h) that breakdown.cc fills in. A model, not the runtime's
 * code of the `mpk`/`none` template (`sfi`'s has no PKRU site and no rung
 * 5 publication): PKRU sites are the NOPs `none` runs, immediates the
 * runtime patches in are loads here; the report sets its top rung beside
 * the real proxy's time so that a drift from gate.S shows.
 *   0 skeleton   the caller's rcx/rdx kept, the NOPed PKRU sites, the
 *                call, scratch registers zeroed on the way out
 *   1 checks     the thread's state (bounds, fs), rsp on its stack, and
 *                the state again on the way back (PROXY_REENTER)
 *   2 APL        the caller's APL byte for the proxy's domain
 *   3 KCS        the entry pushed, checked and popped; the callee runs
 *                above the caller's return address, as without a split
 *   4 stack      the switch to the callee domain's stack and back
 *   5 domain     the running domain set and the image of the domain
 *                switched to published (XCHG), checked valid and current,
 *                both ways: the whole proxy but its WRPKRU */
#include "layout.h"

        .intel_syntax noprefix

/* The callee domain of the model's calls (its stack: DS_SIZE * this). */
#define LADDER_DOM 1

.macro LADDER name, level
        .globl \name
        .type \name, @function
        .p2align 6
\name:
        push rcx
        push rdx
        xor ecx, ecx
        xor eax, eax
        nop dword ptr [rax]             /* rdpkru */
        mov r11d, eax
        xor eax, eax
        nop dword ptr [rax]             /* wrpkru */
        test eax, eax
        jnz 90f
        mov ecx, r11d
        mov r10, [rip + bench_ladder_state]
.if \level >= 1
        cmp r10, [rip + bench_ladder_lo]
        jb 90f
        cmp r10, [rip + bench_ladder_hi]
        jae 90f
        mov rax, fs:[0]
        cmp rax, [r10 + ST_FSBASE]
        jne 90f
        mov rax, [r10 + ST_CUR_DS]      /* the stack in use */
        lea r11, [r10 + ST_BASE_LO - DS_LO]
        test rax, rax
        cmovz rax, r11
        cmp rsp, [rax + DS_LO]
        jb 90f
        cmp rsp, [rax + DS_HI]
        jae 90f
.endif
.if \level >= 2
        mov edx, [r10 + ST_CUR_DOM]
        and edx, RT_MAX_DOMAINS - 1
        mov rax, [rip + bench_ladder_apl_stride]
        imul rdx, rax
        mov rax, [rip + bench_ladder_apl_col]
        cmp byte ptr [rax + rdx], 1
        jb 90f
.endif
.if \level < 3
        pop rdx                         /* no KCS: a plain call through */
        pop rcx
        sub rsp, 8
        xor eax, eax
        xor r10d, r10d
        mov r11, [rip + bench_ladder_callee]
        call r11
        add rsp, 8
        mov rdi, rax
        mov rsi, rdx
  .if \level >= 1
        xor ecx, ecx                    /* PROXY_REENTER */
        xor edx, edx
        xor eax, eax
        nop dword ptr [rax]             /* wrpkru */
        test eax, eax
        jnz 90f
        mov r10, [rip + bench_ladder_state]
        cmp r10, [rip + bench_ladder_lo]
        jb 90f
        cmp r10, [rip + bench_ladder_hi]
        jae 90f
        mov rax, fs:[0]
        cmp rax, [r10 + ST_FSBASE]
        jne 90f
  .endif
.else
        mov rax, [r10 + ST_KCS_TOP]     /* push the KCS entry */
        cmp rax, [r10 + ST_KCS_LIMIT]
        jae 90f
        cmp rax, [r10 + ST_KCS_BASE]
        jne 19f
        cmp qword ptr [r10 + ST_TIMEOUT_NS], 0
        je 19f
        inc qword ptr [r10 + ST_CALL_SEQ]
19:     mov [rax + K_SAVED_PKRU], ecx
        mov ecx, [r10 + ST_CUR_DOM]
        mov rdx, LADDER_DOM
        shl rdx, 32
        or rcx, rdx
        mov [rax + K_CALLER_DOM], rcx
        mov rcx, [rsp + 16]
        mov [rax + K_RET], rcx
        lea rcx, [rsp + 16]
        mov [rax + K_CALLER_RSP], rcx
        mov rcx, [r10 + ST_RECOVERY]
        test rcx, rcx
        jnz 7f
        mov rcx, [rip + bench_ladder_zero]
        jmp 8f
7:      mov qword ptr [r10 + ST_RECOVERY], 0
8:      mov [rax + K_RECOVERY], rcx
        lea rcx, [rip + \name]
        mov [rax + K_PROXY], rcx
        mov [rax + K_RBX], rbx
        mov [rax + K_RBP], rbp
        mov [rax + K_R12], r12
        mov [rax + K_R13], r13
        mov [rax + K_R14], r14
        mov [rax + K_R15], r15
        mov rcx, [r10 + DIPC_USP_GS_OFFSET]
        mov [rax + K_USP], rcx
        mov rcx, [r10 + DIPC_SFI_SSP_GS_OFFSET]
        mov [rax + K_SSP], rcx
        mov rdx, [r10 + ST_CUR_DS]
        mov [rax + K_CUR_DS], rdx
        test rdx, rdx
        jz 3f
        mov rcx, [rdx + DS_CUR]
        mov [rax + K_DS_SAVED], rcx
        mov rcx, rsp
        and rcx, -16
        mov [rdx + DS_CUR], rcx
3:      lea rcx, [rax + K_SIZE]
        mov [r10 + ST_KCS_TOP], rcx
  .if \level >= 4
        mov rdx, [r10 + ST_DSTACKS]     /* the callee domain's stack */
        mov rcx, DS_SIZE * LADDER_DOM
        add rdx, rcx
        cmp qword ptr [rdx + DS_CUR], 0
        je 90f
        mov r11, [rdx + DS_CUR]
        mov rcx, [rip + bench_ladder_zero] /* PH_ARGBYTES */
        sub r11, rcx
        cmp r11, [rdx + DS_LO]
        jb 90f
        mov [r10 + ST_CUR_DS], rdx
        mov rcx, [rip + bench_ladder_zero] /* PH_ARGQWORDS */
        test rcx, rcx
        jz 5f
        jmp 90f
5:
  .else
        lea r11, [rsp + 24]
  .endif
        mov [rax + K_CALLEE_RSP], r11
  .if \level >= 5
        mov ecx, LADDER_DOM
        mov [r10 + ST_CUR_DOM], ecx
        mov [r10 + DIPC_DOM_GS_OFFSET], ecx
17:     mov rdx, [rip + bench_ladder_rw_d]
        mov ecx, [rdx]
        mov edx, ecx
        xchg [r10 + ST_CUR_PKRU], edx
        mov rdx, [rip + bench_ladder_valid_d]
        cmp dword ptr [rdx], 0
        je 90f
        mov rdx, [rip + bench_ladder_rw_d]
        cmp ecx, [rdx]
        jne 17b
  .endif
        mov r11, [rax + K_CALLEE_RSP]
        mov r10, [rax + K_CALLER_RSP]
        mov eax, ecx
        mov rcx, [r10 - 8]
        mov rdx, [r10 - 16]
        mov rsp, r11
        push rcx
        push rdx
        xor ecx, ecx
        xor edx, edx
        nop dword ptr [rax]             /* wrpkru */
  .if \level >= 5
        mov r11, [rip + bench_ladder_ro_d]
        cmp eax, [r11]
        jne 90f
  .endif
        pop rdx
        pop rcx
        xor eax, eax
        xor r10d, r10d
        mov r11, [rip + bench_ladder_callee]
        call r11
        mov rdi, rax
        mov rsi, rdx
        xor ecx, ecx                    /* PROXY_REENTER */
        xor edx, edx
        xor eax, eax
        nop dword ptr [rax]             /* wrpkru */
        test eax, eax
        jnz 90f
        mov r10, [rip + bench_ladder_state]
        cmp r10, [rip + bench_ladder_lo]
        jb 90f
        cmp r10, [rip + bench_ladder_hi]
        jae 90f
        mov rax, fs:[0]
        cmp rax, [r10 + ST_FSBASE]
        jne 90f
        mov rax, [r10 + ST_KCS_TOP]     /* our entry must be on top */
        cmp rax, [r10 + ST_KCS_BASE]
        jbe 90f
        sub rax, K_SIZE
        lea r11, [rip + \name]
        cmp [rax + K_PROXY], r11
        jne 90f
        cmp rsp, [rax + K_CALLEE_RSP]
        jne 90f
        mov [r10 + ST_KCS_TOP], rax
        cmp dword ptr [r10 + DIPC_ERRNO_GS_OFFSET], 0
        je 31f
        mov dword ptr [r10 + DIPC_ERRNO_GS_OFFSET], 0
31:     mov rcx, [rax + K_USP]
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
        mov r11d, [rax + K_CALLER_DOM]
  .if \level >= 5
        mov [r10 + ST_CUR_DOM], r11d
        mov [r10 + DIPC_DOM_GS_OFFSET], r11d
27:     mov rcx, [rip + bench_ladder_rw_base]
        mov ecx, [rcx + r11 * 4]
        mov edx, ecx
        xchg [r10 + ST_CUR_PKRU], edx
        mov rdx, [rip + bench_ladder_valid_base]
        cmp dword ptr [rdx + r11 * 4], 0
        je 90f
        mov rdx, [rip + bench_ladder_rw_base]
        cmp ecx, [rdx + r11 * 4]
        jne 27b
  .endif
        mov r8, [rax + K_RET]
        mov rsp, [rax + K_CALLER_RSP]
        cmp [rsp], r8
        je 35f
        mov [rsp], r8
35:
        mov r9d, r11d
        and r9d, RT_MAX_DOMAINS - 1
        mov eax, ecx
        xor ecx, ecx
        xor edx, edx
        nop dword ptr [rax]             /* wrpkru */
  .if \level >= 5
        mov r11, [rip + bench_ladder_ro_base]
        cmp eax, [r11 + r9 * 4]
        jne 90f
  .endif
.endif
        mov rax, rdi
        mov rdx, rsi
        xor edi, edi
        xor esi, esi
        xor r8d, r8d
        xor r9d, r9d
        xor r10d, r10d
        xor r11d, r11d
        ret
90:     ud2                             /* the model's state is wrong */
        .size \name, . - \name
.endm

        .text
        LADDER bench_ladder_0, 0
        LADDER bench_ladder_1, 1
        LADDER bench_ladder_2, 2
        LADDER bench_ladder_3, 3
        LADDER bench_ladder_4, 4
        LADDER bench_ladder_5, 5

        .section .note.GNU-stack, "", @progbits

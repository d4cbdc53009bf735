/* gate_call.h - calls of libdipc's recovery and signal gates
 * (__dipc_recover_from_fault, __dipc_signal_enter/_leave,
 * __dipc_timeout_tick), which serve only callers whose return address lies
 * in the loader's code or libdipc's (rt/owned.c, dipc_trusted_caller): a
 * tail call would hand them its own caller's (a signal frame's return, in
 * libc). The empty asm after the call keeps it from being the last thing
 * the function does. */
#ifndef DIPC_LOADER_GATE_CALL_H
#define DIPC_LOADER_GATE_CALL_H

#define GATE_CALL(call)                                                        \
  ({                                                                           \
    __typeof__(call) gate_result_ = (call);                                    \
    __asm__ volatile("" : "+r"(gate_result_));                                 \
    gate_result_;                                                              \
  })

#endif

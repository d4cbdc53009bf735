// End to end without the loader: a mini loader fills the import slot from
// the records (self-relative references read in memory) with a hostile
// proxy that records the registers it sees, calls the callee stub, records
// them again and garbles every callee-saved register before returning.
// reg_integrity keeps the caller's live values, reg_confidentiality zeroes
// the caller's registers before the call and the callee's after it; the
// proxy is entered with a SysV-aligned stack (rsp = 8 mod 16).
// Control: without reg_confidentiality the stub trusts the proxy with rbx,
// rbp and r12-r15, which the runtime's proxies restore from their KCS entry
// (rt/gate.S) and this one garbles: with no policy, and with reg_integrity
// alone, the live values kept there at -O2 are lost.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -o %t %s && %t control | FileCheck %s --check-prefixes=CHECK,CONTROL
// RUN: %t integrity | FileCheck %s --check-prefixes=CHECK,INTEGRITY
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 -o %t0 %s && %t0 | FileCheck %s
// CHECK: result ok, dipc_errno 0
// CHECK-NEXT: at the proxy: rbx=0 rbp=0 r12=0 r13=0 r14=0 r15=0 rax=0 r10=0 rdi=4 rsi=7 rsp%16=8
// CHECK-NEXT: after the callee stub: rcx=0 rdx=0 rsi=0 rdi=0 r8=0 r9=0 r10=0 r11=0 rax=47
// CONTROL-NEXT: no policy: result WRONG
// INTEGRITY-NEXT: reg_integrity alone: result WRONG
#include <dipc.h>
#include <dipc/metadata.h>
#include <stdio.h>
#include <unistd.h>

long mix(long a, long b) __dom("db") __entry __iso_callee(reg_confidentiality);
long mix(long a, long b) { return a * 10 + b; }

void *callee_stub;
long in[11], out[9];
void hostile_proxy(void);
__asm__(".text\n hostile_proxy:\n"
        " mov %rbx, in+0(%rip)\n mov %rbp, in+8(%rip)\n mov %r12, in+16(%rip)\n"
        " mov %r13, in+24(%rip)\n mov %r14, in+32(%rip)\n mov %r15, in+40(%rip)\n"
        " mov %rax, in+48(%rip)\n mov %r10, in+56(%rip)\n mov %rdi, in+64(%rip)\n"
        " mov %rsi, in+72(%rip)\n mov %rsp, in+80(%rip)\n sub $8, %rsp\n call *callee_stub(%rip)\n"
        " add $8, %rsp\n mov %rcx, out+0(%rip)\n mov %rdx, out+8(%rip)\n"
        " mov %rsi, out+16(%rip)\n mov %rdi, out+24(%rip)\n mov %r8, out+32(%rip)\n"
        " mov %r9, out+40(%rip)\n mov %r10, out+48(%rip)\n mov %r11, out+56(%rip)\n"
        " mov %rax, out+64(%rip)\n mov $0x5151, %rbx\n mov $0x5151, %rbp\n"
        " mov $0x5151, %r12\n mov $0x5151, %r13\n mov $0x5151, %r14\n"
        " mov $0x5151, %r15\n ret\n");

// Not const: a slot address derived from a const object could not be
// stored through (the compiler would drop the store).
extern struct dipc_entry_record __start_dipc_entries[], __stop_dipc_entries[];
extern struct dipc_import_record __start_dipc_imports[], __stop_dipc_imports[];
/* This test fills the slots itself: it is its own loader. */
const int __dipc_loader_version = 1;

static void *ref(dipc_rel_t *field) { return (char *)field + *field; }

__attribute__((noinline)) long compute(long x, long y)
    __iso_caller(reg_integrity, reg_confidentiality) {
  long p = x * 3, q = y * 5, r = x ^ y; // live across the call
  return mix(x, y) + p + q + r;
}

__attribute__((noinline)) long compute_integrity_only(long x, long y)
    __iso_caller(reg_integrity) {
  long p = x * 3, q = y * 5, r = x ^ y;
  return mix(x, y) + p + q + r;
}

__attribute__((noinline)) long compute_trusting(long x, long y) {
  long p = x * 3, q = y * 5, r = x ^ y;
  return mix(x, y) + p + q + r;
}

// Never returns: its caller's callee-saved registers do not survive the call.
__attribute__((noinline, noreturn)) static void control(int integrity) {
  long got = integrity ? compute_integrity_only(4, 7) : compute_trusting(4, 7);
  printf("%s: result %s\n", integrity ? "reg_integrity alone" : "no policy",
         got == 47 + 12 + 35 + (4 ^ 7) ? "ok" : "WRONG");
  fflush(stdout);
  _exit(0);
}

int main(int argc, char **argv) {
  for (struct dipc_entry_record *e = __start_dipc_entries; e < __stop_dipc_entries; ++e)
    callee_stub = ref(&e->callee_stub);
  for (struct dipc_import_record *i = __start_dipc_imports; i < __stop_dipc_imports; ++i)
    *(void **)ref(&i->slot) = (void *)hostile_proxy;
  long got = compute(4, 7);
  printf("result %s, dipc_errno %d\n", got == 47 + 12 + 35 + (4 ^ 7) ? "ok" : "WRONG", dipc_errno);
  printf("at the proxy: rbx=%lx rbp=%lx r12=%lx r13=%lx r14=%lx r15=%lx rax=%lx r10=%lx rdi=%ld rsi=%ld rsp%%16=%ld\n",
         in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10] % 16);
  printf("after the callee stub: rcx=%lx rdx=%lx rsi=%lx rdi=%lx r8=%lx r9=%lx r10=%lx r11=%lx rax=%ld\n",
         out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8]);
  fflush(stdout);
  if (argc > 1)
    control(argv[1][0] == 'i');
  return 0;
}

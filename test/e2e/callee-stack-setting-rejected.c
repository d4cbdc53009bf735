// Bad callee stack settings stop the program before main with a clear
// message and the loader's refusal status (78, EX_CONFIG): a zero, a size
// below 64K or above 1G (also one that would wrap around 2^64), a
// non-numeric size or unknown suffix, a domain name that is not an
// identifier, and a domain the program does not have.
// dipc-run refuses an empty value itself (status 2). A good setting for a
// domain the program has, and for `default`, runs it.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: for v in 0 4K 63K 2G 1025M 17179869185G 12Q abc db= =1M 1.5M 9-x=1M nosuch=1M; do sh -c '"$@" 2>&1; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=none --callee-stack=$v %t; done > %t.out
// RUN: FileCheck %s --check-prefix=BAD < %t.out
// RUN: sh -c '"$@" 2>&1; echo "status $?"' sh %dipc-bin-dir/dipc-run --callee-stack= %t | FileCheck %s --check-prefix=EMPTY
// RUN: env DIPC_CALLEE_STACK=1M,,db=2M sh -c '"$@" 2>&1; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s --check-prefix=EMPTYITEM
// RUN: %dipc-bin-dir/dipc-run --backend=none --callee-stack=db=128K --callee-stack=default=1M --callee-stack=2M %t 2>&1 | FileCheck %s --check-prefix=GOOD
// BAD: dipc: DIPC_CALLEE_STACK=0 (dipc-run --callee-stack): '0': a callee stack is 64K to 1G
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=4K (dipc-run --callee-stack): '4K': a callee stack is 64K to 1G
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=63K (dipc-run --callee-stack): '63K': a callee stack is 64K to 1G
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=2G (dipc-run --callee-stack): '2G': a callee stack is 64K to 1G
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=1025M (dipc-run --callee-stack): '1025M': a callee stack is 64K to 1G
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=17179869185G (dipc-run --callee-stack): '17179869185G': a callee stack is 64K to 1G
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=12Q (dipc-run --callee-stack): '12Q': unknown size suffix (expected K, M or G)
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=abc (dipc-run --callee-stack): 'abc': expected a size: a number with an optional K, M or G suffix
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=db= (dipc-run --callee-stack): 'db=': expected a size: a number with an optional K, M or G suffix
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK==1M (dipc-run --callee-stack): '=1M': expected DOMAIN=SIZE with DOMAIN a domain's name
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=1.5M (dipc-run --callee-stack): '1.5M': expected a size: a number with an optional K, M or G suffix
// BAD-NEXT: status 78
// BAD-NEXT: dipc: DIPC_CALLEE_STACK=9-x=1M (dipc-run --callee-stack): '9-x=1M': expected DOMAIN=SIZE with DOMAIN a domain's name
// BAD-NEXT: status 78
// BAD: dipc-loader: DIPC_CALLEE_STACK=nosuch=1M (dipc-run --callee-stack): 'nosuch=1M': the program has no domain 'nosuch' (its domains: db default)
// BAD-NEXT: status 78
// BAD-NOT: main ran
// EMPTY: dipc-run: --callee-stack expects [DOMAIN=]SIZE, got ''
// EMPTY: status 2
// EMPTYITEM: dipc: DIPC_CALLEE_STACK=1M,,db=2M (dipc-run --callee-stack): '1M,,db=2M': empty item
// EMPTYITEM-NEXT: status 78
// GOOD: main ran: 42
#include <dipc.h>
#include <stdio.h>

__attribute__((noinline)) int answer(void) __dom("db") __entry { return 42; }

int main(void) {
  printf("main ran: %d\n", answer());
  return 0;
}

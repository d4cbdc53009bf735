// The vector-state tests again under the mpk backend, where the gates and
// slow paths run their PKU variants (real WRPKRU, XRSTOR_USER's panic
// through the PKU path): what the callee sees on every call path
// (e2e/vector-state-reaches-callee-as-policy-says.c), what runtime slow
// paths keep (rt/vector-state-slow-paths.c) and the XRSTOR mask check
// (rt/gate-xrstor-checked.c). On a host without protection keys these run
// in the VM lane (docs/testing.md); their `none` runs are the originals.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %S/vector-state-reaches-callee-as-policy-says.c -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t | FileCheck %S/vector-state-reaches-callee-as-policy-says.c --check-prefixes=CHECK,ZEROED
// RUN: env GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-EVEX %dipc-bin-dir/dipc-run --backend=mpk %t | FileCheck %S/vector-state-reaches-callee-as-policy-says.c --check-prefixes=CHECK,ZEROED
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %S/vector-state-reaches-callee-as-policy-says.c -o %t.try -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t.try | FileCheck %S/vector-state-reaches-callee-as-policy-says.c --check-prefixes=CHECK,ZEROED
// RUN: %rt-cc %S/../rt/vector-state-slow-paths.c -o %t.rt
// RUN: env DIPC_BACKEND=mpk %t.rt | FileCheck %S/../rt/vector-state-slow-paths.c
// RUN: env DIPC_BACKEND=mpk GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-EVEX %t.rt | FileCheck %S/../rt/vector-state-slow-paths.c
// RUN: %rt-cc %S/../rt/gate-xrstor-checked.c -o %t.xrstor
// RUN: env DIPC_BACKEND=mpk %t.xrstor | FileCheck %S/../rt/gate-xrstor-checked.c

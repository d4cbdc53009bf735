// madvise(MADV_DONTNEED) is not stopped (docs/runtime.md §6): glibc issues
// it on a thread's stack as the thread exits, with every signal blocked,
// so the filter cannot trap it. Domain `evil`, with no grant, resets the
// page of vault's secret to the executable's bytes (anonymous memory
// would read as zeros), undoing what vault wrote there. Expected to fail
// until the runtime owns thread exit.
// XFAIL: *
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %S/attack-replace-victim-memory.c -o %t
// RUN: %dipc-bin-dir/dipc-run %t dontneed 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t dontneed 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: vault holds 'changed-by-vault'
// NONE: attack returned 0
// NONE-NEXT: vault holds 'vault-secret-42'

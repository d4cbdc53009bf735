// callee-stack-deep-recursion-fits-default.c under mpk, where every call
// runs on a callee stack of db tagged with db's key: 900 levels of ~1 KiB
// fit the default size; with --callee-stack=db=64K the overflow hits the
// guard, is reported as db's callee stack overflow, the call fails with
// DIPC_EFAULT and db stays usable; a bad setting is refused the same way.
// The same builds with -fdipc-sfi behave the same under sfi (and under
// `none`, which callee-stack-deep-recursion-fits-default.c runs).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %S/callee-stack-deep-recursion-fits-default.c -o %t.sj0
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %S/callee-stack-deep-recursion-fits-default.c -o %t.try2
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=setjmp -O0 %S/callee-stack-deep-recursion-fits-default.c -o %t.sfi.sj0
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O2 %S/callee-stack-deep-recursion-fits-default.c -o %t.sfi.try2
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.sj0 2>&1 | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=FITS %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.try2 2>&1 | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=FITS %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk --callee-stack=db=64K %t.sj0 2>%t.err | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=SMALL %}
// RUN: %if pku %{ FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=MSG < %t.err %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk --callee-stack=db=64K %t.try2 2>%t.err | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=SMALL %}
// RUN: %if pku %{ FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=MSG < %t.err %}
// RUN: %if pku %{ sh -c '"$@" 2>&1; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=mpk --callee-stack=nosuch=1M %t.sj0 | FileCheck %s %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi.sj0 2>&1 | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=FITS
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi.try2 2>&1 | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=FITS
// RUN: %dipc-bin-dir/dipc-run --backend=sfi --callee-stack=db=64K %t.sfi.sj0 2>%t.sfi.err | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=SMALL
// RUN: FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=MSG < %t.sfi.err
// RUN: %dipc-bin-dir/dipc-run --backend=sfi --callee-stack=db=64K %t.sfi.try2 2>%t.sfi.err | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=SMALL
// RUN: FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=MSG < %t.sfi.err
// RUN: %dipc-bin-dir/dipc-run --backend=none --callee-stack=db=64K %t.sfi.sj0 2>%t.sfi.err | FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=SMALL
// RUN: FileCheck %S/callee-stack-deep-recursion-fits-default.c --check-prefix=MSG < %t.sfi.err
// RUN: sh -c '"$@" 2>&1; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=sfi --callee-stack=nosuch=1M %t.sfi.sj0 | FileCheck %s
// CHECK: 'nosuch=1M': the program has no domain 'nosuch'
// CHECK-NEXT: status 78

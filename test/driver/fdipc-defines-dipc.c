// -fdipc defines __DIPC__ (and so turns the annotations on); without it the
// macro is absent.
// RUN: %dipc-clang -fdipc -E -dM %s | FileCheck %s --check-prefix=ON
// RUN: %dipc-clang -E -dM %s | FileCheck %s --check-prefix=OFF
// RUN: %dipc-clang -fdipc -fno-dipc -E -dM %s | FileCheck %s --check-prefix=OFF
// ON: #define __DIPC__ 1
// OFF-NOT: __DIPC__

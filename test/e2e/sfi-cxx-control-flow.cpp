// What a C++ program does with control flow, under `sfi`'s control-flow
// checks (dipc/sfi.h): virtual calls, std::function, std::sort's
// comparator, a thrown and caught exception (the unwinder leaves frames
// without their epilogues), longjmp out of 50 frames, a signal handler and
// qsort's comparator (checked by the loader's interceptor), and an
// exception a named domain throws through two frames with destructors
// and catches (each landing pad's _Unwind_Resume, which the loader turns
// into a new raise: loader/sfi_refused.c), and <cctype>'s functions (C++
// calls libc's; the loader knows they touch no memory of the caller's).
// Every line comes out, and the same under `none`.
// RUN: %dipc-clangxx -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s
// CHECK-NOT: sfi fault
// CHECK: helper 2
// CHECK-NEXT: first 1 f 12
// CHECK-NEXT: caught boom
// CHECK-NEXT: map 2
// CHECK-NEXT: longjmp 7
// CHECK-NEXT: signal handled
// CHECK-NEXT: qsort 123
// CHECK-NEXT: helper 3
// CHECK-NEXT: lib caught 42
// CHECK-NEXT: ctype 11A
#include <dipc.h>
#include <algorithm>
#include <cctype>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <csetjmp>
#include <csignal>
struct Shape { virtual ~Shape() = default; virtual double area() const = 0; };
struct Sq : Shape { double s; explicit Sq(double s) : s(s) {} double area() const override { return s * s; } };
static std::jmp_buf jb;
static int deep(int n) { if (n == 0) std::longjmp(jb, 7); return deep(n - 1) + 1; }
static void on_usr1(int) { std::cout << "signal handled\n"; }
extern "C" int helper(int x) __dom("lib") __entry { return x + 1; }
static int lib_dtors __dom("lib");
struct Counted { ~Counted() { ++lib_dtors; } };
__attribute__((noinline)) static int lib_throw(int x) __dom("lib") { Counted c; if (x) throw x; return 0; }
__attribute__((noinline)) static int lib_pass(int x) __dom("lib") { Counted c; return lib_throw(x) + 1; }
extern "C" int lib_catch(int x) __dom("lib") __entry { try { return lib_pass(x); } catch (int e) { return e * 10 + lib_dtors; } }
int main() {
  std::cout << "helper " << helper(1) << "\n";
  std::vector<std::unique_ptr<Shape>> v;
  for (int i = 5; i > 0; --i) v.push_back(std::make_unique<Sq>(i));
  std::sort(v.begin(), v.end(), [](auto &a, auto &b) { return a->area() < b->area(); });
  std::function<int(int)> f = [](int x) { return x * 3; };
  std::ostringstream os; os << "first " << v[0]->area() << " f " << f(4);
  std::cout << os.str() << "\n";
  try { throw std::runtime_error("boom"); } catch (const std::exception &e) { std::cout << "caught " << e.what() << "\n"; }
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  std::cout << "map " << m["b"] << "\n";
  if (int r = setjmp(jb)) std::cout << "longjmp " << r << "\n"; else deep(50);
  std::signal(SIGUSR1, on_usr1); std::raise(SIGUSR1);
  int arr[] = {3, 1, 2}; std::qsort(arr, 3, sizeof(int), [](const void *a, const void *b) { return *(const int *)a - *(const int *)b; });
  std::cout << "qsort " << arr[0] << arr[1] << arr[2] << "\n";
  std::cout << "helper " << helper(2) << "\n";
  std::cout << "lib caught " << lib_catch(4) << "\n";
  // <cctype> in C++ calls libc's functions (C's macros do not).
  std::cout << "ctype " << (std::isxdigit('f') != 0) << (std::isupper('Q') != 0)
            << char(std::toupper('a')) << "\n";
  return 0;
}

"""Prints a C program with N entries of domain db; main calls the last."""
import sys

n = int(sys.argv[1])
print("#include <dipc.h>\n#include <stdio.h>")
for i in range(n):
    print(f"long e{i}(void) __dom(\"db\") __entry;\nlong e{i}(void) {{ return {i}; }}")
print(f"int main(void) {{ printf(\"last=%ld\\n\", e{n - 1}()); return 0; }}")

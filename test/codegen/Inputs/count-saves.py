# count-saves.py ASM [--at-most FN BASE SLACK]...: the register saves of
# each function of an x86-64 assembly file (clang -S): pushes of the
# callee-saved registers rbx, rbp, r12-r15 plus spills (the allocator's
# "8-byte Spill" comments). Prints "FN: N saves (P pushes, S spills)" per
# function; with --at-most, fails unless FN saves at most SLACK more than
# BASE. A `push %rax` only aligns the stack: not a save.
import re
import sys

CALLEE_SAVED = {"rbx", "rbp", "r12", "r13", "r14", "r15"}


def count(path):
    with open(path) as f:
        lines = f.readlines()
    types = (re.match(r"\s+\.type\s+([\w.]+),@function", l) for l in lines)
    functions = {m.group(1) for m in types if m}
    saves, fn = {}, None
    for line in lines:
        label = re.match(r"([\w.]+):", line)
        if label and not label.group(1).startswith(".L"):
            fn = label.group(1) if label.group(1) in functions else None
            if fn:
                saves.setdefault(fn, [0, 0])
            continue
        if fn is None:
            continue
        push = re.match(r"\s+pushq\s+%(\w+)", line)
        if push and push.group(1) in CALLEE_SAVED:
            saves[fn][0] += 1
        elif "Spill" in line:
            saves[fn][1] += 1
    return saves


def main(argv):
    if len(argv) < 2 or (len(argv) - 2) % 4:
        sys.exit("usage: count-saves.py ASM [--at-most FN BASE SLACK]...")
    saves = count(argv[1])
    for fn, (pushes, spills) in saves.items():
        print(f"{fn}: {pushes + spills} saves ({pushes} pushes, {spills} spills)")
    failed = False
    for i in range(2, len(argv), 4):
        flag, fn, base, slack = argv[i:i + 4]
        if flag != "--at-most" or fn not in saves or base not in saves:
            sys.exit(f"count-saves.py: bad check {' '.join(argv[i:i + 4])}")
        n, limit = sum(saves[fn]), sum(saves[base]) + int(slack)
        if n > limit:
            print(f"FAIL: {fn} saves {n}, more than {base}'s + {slack} = {limit}")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv)

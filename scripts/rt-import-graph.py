#!/usr/bin/env python3
"""The file-level import graph of a library's objects, and its cycles.

    rt-import-graph.py [--nm NM] [--dot] [--top FILE] OBJ... | @LIST

File A imports file B when A's object refers to (leaves undefined) a
symbol B's object defines: A calls a function of B or uses its data. The
runtime is layered (docs/runtime.md "Layers"): a file uses only files
below it, so the graph has no cycle. Prints the graph (or, with --dot,
Graphviz) and exits 1 naming every cycle, with the symbols that make each
edge of it, or a file that uses a --top file; 2 on bad input. @LIST reads
the objects from a file, one a line (rt/c-objects.txt in the build).

The runtime's C objects are checked; its assembly (gate.S, sys.S) is the
emulated machine rather than a layer: its gates enter the C code the way
a CPU's trap vectors enter a kernel, and every layer may use its code.
"""
import argparse
import os
import subprocess
import sys

DEFINED = set("TtDdBbRrGgSsVvWwiu")  # nm types that define a symbol


def file_name(obj):
    """rt/CMakeFiles/dipc.dir/backend.c.o -> backend.c"""
    base = os.path.basename(obj)
    return base[:-2] if base.endswith(".o") else base


def read_symbols(nm, obj):
    try:
        out = subprocess.run([nm, "--no-sort", obj], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("rt-import-graph: cannot read %s with %s: %s" % (obj, nm, e))
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in "Uw":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in DEFINED and parts[1].isupper():
            defined.add(parts[2])  # global: another object can refer to it
    return defined, undefined


def build_graph(nm, objs):
    defs, undefs = {}, {}
    for obj in objs:
        name = file_name(obj)
        if name in defs:
            sys.exit("rt-import-graph: two objects named %s" % name)
        defs[name], undefs[name] = read_symbols(nm, obj)
    owner = {}
    for name, syms in defs.items():
        for s in syms:
            owner.setdefault(s, name)
    edges = {name: {} for name in defs}  # a -> {b: [symbols]}
    for a, syms in undefs.items():
        for s in sorted(syms):
            b = owner.get(s)
            if b is not None and b != a:
                edges[a].setdefault(b, []).append(s)
    return edges


def strong_components(edges):
    """Tarjan's algorithm, iterative: the components of more than one file."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    pushed = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def a_cycle(edges, comp):
    """One cycle through the component's first file, by breadth-first search."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 fromfile_prefix_chars="@")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--dot", action="store_true")
    ap.add_argument("--top", action="append", default=[],
                    help="a file no other file may use")
    ap.add_argument("objs", nargs="+")
    args = ap.parse_args()
    for obj in args.objs:
        if not os.path.isfile(obj):
            print("rt-import-graph: no object %s" % obj, file=sys.stderr)
            return 2
    edges = build_graph(args.nm, args.objs)
    if args.dot:
        print("digraph imports {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print('  "%s" -> "%s";' % (a, b))
        print("}")
    else:
        for a in sorted(edges):
            print("%s: %s" % (a, " ".join(sorted(edges[a]))))
    sys.stdout.flush()  # the graph before the verdict on stderr
    bad = 0
    for top in args.top:
        if top not in edges:
            print("rt-import-graph: no object for --top %s" % top,
                  file=sys.stderr)
            return 2
        for a in sorted(edges):
            if top in edges[a]:
                print("%s uses %s of %s, the top file" %
                      (a, ", ".join(edges[a][top][:3]), top), file=sys.stderr)
                bad = 1
    comps = strong_components(edges)
    for comp in comps:
        cycle = a_cycle(edges, comp)
        print("cycle: %s" % " -> ".join(cycle), file=sys.stderr)
        for a, b in zip(cycle, cycle[1:]):
            syms = edges[a][b]
            more = " ..." if len(syms) > 3 else ""
            print("  %s uses %s of %s%s" % (a, ", ".join(syms[:3]), b, more),
                  file=sys.stderr)
        if len(comp) > len(cycle) - 1:
            print("  (files in cycles with these: %s)" % " ".join(comp),
                  file=sys.stderr)
    if comps:
        print("rt-import-graph: %d cycle(s) among %d files" %
              (len(comps), sum(len(c) for c in comps)), file=sys.stderr)
        return 1
    if bad:
        return 1
    print("rt-import-graph: %d files, no cycle" % len(edges), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

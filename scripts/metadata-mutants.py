#!/usr/bin/env python3
"""Mutates the dIPC metadata of a linked -fdipc program and checks that the
loader (dipc-run) and dipc-readelf both handle every mutant safely.

    metadata-mutants.py --bin BUILD/bin --program PROG [--count 2000]
                        [--seed 1] [--jobs 2] [--args "ARG ..."] [--keep DIR]

Mutations (issue #14's acceptance): bit flips and field overwrites in the
record sections (their layout read from include/dipc/records.def), bit
flips in the dIPC notes, truncations of the file, and edits of the section
headers, the ELF header's section-table fields and the section-name table. Each
mutant runs under `dipc-run --backend=none --info` and through
`dipc-readelf`; it is classed as

  refused     both tools refuse it, each with a message;
  same        both accept it and the run's output, exit status and domain
              table equal the original's;
  crash       a tool died by a signal or trapped without a message;
  ignored     the loader ran it with none of its records applied;
  disagree    one tool accepts what the other refuses;
  different   both accept it but the run differs from the original.

Exits 1 if any mutant is in one of the last four classes. The summary's
numbers are counted from the runs, and the first few failures of each class
are printed with the mutation and both tools' messages.
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "include", "dipc")


def record_layouts():
    """{section: (record size, [(field offset, width)])}, from the one
    definition of the records (include/dipc/records.def), each field split
    into the units a mutation overwrites: a signature into its members
    (signature.h), ranges into references, the header into its two words."""
    with open(os.path.join(INCLUDE, "metadata.h")) as f:
        sections = dict(re.findall(r'#define (DIPC_\w+_SECTION) "(\w+)"',
                                   f.read()))
    with open(os.path.join(INCLUDE, "signature.h")) as f:
        members = re.findall(r"X\(uint(8|16)_t, \w+,", f.read())
    sig = []
    offset = 0
    for bits in members:
        sig.append((offset, int(bits) // 8))
        offset += int(bits) // 8
    with open(os.path.join(INCLUDE, "records.def")) as f:
        text = f.read()
    layouts = {}
    for kind, section, size in re.findall(
            r"^DIPC_RECORD\((\w+), (\w+), (\d+),", text, re.M):
        fields = re.findall(r"^DIPC_FIELD\(%s, \w+, (\w+), (\d+)," % kind,
                            text, re.M)
        size = int(size)
        units = []
        for i, (ftype, off) in enumerate(fields):
            off = int(off)
            end = int(fields[i + 1][1]) if i + 1 < len(fields) else size
            if ftype == "SIGNATURE":
                units += [(off + o, w) for o, w in sig]
            elif ftype in ("RANGES", "HEADER"):
                step = 8 if ftype == "RANGES" else 4
                units += [(o, step) for o in range(off, end, step)]
            else:
                units.append((off, end - off))
        layouts[sections[section]] = (size, units)
    return layouts


RECORD_SECTIONS = record_layouts()
SHDR_FIELDS = [(0, 4, "sh_name"), (4, 4, "sh_type"), (8, 8, "sh_flags"),
               (16, 8, "sh_addr"), (24, 8, "sh_offset"), (32, 8, "sh_size"),
               (48, 8, "sh_addralign"), (56, 8, "sh_entsize")]
EHDR_FIELDS = [(40, 8, "e_shoff"), (58, 2, "e_shentsize"),
               (60, 2, "e_shnum"), (62, 2, "e_shstrndx")]


class Elf:
    def __init__(self, data):
        self.data = data
        (self.shoff,) = struct.unpack_from("<Q", data, 40)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from(
            "<HHH", data, 58)
        self.sections = []
        strtab_off = self.shdr(self.shstrndx)[4]
        for i in range(self.shnum):
            name_off = self.shdr(i)[0]
            end = data.index(b"\0", strtab_off + name_off)
            name = data[strtab_off + name_off:end].decode()
            self.sections.append((name, i, self.shdr(i)))
        self.strtab = (strtab_off, self.shdr(self.shstrndx)[5])

    def shdr(self, i):
        # name, type, flags, addr, offset, size, link, info, align, entsize
        return struct.unpack_from("<IIQQQQIIQQ", self.data,
                                  self.shoff + i * self.shentsize)

    def section(self, name):
        for n, i, h in self.sections:
            if n == name:
                return i, h
        return None


def mutate(elf, rng):
    """Returns (mutant bytes, description)."""
    data = bytearray(elf.data)
    records = [(n, elf.section(n)) for n in RECORD_SECTIONS
               if elf.section(n) and elf.section(n)[1][5]]
    dipc_sections = [(n, i) for n, i, h in elf.sections
                     if n.startswith("dipc_")]
    note = elf.section(".note.dipc")
    kind = rng.choices(["bitflip", "field", "truncate", "shdr", "ehdr",
                        "shstrtab", "note"],
                       [30, 35, 7, 18, 4, 6, 5 if note else 0])[0]
    if kind == "note":
        h = note[1]
        off = h[4] + rng.randrange(h[5])
        bit = rng.randrange(8)
        data[off] ^= 1 << bit
        return data, "bit %d of byte %d of the dIPC notes" % (bit,
                                                            off - h[4])
    if kind == "bitflip":
        name, (_, h) = rng.choice(records)
        off = h[4] + rng.randrange(h[5])
        bit = rng.randrange(8)
        data[off] ^= 1 << bit
        rec = RECORD_SECTIONS[name][0]
        return data, "bit %d of byte %d of %s record %d" % (
            bit, (off - h[4]) % rec, name, (off - h[4]) // rec)
    if kind == "field":
        name, (_, h) = rng.choice(records)
        size, fields = RECORD_SECTIONS[name]
        index = rng.randrange(h[5] // size)
        foff, width = rng.choice(fields)
        off = h[4] + index * size + foff
        fmt = {1: "<B", 2: "<H", 4: "<I", 8: "<q"}[width]
        (old,) = struct.unpack_from(fmt, data, off)
        if width == 8:
            how = rng.choice(["zero", "delta", "delta", "page", "other",
                              "random"])
            new = {"zero": 0, "delta": old + rng.choice([-1, 1]) *
                   rng.choice([1, 2, 4, 8, 16, 56, 64, 88]),
                   "page": old + rng.choice([-1, 1]) * 4096,
                   "other": old + rng.choice([-1, 1]) * size *
                   rng.randrange(1, 4),
                   "random": rng.randrange(-(1 << 63), 1 << 63)}[how]
            new = max(min(new, (1 << 63) - 1), -(1 << 63))
        else:
            how = rng.choice(["zero", "plus", "minus", "max", "random"])
            top = (1 << (8 * width)) - 1
            new = {"zero": 0, "plus": (old + 1) & top,
                   "minus": (old - 1) & top, "max": top,
                   "random": rng.randrange(top + 1)}[how]
        struct.pack_into(fmt, data, off, new)
        return data, "%s record %d field at +%d: %d -> %d (%s)" % (
            name, index, foff, old, new, how)
    if kind == "truncate":
        # Mostly the tail (section headers, non-loaded sections), sometimes
        # anywhere.
        if rng.random() < 0.7:
            cut = rng.randrange(min(elf.shoff, elf.strtab[0]), len(data))
        else:
            cut = rng.randrange(64, len(data))
        return data[:cut], "truncated to %d of %d bytes" % (cut, len(data))
    if kind == "shdr":
        name, i = rng.choice(dipc_sections + [(".shstrtab", elf.shstrndx)])
        foff, width, field = rng.choice(SHDR_FIELDS)
        off = elf.shoff + i * elf.shentsize + foff
        fmt = {4: "<I", 8: "<Q"}[width]
        (old,) = struct.unpack_from(fmt, data, off)
        top = (1 << (8 * width)) - 1
        new = rng.choice([0, (old + 1) & top, (old - 1) & top,
                          (old + 8) & top, (old + 4096) & top, top,
                          rng.randrange(top + 1)])
        struct.pack_into(fmt, data, off, new)
        return data, "section %s %s: %#x -> %#x" % (name, field, old, new)
    if kind == "ehdr":
        foff, width, field = rng.choice(EHDR_FIELDS)
        fmt = {2: "<H", 8: "<Q"}[width]
        (old,) = struct.unpack_from(fmt, data, foff)
        top = (1 << (8 * width)) - 1
        new = rng.choice([0, (old + 1) & top, (old - 1) & top, top])
        struct.pack_into(fmt, data, foff, new)
        return data, "ELF header %s: %#x -> %#x" % (field, old, new)
    # A byte of the section-name table, within a dipc_ name.
    start, size = elf.strtab
    names = [j for j in range(size)
             if data[start + j:start + j + 5] == b"dipc_"]
    j = rng.choice(names) + rng.randrange(12)
    old = data[start + j]
    data[start + j] = rng.choice([old ^ (1 << rng.randrange(8)), 0,
                                  ord(rng.choice("abcdipc_"))])
    return data, "section-name byte %d: %r -> %r" % (
        j, chr(old), chr(data[start + j]))


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), \
            p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def domain_table(stderr):
    """The loader's --info lines that describe what it set up."""
    return [line for line in stderr.splitlines() if line.startswith("dipc")]


def judge(args, path, original):
    rc, out, err = run([os.path.join(args.bin, "dipc-run"), "--backend=none",
                        "--info", path] + args.args.split(), 30)
    erc, eout, eerr = run([os.path.join(args.bin, "dipc-readelf"), path], 30)
    loader_refused = rc == 78 and "refusing" in err
    system_refused = rc in (126, 127) and ("cannot execute" in err or
                                           "Exec format" in err or
                                           "error while loading" in err)
    readelf_refused = erc == 1 and "dipc-readelf: error:" in eerr
    signalled = lambda code: code == "timeout" or (
        isinstance(code, int) and (code < 0 or code >= 128))
    if signalled(erc) or (erc not in (0, 1)) or (erc == 1 and
                                                not readelf_refused):
        return "crash", "dipc-readelf status %s: %s" % (erc, eerr[-300:])
    if "unresolved import" in err:
        return "ignored", "status %s: %s" % (rc, err[-300:])
    if not loader_refused and not system_refused and signalled(rc):
        return "crash", "dipc-run status %s: %s" % (rc, err[-300:])
    refused = loader_refused or system_refused
    if refused != readelf_refused:
        return "disagree", "loader %s (status %s: %s) / readelf %s (%s)" % (
            "refused" if refused else "accepted", rc, err.strip()[-200:],
            "refused" if readelf_refused else "accepted", eerr.strip()[-200:])
    if refused:
        return "refused", err.strip().splitlines()[-1] if err.strip() else ""
    if original[2] and not domain_table(err):
        return "ignored", "no domain table: " + err[-300:]
    if (rc, out, domain_table(err)) != original:
        return "different", "status %s, output %r, stderr %r" % (
            rc, out[-200:], err[-300:])
    return "same", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="directory of dipc-run")
    ap.add_argument("--program", required=True)
    ap.add_argument("--args", default="")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", help="keep failing mutants in this directory")
    args = ap.parse_args()

    with open(args.program, "rb") as f:
        elf = Elf(f.read())
    rc, out, err = run([os.path.join(args.bin, "dipc-run"), "--backend=none",
                        "--info", args.program] + args.args.split(), 30)
    original = (rc, out, domain_table(err))
    if rc != 0 or not original[2]:
        sys.exit("metadata-mutants: the original program does not run "
                 "cleanly under dipc-run (status %s): %s" % (rc, err[-500:]))
    erc, _, eerr = run([os.path.join(args.bin, "dipc-readelf"),
                        args.program], 30)
    if erc != 0:
        sys.exit("metadata-mutants: dipc-readelf refuses the original: " +
                 eerr)

    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="dipc-mutants-")
    mutants = []
    for n in range(args.count):
        data, what = mutate(elf, rng)
        path = os.path.join(work, "m%04d" % n)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o755)
        mutants.append((path, what))

    counts = {}
    failures = {}
    done = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(judge, args, p, original): (p, w)
                   for p, w in mutants}
        for fut in concurrent.futures.as_completed(futures):
            path, what = futures[fut]
            verdict, detail = fut.result()
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict not in ("refused", "same"):
                failures.setdefault(verdict, []).append(
                    (os.path.basename(path), what, detail))
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    shutil.copy(path, args.keep)
            done += 1
            if done % 250 == 0:
                print("metadata-mutants: %d/%d judged" % (done, args.count),
                      file=sys.stderr, flush=True)
    shutil.rmtree(work)

    for verdict, items in sorted(failures.items()):
        print("== %s (%d)" % (verdict, len(items)))
        for name, what, detail in sorted(items)[:8]:
            print("  %s: %s\n      %s" % (name, what, detail.replace(
                "\n", " | ")))
    print("metadata-mutants: %d mutants of %s: %s" % (
        args.count, os.path.basename(args.program), ", ".join(
            "%s %d" % (v, counts.get(v, 0)) for v in
            ["refused", "same", "crash", "ignored", "disagree",
             "different"])))
    bad = sum(len(v) for v in failures.values())
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

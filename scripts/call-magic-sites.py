#!/usr/bin/env python3
"""Where an ELF object's executable bytes hold DIPC_SFI_CALL_MAGIC
(include/dipc/sfi.h), the 4 bytes an indirect call of -fdipc-sfi code
accepts before its target. Each site is a *start* when a function symbol
(.symtab or .dynsym) begins right after it (the compiler's prefix), else
*stray*: the code after a stray site is a call target nobody meant.

  call-magic-sites.py FILE...

Prints, per file, "FILE: N starts, M stray" and each stray site's file
offset; exits 1 if any file has a stray site or is not a 64-bit ELF."""
import struct
import sys

MAGIC = struct.pack("<I", 0xCC1D5FC0)
PT_LOAD, PF_X = 1, 1
SHT_SYMTAB, SHT_DYNSYM = 2, 11
STT_FUNC, STT_GNU_IFUNC = 2, 10


def function_starts(data, shoff, shentsize, shnum):
    """Virtual addresses of the function symbols of every symbol table."""
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    starts = set()
    for (_, stype, _, _, off, size, _, _, _, entsize) in sections:
        if stype not in (SHT_SYMTAB, SHT_DYNSYM) or not entsize:
            continue
        for at in range(off, off + size, entsize):
            _, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, at)
            if (info & 0xF) in (STT_FUNC, STT_GNU_IFUNC) and shndx and value:
                starts.add(value)
    return starts


def sites(path):
    data = open(path, "rb").read()
    if data[:5] != b"\x7fELF\x02":
        raise ValueError("not a 64-bit ELF file")
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 54)
    starts = function_starts(data, shoff, shentsize, shnum)
    found = []
    for i in range(phnum):
        ptype, flags, off, vaddr, _, filesz, _, _ = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if ptype != PT_LOAD or not flags & PF_X:
            continue
        at = data.find(MAGIC, off, off + filesz)
        while at >= 0:
            found.append((at, vaddr + (at - off) + 4 in starts))
            at = data.find(MAGIC, at + 1, off + filesz)
    return found


def main(paths):
    status = 0
    for path in paths:
        try:
            found = sites(path)
        except (OSError, ValueError, struct.error) as e:
            print(f"{path}: {e}", file=sys.stderr)
            status = 1
            continue
        stray = [at for at, start in found if not start]
        print(f"{path}: {len(found) - len(stray)} starts, {len(stray)} stray")
        for at in stray:
            print(f"  stray at file offset {at:#x}")
        status |= bool(stray)
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""mark-sfi-units.py ELF: TEST UTILITY. Marks every dIPC records note of ELF
(dipc/note.h) as a unit compiled with -fdipc-sfi (DIPC_NOTE_TYPE_RECORDS_SFI,
dipc/sfi.h), in place, so that the loader and runtime accept a program
built with plain -fdipc under --backend=sfi.

It compiles no checks in: the marked code is NOT isolated under sfi. Tests
use it to stand in for -fdipc-sfi output when what they test is the
runtime's side (e.g. the libc interceptors, docs/runtime.md), never as a
way to run untrusted code."""
import struct
import sys

NOTE_NAME = b"dipc\0"
TYPE_RECORDS, TYPE_RECORDS_SFI = 1, 3
SHT_NOTE = 7


def main(path):
    with open(path, "r+b") as f:
        elf = bytearray(f.read())
        if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
            sys.exit(f"{path}: not a little-endian ELF64 file")
        shoff, = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
        marked = 0
        for i in range(shnum):
            sh = shoff + i * shentsize
            sh_type, = struct.unpack_from("<I", elf, sh + 4)
            off, size = struct.unpack_from("<QQ", elf, sh + 0x18)
            if sh_type != SHT_NOTE:
                continue
            at, end = off, off + size
            while at + 12 <= end:
                namesz, descsz, ntype = struct.unpack_from("<III", elf, at)
                name = bytes(elf[at + 12:at + 12 + namesz])
                if name == NOTE_NAME and ntype in (TYPE_RECORDS, TYPE_RECORDS_SFI):
                    struct.pack_into("<I", elf, at + 8, TYPE_RECORDS_SFI)
                    marked += 1
                at += 12 + (namesz + 3 & ~3) + (descsz + 3 & ~3)
        if not marked:
            sys.exit(f"{path}: no dIPC records note to mark")
        f.seek(0)
        f.write(elf)
    print(f"{path}: marked {marked} unit(s) as -fdipc-sfi")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mark-sfi-units.py ELF")
    main(sys.argv[1])

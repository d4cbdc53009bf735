#!/usr/bin/env python3
"""Fetches the sources of the workloads of scripts/bench-workloads.sh.

zlib 1.3.2 from the libz-sys crate and Lua 5.4.8 from the lua-src crate, on
crates.io (Debian ships neither as plain sources). Each crate is downloaded
once into a cache directory (${XDG_CACHE_HOME:-~/.cache}/dipc), checked
against a pinned sha256, and its C sources (*.c, *.h of one folder) are
extracted into OUT_DIR/<name> (default OUT_DIR: <build>/third_party).
SQLite comes from examples/sqlite-domain/fetch.py.

    fetch.py [OUT_DIR]

Exits 0 when every OUT_DIR/<name> holds its files (already or now), 1 with a
message saying what went wrong otherwise.
"""
import os
import sys
import tarfile

# name: (crate, sha256 of the .crate, folder in the crate)
SOURCES = {
    "zlib": ("libz-sys-1.1.31",
             "ff20308ecabd635a2dc1dd5834a86c462cca20efba1d5d3ddab1f8aea3455cb2",
             "src/zlib"),
    "lua": ("lua-src-548.1.2",
            "bdc4e1aff422ad5f08cffb4719603dcdbc2be2307f4c1510d7aab74b7fa88ca8",
            "lua-5.4.8"),
}
DONE = ".fetched"  # written last: a folder without it is incomplete

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from crates import cached_crate, fail, out_dir  # noqa: E402


def extract(crate_path, crate, folder, out):
    prefix = f"{crate}/{folder}/"
    os.makedirs(out, exist_ok=True)
    count = 0
    with tarfile.open(crate_path, "r:gz") as tar:
        for member in tar.getmembers():
            rest = member.name[len(prefix):]
            if (not member.name.startswith(prefix) or "/" in rest or
                    not member.isfile() or not rest.endswith((".c", ".h"))):
                continue
            dest = os.path.join(out, rest)
            with open(dest + ".part", "wb") as f:
                f.write(tar.extractfile(member).read())
            os.replace(dest + ".part", dest)
            count += 1
    if count == 0:
        fail(f"{crate_path} has no C sources in {folder}/")
    open(os.path.join(out, DONE), "w").close()


def main():
    out = out_dir(__doc__)
    if out is None:
        return
    for name, (crate, sha256, folder) in SOURCES.items():
        dest = os.path.join(out, name)
        if not os.path.exists(os.path.join(dest, DONE)):
            extract(cached_crate(crate, sha256), crate, folder, dest)
        print(dest)


if __name__ == "__main__":
    main()

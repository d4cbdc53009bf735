#!/usr/bin/env python3
"""Fetches SQLite's amalgamation (sqlite3.c, sqlite3.h) for examples/sqlite-domain.

Debian ships no amalgamation; the libsqlite3-sys crate on crates.io bundles
SQLite 3.46.0's. The crate is downloaded once into a cache directory
(${XDG_CACHE_HOME:-~/.cache}/dipc), checked against a pinned sha256, and the
two files are extracted into OUT_DIR (default: <build>/third_party/sqlite).

    fetch.py [OUT_DIR]

Exits 0 when OUT_DIR holds the files (already or now), 1 with a message
saying what went wrong otherwise.
"""
import os
import sys
import tarfile

CRATE = "libsqlite3-sys-0.30.1"
SHA256 = "2e99fb7a497b1e3339bc746195567ed8d3e24945ecd636e3619d20b9de9e9149"
FILES = ("sqlite3.c", "sqlite3.h")  # in the crate's sqlite3/ folder

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from crates import cached_crate, fail, out_dir  # noqa: E402


def main():
    out = out_dir(__doc__, "sqlite")
    if out is None:
        return
    if all(os.path.exists(os.path.join(out, f)) for f in FILES):
        print(out)
        return
    crate = cached_crate(CRATE, SHA256)
    os.makedirs(out, exist_ok=True)
    with tarfile.open(crate, "r:gz") as tar:
        for name in FILES:
            member = tar.extractfile(f"{CRATE}/sqlite3/{name}")
            if member is None:
                fail(f"{crate} has no sqlite3/{name}")
            # Written under a temporary name: an interrupted run leaves no
            # half file that the next run would take for the real one.
            dest = os.path.join(out, name)
            with open(dest + ".part", "wb") as f:
                f.write(member.read())
            os.replace(dest + ".part", dest)
    print(out)


if __name__ == "__main__":
    main()

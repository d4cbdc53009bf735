"""Sources from crates.io, for the fetch.py scripts (examples/sqlite-domain,
bench/workloads): a crate is downloaded once into a cache directory
(${XDG_CACHE_HOME:-~/.cache}/dipc) and checked against a pinned sha256."""
import hashlib
import os
import sys
import urllib.request


def fail(msg):
    sys.exit(f"fetch.py: {msg}")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cached_crate(crate, sha256):
    """The path of crate (NAME-VERSION) in the cache, downloaded if it is
    missing or is not the pinned one; exits with the reason if it cannot
    be had."""
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or
                         os.path.expanduser("~/.cache"), "dipc")
    path = os.path.join(cache, crate + ".crate")
    if os.path.exists(path) and sha256_of(path) == sha256:
        return path
    name = crate.rsplit("-", 1)[0]
    url = f"https://static.crates.io/crates/{name}/{crate}.crate"
    os.makedirs(cache, exist_ok=True)
    print(f"fetch.py: downloading {url}", file=sys.stderr)
    part = path + ".part"
    try:
        with urllib.request.urlopen(url, timeout=120) as r, \
                open(part, "wb") as f:
            while block := r.read(1 << 20):
                f.write(block)
    except OSError as e:  # URLError, HTTPError, timeouts, disk errors
        fail(f"cannot download {url}: {e}\n"
             "  (no network? Place the crate at " + path + " by hand.)")
    got = sha256_of(part)
    if got != sha256:
        os.remove(part)
        fail(f"{url} has sha256 {got}, expected {sha256}: refusing it")
    os.replace(part, path)
    return path


def out_dir(doc, *default):
    """The OUT_DIR argument of a fetch.py (its only one), else
    <build>/third_party/<default...>, the build being $DIPC_BUILD_DIR or
    build/ in the source tree; None once -h/--help printed doc."""
    args = sys.argv[1:]
    if len(args) > 1 or (args and args[0].startswith("-")):
        if args in (["-h"], ["--help"]):
            print(doc.strip())
            return None
        fail("usage: fetch.py [OUT_DIR]")
    if args:
        return args[0]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("DIPC_BUILD_DIR") or os.path.join(root, "build")
    return os.path.join(build, "third_party", *default)

# patch-bytes.py FILE OFFSET HEX: overwrite bytes of FILE at OFFSET.
import sys

path, offset, data = sys.argv[1], int(sys.argv[2], 0), bytes.fromhex(sys.argv[3])
with open(path, "r+b") as f:
    f.seek(offset)
    f.write(data)

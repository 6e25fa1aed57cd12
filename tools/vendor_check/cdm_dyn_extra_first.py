#!/usr/bin/env python3
"""Copy an AKS/AKSV dump, moving each core file's DYN_EXTRA block in front of DYN_DATA.

NOT run in CI. Why: bigTpuProfile attaches mode-2 detailed commands (DYN_EXTRA) while it walks
DYN_DATA, in file order, so with the writers' order (DYN_DATA first) it never sees them and
prints the condensed (mode-1) names (docs/format-sg2260.md 2.5.4, "Defect"). Moving the block
first makes it decode every command's register image, which is what the mode-2 acceptance
check needs. tpuprof reads both orders the same way.

Usage: cdm_dyn_extra_first.py SRC_DIR DST_DIR
"""

import os
import shutil
import struct
import sys

DYN_DATA, DYN_EXTRA = 5, 6


def blocks(data: bytes):
    off = 0
    while off + 8 <= len(data):
        btype, size = struct.unpack_from("<II", data, off)
        yield btype, data[off:off + 8 + size]
        off += 8 + size
    if off != len(data):
        raise ValueError(f"trailing {len(data) - off} bytes")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    src, dst = sys.argv[1:]
    os.makedirs(dst, exist_ok=True)
    moved = 0
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if not name.startswith("cdmlib"):
            shutil.copyfile(path, os.path.join(dst, name))
            continue
        bl = list(blocks(open(path, "rb").read()))
        extra = [b for t, b in bl if t == DYN_EXTRA]
        out = []
        for t, b in bl:
            if t == DYN_DATA:
                out.extend(extra)
            if t != DYN_EXTRA:
                out.append(b)
        if not any(t == DYN_DATA for t, _ in bl):
            out.extend(extra)
        moved += len(extra)
        open(os.path.join(dst, name), "wb").write(b"".join(out))
    print(f"moved {moved} DYN_EXTRA blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Packs dump directories into fuzz_dump inputs (tests/fuzz/fuzz_dump.cpp):
each file as `u8 name length, name, u32 LE length, data`.
Usage: tools/fuzz_pack.py OUT_FILE DUMP_DIR [--max-bytes N]  (files larger than N are cut)"""
import os, struct, sys

out, src = sys.argv[1], sys.argv[2]
cap = int(sys.argv[sys.argv.index("--max-bytes") + 1]) if "--max-bytes" in sys.argv else 1 << 30
blob = b""
for name in sorted(os.listdir(src)):
    if name.endswith((".mlir", ".json")):  # not read by the decoders
        continue
    data = open(os.path.join(src, name), "rb").read()[:cap]
    blob += bytes([len(name)]) + name.encode() + struct.pack("<I", len(data)) + data
open(out, "wb").write(blob)

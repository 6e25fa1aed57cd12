#!/usr/bin/python3
"""The operands and results tpu-mlir's debugger gives every command of a BM1688 / CV184X dump
(debugger/target_1688 or target_cv184x opparam.py + memmap.py MemRef, through the PerfAI parser
that tpu_profile.py --mode time runs). One line per command: engine, core, index in the command
list, register class, op name, then `OPS` and `RES`, each value as
KIND:register address:r<r_addr>:[shape]:dtype:layout:[stride] (C:value:dtype for constants).
Environment as tests/data/README.md says (stub libcmodel on LD_LIBRARY_PATH):

    python3 tools/vendor_check/bm1688_cv184x_operands.py bm1688 ../shared/samples/bm1688/bmprofile_data-1 /tmp/tpumlir
"""
import os, sys
chip, dump = sys.argv[1], sys.argv[2]
py = sys.argv[3] + "/python"
sys.path[:0] = [py, py + "/tools", py + "/profile_helper", py + "/debugger"]
import bmprofile_perfAI as P
cls = P.BMProfileParserPerfAI_CV184X if chip == "cv184x" else P.BMProfileParserPerfAI
p = cls()
p.parse(dump)
def v(x):
    if getattr(x, "is_scalar", False) or not hasattr(x, "shape"):
        return f"C:{getattr(x,'data',None)}:{x.dtype.name}"
    try:
        ra = x.r_addr
    except Exception as e:
        ra = "?"
    return f"{x.mtype.name}:{x.address}:r{ra}:{list(x.shape)}:{x.dtype.name}:{x.layout}:{list(x.stride) if x.stride is not None else None}"
for eng, lists in (("TIU", p.bd_cmd), ("GDMA", p.gdma_cmd)):
    for core, lst in enumerate(lists):
        for i, c in enumerate(lst):
            try:
                ops = " | ".join(v(o) for o in (c.operands or []))
                res = " | ".join(v(o) for o in (c.results or []))
            except Exception as e:
                ops, res = f"ERR {e!r}", ""
            print(f"{eng} {core} {i} {c.name} {getattr(c,'op_name','')} OPS {ops} RES {res}")

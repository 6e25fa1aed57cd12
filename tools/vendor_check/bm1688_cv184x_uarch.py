#!/usr/bin/python3
"""Alg / uArch ops of synthetic short-form BM1688 / CV184X TIU commands as tpu-mlir's debugger
computes them (debugger/target_1688 or target_cv184x opdef.py `ops(is_arch)`), for the classes the
real captures lack. Each class and eu type gets four commands with random shapes (1-40),
precisions (INT8, FP16, FP32, INT16, BF16), signs, constant flags and layouts (seeded: the output
is reproducible). Prints CSV: chip,class,op,hex,alg,arch; alg = "error" and arch = the exception
name where the vendor raises. Run as tests/data/README.md says (stub libcmodel on LD_LIBRARY_PATH):

    python3 tools/vendor_check/bm1688_cv184x_uarch.py bm1688 /tmp/tpumlir > tests/data/bm1688_vendor_uarch.csv
"""
import ctypes, random, sys
chip = sys.argv[1]
py = sys.argv[2] + "/python"
sys.path[:0] = [py, py + "/tools", py + "/profile_helper", py + "/debugger"]
from debugger.target_common import get_target_context
ctx = get_target_context("BM1688" if chip == "bm1688" else "CV184X")
if chip == "bm1688":
    import debugger.target_1688.regdef as R
    import debugger.target_1688.opdef as O
else:
    import debugger.target_cv184x.regdef as R
    import debugger.target_cv184x.opdef as O
rnd = random.Random(1688 if chip == "bm1688" else 184)
classes = {"sMM": (2, [1]), "sMM2": (2, [4, 5, 6]), "sCMP": (13, [22, 23, 24, 25, 26]),
           "sSFU": (9, [12, 13, 15, 17]), "sLIN": (10, [1, 20, 21]), "sVC": (14, [0, 2, 23]),
           "sRQ&sDQ": (4, [0, 1, 3, 4, 5]), "sSGL": (6, [17, 18]), "sAR": (3, [2, 12]),
           "sCW&sBC": (5, [0, 1, 4]), "sSG": (6, [0, 1, 9])}
regcls = {c.OP_NAME: c for c in vars(R).values() if isinstance(c, type) and issubclass(c, ctypes.Structure) and hasattr(c, "OP_NAME")}
print("chip,class,op,hex,alg,arch")
for cls, (typ, eus) in classes.items():
    rc = regcls.get(cls)
    if rc is None:
        continue
    names = [f[0] for f in rc._fields_]
    for eu in eus:
        for trial in range(4):
            r = rc()
            r.cmd_short = 1
            r.tsk_typ = typ
            r.tsk_eu_typ = eu
            for f in names:
                if f.endswith(("_n", "_c", "_h", "_w")) and not f.endswith("_str"):
                    setattr(r, f, rnd.randint(1, 40))
                elif "prec" in f:
                    setattr(r, f, rnd.choice([0, 1, 2, 3, 5]))
                elif f.endswith("_sign") or f in ("opt_left_tran", "opt_rq"):
                    setattr(r, f, rnd.randint(0, 1))
                elif f.endswith("_const"):
                    setattr(r, f, rnd.randint(0, 1))
                elif f.startswith("short_") and f.endswith("_str"):
                    setattr(r, f, rnd.choice([0, 1, 3]))
            if "tsk_opd_num" in names:
                r.tsk_opd_num = 2
            raw = bytes(r)
            try:
                cmd = ctx.decoder.decode_tiu_cmd(memoryview(bytearray(raw)), cmd_id=0, offset=0,
                                                 subnet_id=0, core_id=0)
                alg, arch = cmd.ops(False), cmd.ops(True)
                op = cmd.op_name
            except Exception as e:
                op = O.tiu_cls.get(cls, {}).get("tsk_eu_typ", {}).get(eu, "?")
                alg, arch = "error", type(e).__name__
            print(f"{chip},{cls},{op},{raw.hex()},{alg},{arch}")

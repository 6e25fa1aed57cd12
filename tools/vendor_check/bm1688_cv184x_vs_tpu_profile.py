#!/usr/bin/env python3
"""Run tpu-mlir's time-mode decoder on a BM1688 or CV184X capture and write the expected tables.

NOT run in CI: it needs the vendor's python tree (tpu-mlir), which CI does not have.
Method, stubs and constants: tests/data/README.md ("BM1688 and CV184X") and
docs/chips/bm1688-notes.md.

    expected  run the vendor (its CLI, then the same parser in-process for the raw PMU fields)
              and write <chip>_vendor_events.csv and <chip>_vendor_regs.csv
    compare   compare those tables with tpuprof's events.csv (`tpuprof convert --csv`): per engine,
              in order, count, core, cmd id, start/end cycle, TIU op name, GDMA bytes

The vendor tree is tpu-mlir's python/ directory (fork jonathansong/tpu-mlir @ 8f9f82e1), e.g.
extracted to /tmp/tpumlir/python. The interpreter must be Debian 12's /usr/bin/python3 with
python3-numpy and python3-pandas (apt). The closed cmodel library the vendor opens for the chip
constants is replaced by a stub built here with gcc (STUB_CONSTANTS below); nothing else of the
vendor is changed.

Example (both captures, about 2 s each):

    python3 tools/vendor_check/bm1688_cv184x_vs_tpu_profile.py expected --chip bm1688 \\
        --vendor /tmp/tpumlir --dump ../shared/samples/bm1688/bmprofile_data-1 \\
        --work /tmp/v1688 --out tests/data
    python3 tools/vendor_check/bm1688_cv184x_vs_tpu_profile.py compare \\
        --expected tests/data/bm1688_vendor_events.csv --ours out/events.csv
"""

import argparse
import ast
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

# The five queries the vendor's decoder makes to libcmodel_<chip>.so (python/debugger/
# target_1688/memmap.py BM1688Info.load_lib_info, target_cv184x/memmap.py CV184XInfo), answered
# from the compiler's chip classes:
#   tpu_npu_num()                 = NPU_NUM
#   tpu_bank_num()                = LMEM_BANKS
#   tpu_local_mem_size_per_npu()  = LMEM_BYTES (bytes of local memory per lane)
#   tpu_eu_num(1)                 = Arch::eu_num(1) = EU_BYTES / 1   (lib/Backend/Arch.cpp)
#   tpu_get_ic_parallel(1)        = BM168x::ic_num(1) = IC_PARALLEL / 1 (BM168x.h)
# BM1688: include/tpu_mlir/Backend/BM168x/BM1688.h, constructor BM1688().
# CV184X: include/tpu_mlir/Backend/CV18xx/CV184X.h, constructor CV184X().
STUB_CONSTANTS = {
    "bm1688": dict(lib="libcmodel_bm1688.so", NPU=32, BANKS=16, LMEM=1 << 17, EU=16, ICP=32,
                   header="include/tpu_mlir/Backend/BM168x/BM1688.h"),
    "cv184x": dict(lib="libcmodel_cv184x.so", NPU=8, BANKS=16, LMEM=65536, EU=16, ICP=16,
                   header="include/tpu_mlir/Backend/CV18xx/CV184X.h"),
}

STUB_C = r"""
int tpu_npu_num(void) { return NPU; }
int tpu_bank_num(void) { return BANKS; }
int tpu_local_mem_size_per_npu(void) { return LMEM; }
int tpu_eu_num(int b) { return EU / (b ? b : 1); }
int tpu_get_ic_parallel(int b) { return ICP / (b ? b : 1); }
"""

EVENT_COLS = [
    "engine", "core", "global_idx", "pmu_index", "pmu_id", "cmd_id", "raw_start", "raw_end",
    "start_cycle", "end_cycle", "function_type", "function_name", "direction", "data_type",
    "bytes", "ddr_bandwidth", "alg_ops", "uarch_ops", "uarch_rate", "layer_id", "layer_name",
]
REG_COLS = [
    "engine", "core", "global_idx", "cmd_id", "function_type", "function_name", "cmd_id_dep",
    "asic_cycle", "alg_cycle", "initial_cycle_ratio", "bank_conflict_ratio", "msg_id",
    "sd_wt_count", "src_start_addr", "dst_start_addr", "stall_cycle", "gmem_xfer_bytes",
    "lmem_xfer_bytes", "gmem_bandwidth", "lmem_bandwidth", "gmem_xact_cnt", "lmem_xact_cnt",
]


def build_stub(chip: str, work: Path) -> Path:
    c = STUB_CONSTANTS[chip]
    d = work / "stub"
    d.mkdir(parents=True, exist_ok=True)
    src = d / "cmodel_stub.c"
    src.write_text(STUB_C)
    defs = [f"-D{k}={c[k]}" for k in ("NPU", "BANKS", "LMEM", "EU", "ICP")]
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", *defs, "-o", str(d / c["lib"]), str(src)],
                   check=True)
    return d


def vendor_env(vendor: Path, stub: Path) -> dict:
    py = vendor / "python"
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    env["LD_LIBRARY_PATH"] = str(stub)
    env["TPUC_ROOT"] = str(vendor)
    env["PYTHONPATH"] = ":".join(str(p) for p in (py, py / "tools", py / "profile_helper",
                                                   py / "debugger"))
    return env


def read_reginfo(path: Path, marker: str):
    """Records of a tiuRegInfo_N.txt / tdmaRegInfo_N.txt file, as dicts of the printed strings."""
    recs, cur = [], None
    for line in path.read_text().splitlines():
        if line == marker:
            cur = {}
            recs.append(cur)
        elif line.startswith("\t") and cur is not None:
            k, _, v = line[1:].partition(": ")
            cur.setdefault(k, v)
    return recs


def read_web_rows(js: Path):
    """window.time_data<core> rows of PerfAI_web's profile_data.js (Python-literal arrays)."""
    text = js.read_text()
    out = {}
    pos = 0
    while True:
        i = text.find("window.time_data", pos)
        if i < 0:
            break
        core = int(text[i + len("window.time_data"):text.index(" ", i)])
        j = text.index("[", i)
        depth = 0
        for k in range(j, len(text)):
            if text[k] == "[":
                depth += 1
            elif text[k] == "]":
                depth -= 1
                if depth == 0:
                    break
        out[core] = ast.literal_eval(text[j:k + 1])
        pos = k
    return out


def inprocess_raw(chip: str, vendor: Path, stub: Path, dump: Path, txt2: Path):
    """Run the vendor parser in-process, tagging every PMU record with its block position and raw
    fields before to_txt() rebases it. Returns {(engine, core): [(pmu_index, raw_id, raw_start,
    raw_end), ...]} in to_txt's order; to_txt writes txt2 (compared with the CLI's output)."""
    py = vendor / "python"
    sys.path[:0] = [str(py), str(py / "tools"), str(py / "profile_helper"), str(py / "debugger")]
    os.environ["LD_LIBRARY_PATH"] = str(stub)
    import bmprofile_perfAI as P  # vendor module

    def tag(fn):
        def wrapped(raw, archlib):
            items = fn(raw, archlib)
            for i, it in enumerate(items):
                it.add_kv("x_pmu_index", i)
                it.add_kv("x_raw", (it.inst_id, it.inst_start_time, it.inst_end_time))
            return items
        return wrapped

    P.parse_monitor_bd = tag(P.parse_monitor_bd)
    P.parse_monitor_gdma = tag(P.parse_monitor_gdma)
    cls = P.BMProfileParserPerfAI_CV184X if chip == "cv184x" else P.BMProfileParserPerfAI
    p = cls()
    p.parse(str(dump))
    p.to_txt(str(txt2))
    out = {}
    for core, lst in enumerate(p.bd_monitor):
        out[("TIU", core)] = [(it.x_pmu_index, *it.x_raw) for it in lst]
    for core, lst in enumerate(p.gdma_monitor):
        out[("GDMA", core)] = [(it.x_pmu_index, *it.x_raw) for it in lst]
    return out


def cmd_expected(a) -> int:
    chip = a.chip
    work = a.work.resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    stub = build_stub(chip, work)
    env = vendor_env(a.vendor, stub)
    py = a.vendor / "python"
    txt = work / "txt"
    # 1. the vendor CLI, exactly as documented (--debug: skip the web/doc generation, which
    #    tpu_profile.py runs through `python` on PATH; done explicitly in step 3)
    subprocess.run([a.python, str(py / "tools" / "tpu_profile.py"), "--arch", chip, "--mode",
                    "time", "--debug", str(a.dump), str(txt)], env=env, check=True)
    # 2. the same parser in-process, for the raw PMU fields; its output must equal the CLI's
    raw = json.loads(subprocess.run(
        [a.python, __file__, "_raw", "--chip", chip, "--vendor", str(a.vendor), "--stub",
         str(stub), "--dump", str(a.dump), "--txt", str(work / "txt2")],
        env=env, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
    for f in sorted(txt.glob("*.txt")):
        if f.read_bytes() != (work / "txt2" / f.name).read_bytes():
            print(f"in-process run differs from the CLI run: {f.name}", file=sys.stderr)
            return 1
    # 3. PerfAI_web on the CLI's output: layer id/name per event
    web = {}
    if not a.no_web:
        subprocess.run([a.python, str(py / "PerfAI" / "PerfAI_web" / "run_web.py"), str(txt),
                        "--layerinfo_dir", str(a.dump), "--name", "PerfAI_web"], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        web = read_web_rows(txt / "PerfWeb" / "profile_data.js")

    events, regs = [], []
    counts = {}
    for eng, marker, pat in (("TIU", "__TIU_REG_INFO__", "tiuRegInfo_*.txt"),
                             ("GDMA", "__TDMA_REG_INFO__", "tdmaRegInfo_*.txt")):
        for f in sorted(txt.glob(pat)):
            core = int(f.stem.rsplit("_", 1)[1])
            recs = read_reginfo(f, marker)
            rawl = raw[f"{eng}/{core}"]
            assert len(rawl) == len(recs), (f, len(rawl), len(recs))
            counts[(eng, core)] = len(recs)
            wrows = {}
            for r in web.get(core, []):
                if r[0] == (0 if eng == "TIU" else 1):
                    wrows[int(r[13])] = r
            for r, (pidx, pid, rs, re_) in zip(recs, rawl):
                g = int(r["Global Idx"])
                w = wrows.get(g)
                if w is not None:  # the web row must be this record
                    assert int(w[7]) == int(r["Cmd Id"]), (eng, g)
                is_t = eng == "TIU"
                events.append({
                    "engine": eng, "core": core, "global_idx": g, "pmu_index": pidx,
                    "pmu_id": pid, "cmd_id": r["Cmd Id"], "raw_start": rs, "raw_end": re_,
                    "start_cycle": r["Start Cycle"], "end_cycle": r["End Cycle"],
                    "function_type": r["Function Type"], "function_name": r["Function Name"],
                    "direction": "" if is_t else r["Direction"],
                    "data_type": "" if is_t else r["Data Type"],
                    "bytes": "" if is_t else r["DMA data size(B)"],
                    "ddr_bandwidth": "" if is_t else r["DDR Bandwidth(GB/s)"],
                    "alg_ops": r["Alg Ops"] if is_t else "",
                    "uarch_ops": r["uArch Ops"] if is_t else "",
                    "uarch_rate": r["uArch Rate"] if is_t else "",
                    "layer_id": "" if w is None else w[9],
                    "layer_name": "" if w is None else w[10],
                })
                regs.append({
                    "engine": eng, "core": core, "global_idx": g, "cmd_id": r["Cmd Id"],
                    "function_type": r["Function Type"], "function_name": r["Function Name"],
                    "cmd_id_dep": r["des_cmd_id_dep"] if is_t else r["cmd_id_dep"],
                    "asic_cycle": r["Asic Cycle"],
                    "alg_cycle": r.get("Alg Cycle", "") if is_t else "",
                    "initial_cycle_ratio": r.get("Initial Cycle Ratio", "") if is_t else "",
                    "bank_conflict_ratio": r.get("Bank Conflict Ratio", "") if is_t else "",
                    "msg_id": r["Msg Id"] if is_t else "",
                    "sd_wt_count": r["Sd\\Wt Count"] if is_t else "",
                    "src_start_addr": "" if is_t else r.get("src_start_addr", ""),
                    "dst_start_addr": "" if is_t else r.get("dst_start_addr", ""),
                    "stall_cycle": "" if is_t else r["Stall Cycle"],
                    "gmem_xfer_bytes": "" if is_t else r["gmem_xfer_bytes(B)"],
                    "lmem_xfer_bytes": "" if is_t else r["lmem_xfer_bytes"],
                    "gmem_bandwidth": "" if is_t else r["gmem_bandwidth"],
                    "lmem_bandwidth": "" if is_t else r["lmem_bandwidth"],
                    "gmem_xact_cnt": "" if is_t else r["gmem_xact_cnt"],
                    "lmem_xact_cnt": "" if is_t else r["lmem_xact_cnt"],
                })
    c = STUB_CONSTANTS[chip]
    tiu = sum(v for (e, _), v in counts.items() if e == "TIU")
    gdma = sum(v for (e, _), v in counts.items() if e == "GDMA")
    head = (
        f"# Vendor reference: tpu-mlir tpu_profile.py --arch {chip} --mode time (fork jonathansong/tpu-mlir @ 8f9f82e1,\n"
        f"# profile_helper/bmprofile_perfAI.py + {chip}_defs.py, debugger/target_{'1688' if chip == 'bm1688' else 'cv184x'}) on "
        f"../shared/samples/{chip}/bmprofile_data-1; {tiu} TIU + {gdma} GDMA records.\n"
        f"# Stub {c['lib']}: NPU {c['NPU']}, banks {c['BANKS']}, {c['LMEM']} B LMEM/lane, eu_num(1) {c['EU']}, ic_parallel(1) {c['ICP']}\n"
        f"# ({c['header']}). Made by tools/vendor_check/bm1688_cv184x_vs_tpu_profile.py; see tests/data/README.md.\n")
    ev_head = head + (
        "# Columns as printed in tiuRegInfo_N.txt/tdmaRegInfo_N.txt except pmu_index (position in the MONITOR block),\n"
        "# pmu_id/raw_start/raw_end (the record's fields as read, before the vendor's unwrap and rebasing) and\n"
        "# layer_id/layer_name (PerfAI_web's profile_data.js on the same output).\n")
    reg_head = head + "# Register-level columns as printed in the same files (TIU des_cmd_id_dep, GDMA cmd_id_dep, addresses in decimal).\n"
    a.out.mkdir(parents=True, exist_ok=True)
    for name, cols, rows, hd in ((f"{chip}_vendor_events.csv", EVENT_COLS, events, ev_head),
                                 (f"{chip}_vendor_regs.csv", REG_COLS, regs, reg_head)):
        with (a.out / name).open("w", newline="") as f:
            f.write(hd)
            w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    print(f"{chip}: {tiu} TIU + {gdma} GDMA records; per core {dict((f'{e}{k}', v) for (e, k), v in counts.items())}")
    return 0


def cmd_raw(a) -> int:
    raw = inprocess_raw(a.chip, a.vendor, a.stub, a.dump, a.txt)
    print(json.dumps({f"{e}/{c}": v for (e, c), v in raw.items()}))
    return 0


def cmd_compare(a) -> int:
    exp = [r for r in csv.DictReader(l for l in a.expected.open() if not l.startswith("#"))]
    ours = [r for r in csv.DictReader(a.ours.open()) if r["engine"] in ("TIU", "GDMA")]
    errors = []
    for eng in ("TIU", "GDMA"):
        v = [r for r in exp if r["engine"] == eng]
        o = [r for r in ours if r["engine"] == eng]
        if len(v) != len(o):
            errors.append(f"{eng}: vendor {len(v)} records, ours {len(o)}")
        for i, (x, y) in enumerate(zip(v, o)):
            # the vendor prints Cmd Id = PMU id + 1; tpuprof's BM1684X decoder prints the PMU id
            vid = int(x["cmd_id"]) - (1 if a.cmd_id == "pmu" else 0)
            want = (int(x["core"]), vid, int(x["start_cycle"]), int(x["end_cycle"]))
            got = (int(y["core"]), int(y["cmd_id"]), int(y["start_cycle"]), int(y["end_cycle"]))
            if eng == "TIU" or a.gdma_names:
                want += (x["function_name"],)
                got += (y["op"],)
            if eng == "GDMA":
                want += (int(x["bytes"]),)
                got += (int(y["bytes"]) if y["bytes"] else None,)
            if want != got:
                errors.append(f"{eng} #{i}: vendor {want}, ours {got}")
    for e in errors[: a.max_report]:
        print("  " + e)
    print(f"{len(errors)} mismatches" if errors else "OK: every vendor record equals ours")
    return 1 if errors else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("expected")
    e.add_argument("--chip", choices=sorted(STUB_CONSTANTS), required=True)
    e.add_argument("--vendor", type=Path, required=True, help="tpu-mlir checkout (contains python/)")
    e.add_argument("--dump", type=Path, required=True)
    e.add_argument("--work", type=Path, required=True, help="scratch directory (emptied)")
    e.add_argument("--out", type=Path, required=True, help="where the two CSVs go")
    e.add_argument("--python", default="/usr/bin/python3")
    e.add_argument("--no-web", action="store_true", help="skip PerfAI_web (no layer columns)")
    r = sub.add_parser("_raw")
    for k in ("vendor", "stub", "dump", "txt"):
        r.add_argument(f"--{k}", type=Path, required=True)
    r.add_argument("--chip", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--expected", type=Path, required=True)
    c.add_argument("--ours", type=Path, required=True)
    c.add_argument("--max-report", type=int, default=10)
    c.add_argument("--cmd-id", choices=("vendor", "pmu"), default="pmu",
                   help="ours prints the vendor's Cmd Id, or the PMU id (= Cmd Id - 1; default)")
    c.add_argument("--gdma-names", action="store_true",
                   help="also compare GDMA op names (the vendor prints tensorLd/tensorSt/...)")
    a = ap.parse_args()
    return {"expected": cmd_expected, "_raw": cmd_raw, "compare": cmd_compare}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())

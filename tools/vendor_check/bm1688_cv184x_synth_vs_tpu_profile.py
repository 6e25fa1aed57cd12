#!/usr/bin/env python3
"""Vendor acceptance of generated BM1688 / CV184X dumps: `tpuprof synth` writes a dump, tpu-mlir's
tpu_profile.py (`--arch bm1688|cv184x --mode time`) decodes it, and every vendor record must equal
tpuprof's event of the same position (which tests/synth/indexed_synth_test.cpp shows to be the
generator's intended event).

NOT run in CI: it needs the vendor's python tree (tpu-mlir). Environment, stub library and the
vendor run itself: bm1688_cv184x_vs_tpu_profile.py (`expected --no-web`; the synthetic dumps have
no tensor_location.json, so no layer columns) and tests/data/README.md.

Per case (chip, cores, records, seed, wrap), in WORK/<chip>_c<cores>_r<records>_s<seed>[_wrap]/:
  1. tpuprof synth --chip C --cores N --records R --seed S [--cycle-wrap] -o dump
  2. tpuprof convert dump --csv --json -o ours
  3. the vendor (tpu_profile.py CLI + the same parser in-process) -> vendor/<chip>_vendor_events.csv
  4. compare, per engine in order: count, core, PMU id (= vendor Cmd Id - 1), start/end cycle,
     TIU op name, GDMA bytes (bm1688_cv184x_vs_tpu_profile.py compare), and here also GDMA
     direction (ours from trace.json) and TIU uArch rate (vendor: percent with one decimal).

    python3 tools/vendor_check/bm1688_cv184x_synth_vs_tpu_profile.py --tpuprof build/h/examples/tpuprof \\
        --vendor /tmp/tpumlir --work /tmp/vc_synth
"""

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = [  # chip, cores, records, seed, cycle wrap
    ("bm1688", 1, 400, 11, False),
    ("bm1688", 2, 400, 12, False),
    ("bm1688", 2, 4000, 13, False),
    ("cv184x", 1, 400, 14, False),
    ("cv184x", 1, 4000, 15, False),
    ("bm1688", 1, 400, 16, True),
    ("bm1688", 2, 400, 17, True),
]
DIRS = {"S2L": "DDR->LMEM", "L2S": "LMEM->DDR", "S2S": "DDR->DDR", "L2L": "LMEM->LMEM"}


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def extra_checks(vendor_csv: Path, ours_dir: Path):
    """GDMA direction and TIU uArch rate, record by record."""
    exp = [r for r in csv.DictReader(l for l in vendor_csv.open() if not l.startswith("#"))]
    ours = [r for r in csv.DictReader((ours_dir / "events.csv").open())]
    trace = json.loads((ours_dir / "trace.json").read_text())
    jd = [e["args"] for e in trace["traceEvents"]
          if e.get("ph") == "X" and "bytes" in e.get("args", {})]
    errors = []
    og = [r for r in ours if r["engine"] == "GDMA"]
    vg = [r for r in exp if r["engine"] == "GDMA"]
    if len(jd) != len(og):
        errors.append(f"trace.json has {len(jd)} GDMA events, events.csv {len(og)}")
    for i, (v, o, j) in enumerate(zip(vg, og, jd)):
        if (int(o["cmd_id"]), int(o["bytes"])) != (j["cmd_id"], j["bytes"]):
            errors.append(f"GDMA #{i}: trace.json row is not the CSV row")
        if DIRS.get(j.get("direction"), "") != v["direction"]:
            errors.append(f"GDMA #{i}: vendor {v['direction']}, ours {j.get('direction')}")
    ot = [r for r in ours if r["engine"] == "TIU"]
    vt = [r for r in exp if r["engine"] == "TIU"]
    for i, (v, o) in enumerate(zip(vt, ot)):
        want = float(v["uarch_rate"].rstrip("%"))
        got = float(o["uarch_rate"]) * 100 if o["uarch_rate"] else float("nan")
        if not abs(want - got) <= 0.05 + 1e-6:
            errors.append(f"TIU #{i} {o['op']}: vendor uArch rate {v['uarch_rate']}, ours {got}")
    return errors, len(vt), len(vg)


def wrap_check(vendor_csv: Path, ours_csv: Path):
    """Count, ids, ops and bytes equal; cycles equal, or the vendor's 2^32 lower (+-2: its two
    truncations, ns then cycles, of a value 2^32 smaller)."""
    exp = [r for r in csv.DictReader(l for l in vendor_csv.open() if not l.startswith("#"))]
    ours = [r for r in csv.DictReader(ours_csv.open()) if r["engine"] in ("TIU", "GDMA")]
    errors, wrapped = [], 0
    for eng in ("TIU", "GDMA"):
        v = [r for r in exp if r["engine"] == eng]
        o = [r for r in ours if r["engine"] == eng]
        if len(v) != len(o):
            errors.append(f"{eng}: vendor {len(v)} records, ours {len(o)}")
        for i, (x, y) in enumerate(zip(v, o)):
            same = (int(x["core"]), int(x["cmd_id"]) - 1, x["function_name"] if eng == "TIU" else
                    int(x["bytes"])) == (int(y["core"]), int(y["cmd_id"]), y["op"] if eng == "TIU"
                                         else int(y["bytes"]))
            ds = int(y["start_cycle"]) - int(x["start_cycle"])
            de = int(y["end_cycle"]) - int(x["end_cycle"])
            if ds or de:
                wrapped += 1
            if not same or not all(d == 0 or abs(d - 2**32) <= 2 for d in (ds, de)):
                errors.append(f"{eng} #{i}: vendor {dict(x)}, ours {dict(y)}")
    return not errors, wrapped, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tpuprof", type=Path, required=True, help="the CLI binary")
    ap.add_argument("--vendor", type=Path, required=True, help="tpu-mlir tree (contains python/)")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    a = ap.parse_args()
    failed = 0
    for chip, cores, records, seed, wrap in CASES:
        name = f"{chip}_c{cores}_r{records}_s{seed}" + ("_wrap" if wrap else "")
        d = a.work / name
        run(["rm", "-rf", d])
        run([a.tpuprof, "synth", "--chip", chip, "--cores", cores, "--records", records, "--seed",
             seed, *(["--cycle-wrap"] if wrap else []), "-o", d / "dump"],
            stdout=subprocess.DEVNULL)
        run([a.tpuprof, "convert", d / "dump", "--csv", "--json", "-o", d / "ours"],
            stdout=subprocess.DEVNULL)
        v = subprocess.run([a.python, HERE / "bm1688_cv184x_vs_tpu_profile.py", "expected",
                            "--chip", chip, "--vendor", a.vendor, "--dump", d / "dump", "--work",
                            d / "vendor_work", "--out", d / "vendor", "--no-web"],
                           capture_output=True, text=True)
        if v.returncode != 0:
            failed += 1
            print(f"{name}: the vendor failed:\n{v.stderr.strip().splitlines()[-1]}")
            continue
        vcsv = d / "vendor" / f"{chip}_vendor_events.csv"
        errors, tiu, gdma = extra_checks(vcsv, d / "ours")
        if wrap:  # the vendor does not unwrap: records after the wrap are 2^32 cycles short
            c_ok, wrapped, werr = wrap_check(vcsv, d / "ours" / "events.csv")
            errors += werr
            ok = c_ok and not errors
            msg = (f"OK: every record equal except the {wrapped} records after the counter wrap, "
                   "which the vendor puts 2^32 cycles (+-2) too early (no unwrap)")
        else:
            c = subprocess.run([a.python, HERE / "bm1688_cv184x_vs_tpu_profile.py", "compare",
                                "--expected", vcsv, "--ours", d / "ours" / "events.csv"],
                               capture_output=True, text=True)
            ok = c.returncode == 0 and not errors
            msg = "OK: every record equal (cycles, ids, ops, bytes, directions, uArch rates)"
            if c.returncode:
                print(c.stdout.rstrip())
        failed += not ok
        print(f"{name}: vendor {tiu} TIU + {gdma} GDMA; " + (msg if ok else "MISMATCH"))
        for e in errors[:10]:
            print("  " + e)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

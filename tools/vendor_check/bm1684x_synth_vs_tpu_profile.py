#!/usr/bin/env python3
"""Compare tpu-mlir's tpu_profile.py output on a generated BM1684X dump with tpuprof's events.

NOT run in CI: it needs the vendor's python tree (tpu-mlir), which CI does not have.
See docs/testing.md, "Vendor acceptance of generated dumps", for the exact commands.

Inputs
  --layer DIR   (optional) output of `tpu_profile.py --arch bm1684x --format layer DUMP DIR` (instruction.csv)
  --html DIR    output of `tpu_profile.py --arch bm1684x --format html DUMP DIR` (profile_data.js)
  --ours CSV    events.csv of `tpuprof convert --csv -o OUT DUMP`
  --dump DIR    the dump (only for tpu_freq in global.profile)

Checks, every one exact unless said otherwise:
  * profile_data.js, all TIU and GDMA PMU records (static commands and firmware GDMA records):
    counts per engine, and per record in time order: start and end cycle (µs × MHz, rounded),
    id (`bd_id=` / `gdma_id=`), GDMA bytes, TIU uarch_rate (the vendor's full-precision
    alg/arch; ours is a float32, so within 2^-23 relative);
  * instruction.csv (the records paired with a static command): counts per engine, and per
    record (matched on engine and unwrapped id): StartCycle, EndCycle, op name, GDMA bytes
    (`DMA data size(B)`), uArch rate (vendor prints a percentage with 3 decimals; ours, a
    float32, must be within 0.0005 % plus float32 rounding of it).
Exit status 0 when everything matches, 1 otherwise (the first mismatches are printed).
"""

import argparse
import ast
import csv
import math
import re
import sys
from collections import Counter
from pathlib import Path


def read_freq(dump: Path) -> float:
    text = (dump / "global.profile").read_text(errors="replace")
    m = re.search(r"tpu_freq=(\d+)", text)
    return float(m.group(1)) if m else 1000.0


def read_profile_js(path: Path):
    """time_data rows of profile_data.js (a JS array literal of Python-compatible literals)."""
    text = path.read_text()
    start = text.index("let time_data=")
    body = text[text.index("[", start):]
    depth, end = 0, 0
    in_str = False
    for i, ch in enumerate(body):
        if in_str:
            if ch == "\\":
                continue
            if ch == '"' and body[i - 1] != "\\":
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                end = i + 1
                break
    return ast.literal_eval(body[:end])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--layer", type=Path, help="omit for dumps too large for --format layer")
    ap.add_argument("--html", type=Path, required=True)
    ap.add_argument("--ours", type=Path, required=True)
    ap.add_argument("--dump", type=Path, required=True)
    ap.add_argument("--max-report", type=int, default=10)
    a = ap.parse_args()

    freq = read_freq(a.dump)
    ours = list(csv.DictReader(a.ours.open()))
    ours_hw = [r for r in ours if r["engine"] in ("TIU", "GDMA")]
    errors = []

    def err(msg):
        errors.append(msg)

    # ---- profile_data.js: every PMU record, firmware ones included ----
    rows = read_profile_js(a.html / "profile_data.js")
    vend_js = {"TIU": [], "GDMA": []}
    for r in rows:
        if r[0] not in (0, 1):  # 0 = TPU_BD, 1 = TPU_GDMA
            continue
        eng = "TIU" if r[0] == 0 else "GDMA"
        b = round(r[1] * freq)
        e = round(r[2] * freq)
        m = re.search(r"bytes=(\d+)", str(r[10]))
        rate = re.search(r"uarch_rate=([0-9.eE+-]+)", str(r[10]))
        vend_js[eng].append((b, e, int(m.group(1)) if m else None, int(r[3].split("=")[1]),
                             float(rate.group(1)) if rate else None))
    stats = {}
    for eng in ("TIU", "GDMA"):
        v = sorted(vend_js[eng])
        o = sorted((int(r["start_cycle"]), int(r["end_cycle"]),
                    int(r["bytes"]) if r["bytes"] else None, int(r["cmd_id"]),
                    float(r["uarch_rate"]) if r["uarch_rate"] else math.nan)
                   for r in ours_hw if r["engine"] == eng)
        stats[f"js_{eng}"] = (len(v), len(o))
        if len(v) != len(o):
            err(f"profile_data.js {eng}: vendor {len(v)} records, ours {len(o)}")
        rates = 0
        for i, (x, y) in enumerate(zip(v, o)):
            if x[:2] != y[:2] or x[3] != y[3] or (eng == "GDMA" and x[2] != y[2]):
                err(f"profile_data.js {eng} #{i}: vendor (start, end, bytes, id) {x[:4]}, "
                    f"ours {y[:4]}")
            if eng == "TIU" and x[4] is not None:
                # the vendor prints alg/arch ops as a double, ours is a float32
                if math.isnan(y[4]) or abs(x[4] - y[4]) > abs(x[4]) * 2.0**-23:
                    err(f"profile_data.js TIU #{i}: uarch_rate vendor {x[4]!r}, ours {y[4]!r}")
                else:
                    rates += 1
        if eng == "TIU":
            stats["js_uarch_rates_checked"] = rates

    # ---- instruction.csv: records paired with a static command ----
    inst = list(csv.DictReader((a.layer / "instruction.csv").open())) if a.layer else []
    vend = {}
    for r in inst:
        eng, _, num = r["Inst ID"].partition("-")
        vend.setdefault((eng, int(num)), []).append(r)
    static = [r for r in ours_hw if not (r["engine"] == "GDMA" and r["op"] == "unknown")]
    cnt_v = Counter(k[0] for k, lst in vend.items() for _ in lst)
    cnt_o = Counter(r["engine"] for r in static)
    stats["instruction.csv"] = (dict(cnt_v), dict(cnt_o))
    if a.layer and cnt_v != cnt_o:
        err(f"instruction.csv counts: vendor {dict(cnt_v)}, ours {dict(cnt_o)}")
    rate_checked = 0
    for r in static if a.layer else []:
        key = (r["engine"], int(r["cmd_id"]))
        lst = vend.get(key)
        if not lst:
            err(f"instruction.csv: no vendor row for {key}")
            continue
        v = lst.pop(0)
        where = f"instruction.csv {key[0]}-{key[1]}"
        if int(v["StartCycle"]) != int(r["start_cycle"]) or int(v["EndCycle"]) != int(r["end_cycle"]):
            err(f"{where}: cycles vendor {v['StartCycle']}..{v['EndCycle']}, "
                f"ours {r['start_cycle']}..{r['end_cycle']}")
        if v["Inst Function"] != r["op"]:
            err(f"{where}: op vendor {v['Inst Function']}, ours {r['op']}")
        if key[0] == "GDMA" and int(v["DMA data size(B)"]) != int(r["bytes"] or -1):
            err(f"{where}: bytes vendor {v['DMA data size(B)']}, ours {r['bytes']}")
        if key[0] == "TIU":
            vr = v["uArch Rate"]
            ours_rate = float(r["uarch_rate"]) if r["uarch_rate"] not in ("", "nan") else math.nan
            if vr in ("", "-"):
                if not math.isnan(ours_rate):
                    err(f"{where}: uArch rate vendor none, ours {ours_rate}")
            else:
                vp = float(vr.rstrip("%"))
                # ours is a float32: allow its rounding (2^-23 relative) on top of the
                # vendor's 3-decimal rounding
                tol = 0.0005 + abs(ours_rate * 100) * 2.0**-23
                if math.isnan(ours_rate) or abs(ours_rate * 100 - vp) > tol:
                    err(f"{where}: uArch rate vendor {vr}, ours {ours_rate * 100:.5f}%")
                else:
                    rate_checked += 1
    stats["uarch_rates_checked"] = rate_checked

    for k, v in stats.items():
        print(f"{k}: {v}")
    if errors:
        print(f"{len(errors)} mismatches; first {min(len(errors), a.max_report)}:")
        for e in errors[: a.max_report]:
            print("  " + e)
        return 1
    print("OK: every vendor record equals ours")
    return 0


if __name__ == "__main__":
    sys.exit(main())

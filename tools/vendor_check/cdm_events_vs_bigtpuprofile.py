#!/usr/bin/env python3
"""Compare bigTpuProfile's events with tpuprof's events.csv for an AKS/AKSV dump.

NOT run in CI (needs bigTpuProfile, which is not installable; see docs/testing.md,
"Vendor acceptance of generated dumps").

Inputs
  VENDOR_JSON  bigTpuProfile's events in the layout of shared/samples/synthetic/*/expected.json:
               {"lists": [{"engine": "tiu"|"gdma"|"sdma"|"cdma", "id": core or CDMA port,
               "events": [[start_cycle, end_cycle, cmd_id, op_type, op_name, direction,
               size_bytes, kernel_function, ...], ...]}, ...]}
  OURS_CSV     events.csv of `tpuprof convert --csv -o OUT DUMP`

Per engine instance (TIU/GDMA/SDMA per core, CDMA per port), in order, exactly: count, start and
end cycle, command id, op name, DMA bytes, kernel function. Exit 0 when all equal.

--tiu-op-pairs (mode-2 dumps with DYN_DATA before DYN_EXTRA, where the vendor never sees the
detailed commands and prints condensed TIU names): TIU op names are not compared one by one;
instead each of our TIU names must always meet the same vendor name and vice versa. The pairs
are printed.
"""

import csv
import json
import sys
from collections import defaultdict


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--tiu-op-pairs"]
    pairs_mode = len(args) != len(sys.argv) - 1
    if len(args) != 2:
        print(__doc__)
        return 2
    vendor = json.load(open(args[0]))["lists"]
    ours = defaultdict(list)
    pairs, back = defaultdict(set), defaultdict(set)
    for r in csv.DictReader(open(args[1])):
        eng = r["engine"].lower()
        unit = int(r["port"]) if eng == "cdma" else int(r["core"])
        ours[(eng, unit)].append(r)
    errors, total = [], 0
    seen = set()
    for lst in vendor:
        key = (lst["engine"], lst["id"])
        seen.add(key)
        v, o = lst["events"], ours.get(key, [])
        total += len(v)
        if len(v) != len(o):
            errors.append(f"{key}: vendor {len(v)} events, ours {len(o)}")
        for i, (a, b) in enumerate(zip(v, o)):
            mine = [int(b["start_cycle"]), int(b["end_cycle"]), int(b["cmd_id"]), b["op"],
                    int(b["bytes"]) if b["bytes"] else None, b["function"] or None]
            theirs = [a[0], a[1], a[2], a[4], a[6], a[7]]
            if pairs_mode and key[0] == "tiu":
                pairs[mine[3]].add(theirs[3])
                back[theirs[3]].add(mine[3])
                mine[3] = theirs[3]
            if mine != theirs:
                errors.append(f"{key} #{i}: vendor {theirs}, ours {mine}")
    for key, rows in ours.items():
        if key not in seen and rows:
            errors.append(f"{key}: ours {len(rows)} events, vendor none")
    for ours_name, theirs_names in sorted(pairs.items()):
        print(f"  TIU op: ours {ours_name} <-> vendor {sorted(theirs_names)}")
        if len(theirs_names) != 1 or len(back[next(iter(theirs_names))]) != 1:
            errors.append(f"TIU op {ours_name}: not one-to-one with the vendor's names")
    print(f"engine instances: {len(vendor)}, vendor events: {total}, "
          f"ours: {sum(len(r) for r in ours.values())}")
    if errors:
        print(f"{len(errors)} mismatches; first 10:")
        for e in errors[:10]:
            print("  " + e)
        return 1
    print("OK: every vendor event equals ours" + (" (TIU op names as pairs)" if pairs_mode else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

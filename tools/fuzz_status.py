#!/usr/bin/env python3
"""Progress of tools/fuzz.sh runs (a campaign still running or finished): per target the runs
done (libFuzzer's last `#N` line, or its final stats), the last exec/s, the corpus size, and
the crash/timeout/oom/leak artifacts and sanitizer errors found.
Usage: tools/fuzz_status.py [OUT_DIR]   (OUT_DIR as given to fuzz.sh --out; default build/fuzz)
Exit 1 when any target found something."""
import os
import re
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "build/fuzz"
progress = re.compile(r"^#(\d+)\s.*?exec/s: (\d+)")
found_any = False
print(f"{'target':<18} {'runs':>11} {'exec/s':>7} {'corpus':>7} {'state':<9} findings")
for log in sorted(f for f in os.listdir(out) if f.startswith("fuzz_") and f.endswith(".log")):
    name = log[:-4]
    runs, rate, final, errors = 0, 0, None, []
    with open(os.path.join(out, log), errors="replace") as f:
        for line in f:
            m = progress.match(line)
            if m:
                runs, rate = int(m.group(1)), int(m.group(2))
            elif line.startswith("stat::number_of_executed_units:"):
                final = int(line.split(":")[-1])
            elif line.startswith("stat::average_exec_per_sec:"):
                rate = int(line.split(":")[-1])
            elif "ERROR:" in line or line.startswith("SUMMARY:") or "==ERROR" in line:
                errors.append(line.strip()[:100])
    art_dir = os.path.join(out, "artifacts", name)
    arts = sorted(os.listdir(art_dir)) if os.path.isdir(art_dir) else []
    corpus_dir = os.path.join(out, "corpus", name)
    corpus = len(os.listdir(corpus_dir)) if os.path.isdir(corpus_dir) else 0
    findings = arts + errors[:2]
    found_any |= bool(findings)
    state = "done" if final is not None else "running?"  # or killed: no final stats yet
    print(f"{name:<18} {final if final is not None else runs:>11} {rate:>7} {corpus:>7} {state:<9} "
          f"{', '.join(findings) if findings else '0 crashes, hangs, OOMs'}")
sys.exit(1 if found_any else 0)

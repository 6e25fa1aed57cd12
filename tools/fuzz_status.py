#!/usr/bin/env python3
"""Progress of tools/fuzz.sh runs (a campaign running, stopped, killed or finished): per target
the runs done, summed over every log of the target (a campaign killed at the end of a session and
restarted keeps its earlier logs as OUT/<target>.log.1, .2, ...: see tools/fuzz.sh), the exec/s of
the latest log, the corpus size, the state and the findings.

Findings are sanitizer errors and crash/leak/oom artifacts. A slow-unit or timeout artifact is
re-run once alone with a generous time limit (--rerun-timeout, default 300 s) by the target's
binary (--bin, else the directory fuzz.sh recorded in OUT/bin_dir); one that now passes in time
was a unit that only waited for the CPU (a niced campaign behind other work, or paused by
SIGSTOP) and is listed as cleared, not as a finding. Re-run results are kept in
OUT/artifacts/<target>/.rerun/ so each artifact runs once.

Usage: tools/fuzz_status.py [OUT_DIR] [--bin DIR] [--rerun-timeout S]
       tools/fuzz_status.py --runs-done OUT_DIR TARGET   (prints the summed runs; for fuzz.sh)
       tools/fuzz_status.py --running OUT_DIR TARGET     (exit 0 when a fuzzer of it runs; fuzz.sh)
OUT_DIR as given to fuzz.sh --out (default build/fuzz). Exit 1 when any target found something."""
import argparse
import os
import re
import subprocess
import time

PROGRESS = re.compile(r"^#(\d+)\s.*?exec/s: (\d+)")
WRITTEN = re.compile(r"Test unit written to (\S+)")
RERUN_KINDS = ("slow-unit-", "timeout-")


def logs_of(out, name):
    """The target's logs, oldest first: <name>.log.1, .2, ..., then the current <name>.log."""
    rotated = []
    for f in os.listdir(out):
        m = re.fullmatch(re.escape(name) + r"\.log\.(\d+)", f)
        if m:
            rotated.append((int(m.group(1)), f))
    files = [f for _, f in sorted(rotated)]
    if os.path.exists(os.path.join(out, name + ".log")):
        files.append(name + ".log")
    return [os.path.join(out, f) for f in files]


def parse_log(path):
    """(runs, exec/s, finished, {artifact: [error lines]}, [errors with no artifact]). Errors and
    the artifact libFuzzer wrote for them are in one block between progress lines, in either
    order (a crash's report comes before its artifact, a timeout's after)."""
    runs, rate, final = 0, 0, None
    by_artifact, loose, errors, arts = {}, [], [], []

    def flush():
        if arts:
            for a in arts:
                by_artifact.setdefault(a, []).extend(errors)
        else:
            loose.extend(errors)
        errors.clear()
        arts.clear()

    with open(path, errors="replace") as f:
        for line in f:
            m = PROGRESS.match(line)
            if m:
                flush()
                runs, rate = int(m.group(1)), int(m.group(2))
            elif line.startswith("stat::number_of_executed_units:"):
                final = int(line.split(":")[-1])
            elif line.startswith("stat::average_exec_per_sec:"):
                rate = int(line.split(":")[-1])
            elif "ERROR:" in line or line.startswith("SUMMARY:"):
                errors.append(line.strip()[:100])
            else:
                w = WRITTEN.search(line)
                if w:
                    arts.append(os.path.basename(w.group(1)))
    flush()
    return (final if final is not None else runs), rate, final is not None, by_artifact, loose


def runs_done(out, name):
    return sum(parse_log(p)[0] for p in logs_of(out, name))


def process_state(out, name):
    """'running' or 'stopped' (SIGSTOP) when a fuzzer process of this target and OUT is alive."""
    corpus = os.path.realpath(os.path.join(out, "corpus", name))
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            if not argv or os.path.basename(argv[0]) != name:
                continue
            if not any(os.path.realpath(a) == corpus for a in argv[1:] if not a.startswith("-")):
                continue
            with open(f"/proc/{pid}/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()[0]
            return "stopped" if st == "T" else "running"
        except OSError:
            continue
    return None


def rerun(binary, art_path, cache, limit):
    """Runs one artifact alone once (cached): (passed, seconds)."""
    if os.path.exists(cache):
        with open(cache) as f:
            rc, secs = f.read().split()
            return int(rc) == 0, float(secs)
    if not binary or not os.access(binary, os.X_OK):
        return None, 0.0
    start = time.monotonic()
    try:
        rc = subprocess.run([binary, f"-timeout={limit}", "-rss_limit_mb=2048", art_path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=limit + 30).returncode
    except subprocess.TimeoutExpired:
        rc = 124
    secs = time.monotonic() - start
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, "w") as f:
        f.write(f"{rc} {secs:.2f}\n")
    return rc == 0, secs


def status(out, bin_dir, limit):
    found_any = False
    names = sorted({m.group(1) for m in (re.fullmatch(r"(fuzz_\w+)\.log(\.\d+)?", f)
                                         for f in os.listdir(out)) if m})
    print(f"{'target':<18} {'runs':>11} {'logs':>4} {'exec/s':>7} {'corpus':>7} {'state':<8} "
          "findings")
    for name in names:
        total, rate, finished, by_art, loose = 0, 0, False, {}, []
        for path in logs_of(out, name):
            runs, rate, finished, arts, pending = parse_log(path)
            total += runs
            for a, errs in arts.items():
                by_art.setdefault(a, []).extend(errs)
            loose += pending
        art_dir = os.path.join(out, "artifacts", name)
        arts = sorted(a for a in os.listdir(art_dir)
                      if not a.startswith(".")) if os.path.isdir(art_dir) else []
        binary = os.path.join(bin_dir, name) if bin_dir else None
        findings, cleared, longest = [], 0, 0.0
        for a in arts:
            if a.startswith(RERUN_KINDS):
                passed, secs = rerun(binary, os.path.join(art_dir, a),
                                     os.path.join(art_dir, ".rerun", a), limit)
                if passed:
                    cleared, longest = cleared + 1, max(longest, secs)
                    continue
                a += " (not re-run: no binary)" if passed is None else f" (fails re-run, {secs:.0f}s)"
            findings.append(a)
            findings += by_art.get(a.split()[0], [])[:2]
        for a, errs in by_art.items():  # errors whose artifact file is gone
            if a not in arts and errs:
                findings += errs[:2]
        findings += loose[:2]
        found_any |= bool(findings)
        corpus_dir = os.path.join(out, "corpus", name)
        corpus = len(os.listdir(corpus_dir)) if os.path.isdir(corpus_dir) else 0
        state = process_state(out, name) or ("done" if finished else "killed")
        text = ", ".join(findings) if findings else "0 crashes, hangs, OOMs"
        if cleared:
            text += (f" ({cleared} slow/timeout unit(s) re-ran alone in {longest:.1f} s at most: "
                     "not findings)")
        print(f"{name:<18} {total:>11} {len(logs_of(out, name)):>4} {rate:>7} {corpus:>7} "
              f"{state:<8} {text}")
    return found_any


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", default="build/fuzz")
    ap.add_argument("target", nargs="?")
    ap.add_argument("--bin", help="directory of the fuzz_* binaries (re-runs slow/timeout units)")
    ap.add_argument("--rerun-timeout", type=int, default=300)
    ap.add_argument("--runs-done", action="store_true", help="print OUT TARGET's summed runs")
    ap.add_argument("--running", action="store_true", help="exit 0 when OUT TARGET is running")
    a = ap.parse_args()
    if a.running:
        return 0 if process_state(a.out, a.target) else 1
    if a.runs_done:
        print(runs_done(a.out, a.target))
        return 0
    bin_dir = a.bin
    if not bin_dir and os.path.exists(os.path.join(a.out, "bin_dir")):
        with open(os.path.join(a.out, "bin_dir")) as f:
            bin_dir = f.read().strip()
    return 1 if status(a.out, bin_dir, a.rerun_timeout) else 0


if __name__ == "__main__":
    raise SystemExit(main())

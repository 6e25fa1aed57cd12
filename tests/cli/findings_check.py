#!/usr/bin/env python3
"""The findings of `tpuprof advise` in the other outputs (issue #16), read back.

  findings_check.py CLI DUMP OUT [--browser CHROMIUM]

Runs `advise --format json` and `convert --html --perfetto --json --advise
--critical-path` on DUMP into OUT and checks:
  * report.html's embedded "findings" list equals advise's findings (same
    rules, recoverable_ns, order, commands); each finding's timeline points
    are its commands;
  * trace.pftrace (decoded with protoc and the shared perfetto_subset.proto,
    and checked by perfetto_check.py when ../shared/tools has them): one track
    per finding under "Findings (tpuprof advise)", and advise.finding_id on
    the slice of each command, for the best-ranked finding it is evidence of;
  * trace.json (chrome_json_check.py): the same counts of advise.finding_id;
  * with --browser: the report in headless Chromium (tests/browser/check_report.mjs)
    lists the findings first and a click on F1 zooms the timeline onto it.
Prints one JSON line: {"findings": [[id, rule, severity], ...], "slices": {id: n},
"json_slices": {id: n}, "checked": [...]}; exit 1 on a mismatch.
"""
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED_TOOLS = os.path.join(os.path.dirname(ROOT), "shared", "tools")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def fail(msg):
    print("findings_check: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    cli, dump, out = argv[1], argv[2], argv[3]
    chromium = argv[argv.index("--browser") + 1] if "--browser" in argv else None
    checked = []
    browser = None
    advice = json.loads(run([cli, "advise", "-q", dump, "--format", "json"]).stdout)
    findings = advice["findings"]
    run([cli, "convert", "-q", dump, "-o", out, "--html", "--perfetto", "--json", "--advise",
         "--critical-path"])

    # report.html: the embedded list is advise's, and "at" points at the same commands.
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    m = re.search(r'<script id="tpuprof-meta" type="application/json">(.*?)</script>', html, re.S)
    meta = json.loads(m.group(1))
    page = meta["findings"]
    if page["list"] != findings:
        fail("report.html findings differ from advise --format json")
    if page["span_ns"] != advice["span_ns"]:
        fail("report.html span differs")
    for f, at in zip(page["list"], page["at"]):
        if len(at) != 2 * len(f["commands"]):
            fail(f"{f['id']}: {len(at) // 2} timeline points for {len(f['commands'])} commands")
        for k, c in enumerate(f["commands"]):
            lane = meta["lanes"][at[2 * k]]
            if (lane["eng"].lower(), lane["unit"]) != (c["engine"], c["core"]):
                fail(f"{f['id']}: command {k} points at lane {lane['eng']} {lane['unit']}")
    checked.append("html")

    # The slices that carry each finding: a command's best-ranked finding, plus its own slice.
    expect = collections.Counter()
    owner = {}
    for f in findings:
        expect[f["id"]] += 1
        for c in f["commands"]:
            owner.setdefault((c["engine"], c["core"], c["cmd_id"], c["begin_ns"]), f["id"])
    expect.update(owner.values())

    slices = {}
    proto = os.path.join(SHARED_TOOLS, "perfetto_subset.proto")
    pftrace = os.path.join(out, "trace.pftrace")
    if os.path.exists(proto) and subprocess.run(["sh", "-c", "command -v protoc"],
                                                capture_output=True).returncode == 0:
        with open(pftrace, "rb") as f:
            text = run(["protoc", "--proto_path=" + SHARED_TOOLS, "--decode=perfetto.protos.Trace",
                        proto], stdin=f).stdout.decode()
        ids = re.findall(r'string_value: "(F\d+)"\n\s*name: "advise.finding_id"', text)
        slices = dict(collections.Counter(ids))
        if slices != dict(expect):
            fail(f"trace.pftrace advise.finding_id counts {slices}, expected {dict(expect)}")
        tracks = re.findall(r'name: "(F\d+ [a-z-]+ \((?:info|warn|error)\))"', text)
        want = [f"{f['id']} {f['rule']} ({f['severity']})" for f in findings]
        if tracks != want:
            fail(f"trace.pftrace finding tracks {tracks}, expected {want}")
        if findings and 'name: "Findings (tpuprof advise)"' not in text:
            fail("trace.pftrace has no Findings track")
        checked.append("protoc")
    if os.path.exists(os.path.join(SHARED_TOOLS, "perfetto_check.py")):
        run([sys.executable, os.path.join(SHARED_TOOLS, "perfetto_check.py"), pftrace, "--quiet"])
        checked.append("perfetto_check")

    trace = json.load(open(os.path.join(out, "trace.json"), encoding="utf-8"))
    json_slices = collections.Counter(
        e["args"]["advise.finding_id"] for e in trace["traceEvents"]
        if e.get("ph") == "X" and "advise.finding_id" in e.get("args", {}))
    if dict(json_slices) != dict(expect):
        fail(f"trace.json advise.finding_id counts {dict(json_slices)}, expected {dict(expect)}")
    if os.path.exists(os.path.join(SHARED_TOOLS, "chrome_json_check.py")):
        run([sys.executable, os.path.join(SHARED_TOOLS, "chrome_json_check.py"),
             os.path.join(out, "trace.json")])
        checked.append("chrome_json_check")

    if chromium and findings:
        exp = os.path.join(out, "expect.json")
        with open(exp, "w") as f:
            json.dump({"findings": {"count": len(findings), "click": 0,
                                    "rules": [x["rule"] for x in findings]}}, f)
        r = subprocess.run(["node", os.path.join(ROOT, "tests", "browser", "check_report.mjs"),
                            "--html", os.path.join(out, "report.html"), "--expect", exp,
                            "--chromium", chromium, "--screenshot",
                            os.path.join(out, "report.png")], capture_output=True, text=True)
        if r.returncode:
            fail("browser: " + r.stdout[-2000:] + r.stderr[-500:])
        checked.append("browser")
        browser = json.loads(r.stdout.strip().splitlines()[-1]).get("finding_click")

    by_id = lambda d: dict(sorted(d.items(), key=lambda kv: int(kv[0][1:])))
    print(json.dumps({"findings": [[f["id"], f["rule"], f["severity"]] for f in findings],
                      "slices": by_id(slices), "json_slices": by_id(json_slices),
                      "checked": checked, "browser_click": browser}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Include-direction and chip-name checks for include/tpuprof/ (issue #13).

Layers, lowest first; a header may include only headers of its own or a lower
layer (data flows one way):

  core (top-level vocabulary headers, regs/) -> io/ -> chips/ -> decode/ ->
  synth/ -> views/ = algo/ -> sinks/ -> report/

A `detail/` folder belongs to the layer of its parent. Entry headers (listed
in ENTRY_HEADERS with a reason) may include anything.

  tools/check_layers.py                 include direction (default)
  tools/check_layers.py --chip-names    no chip is named outside chips/, synth/
                                        and entry headers (identifiers in code,
                                        not comments or strings)
  --allowlist FILE     known violations (one per line, as --print prints them);
                       only new ones fail, and entries that no longer occur
                       fail too, so the list only shrinks
  --print              print the violations in allowlist form and exit 0
  --root DIR           the source tree (default: this script's repository)

Exit 1 on a violation (each listed as file:line: text), 0 otherwise.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

LAYERS = ["core", "io", "chips", "decode", "synth", "views", "sinks", "report"]
# Folders directly under include/tpuprof/ and their layer.
FOLDER_LAYER = {
    "regs": "core",
    "detail": "core",
    "io": "io",
    "chips": "chips",
    "decode": "decode",
    "synth": "synth",
    "views": "views",
    "algo": "views",  # eager reductions sit beside the lazy views (range-v3's algorithm/)
    "sinks": "sinks",
    "report": "report",
}
RANK = {name: i for i, name in enumerate(LAYERS)}

# Paths relative to include/tpuprof/ that may include anything, and why.
ENTRY_HEADERS = {
    "tpuprof.hpp": "the umbrella: everything the library offers",
    "views.hpp": "all lazy views in one include",
    "algo.hpp": "all eager algorithms in one include",
    "open.hpp": "tpuprof::open detects the chip, so it sees every chip and decoder",
    "stream.hpp": "tpuprof::stream_trace detects the chip and streams it into a sink (open() otherwise)",
    "trace.hpp": "light entry header: tpuprof::trace (what open returns) with its operand table",
    "fmt.hpp": "opt-in fmt::formatter specializations for vocabulary and track keys",
    "synth.hpp": "the synthetic dump generators of every chip, outside the umbrella",
    "decode.hpp": "the typed decoders with every chip's traits, for code that knows its chip",
    "open_options.hpp": "light entry header: open()'s options (and, in compiled mode, its declarations)",
    "detail/extern_templates.hpp": "compiled mode: extern templates name every chip's decoder",
}

# Where a chip may be named: chips/ (its home), synth/ (generators of one chip's
# bytes), entry headers. Tests, examples, bench and src/ are not scanned.
CHIP_NAME_FOLDERS = ("chips", "synth")
CHIP_WORDS = {
    "bm1684x", "bm1684", "bm1688", "bm1690", "sg2260", "sg2260e", "aks", "aksv", "cv184x",
    "cv186x",
}
CHIP_IDENTIFIERS = {"cdm_chip_kind"}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"](tpuprof/[^>"]+)[>"]')
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def layer_of(rel: str) -> str | None:
    """Layer of a header path relative to include/tpuprof/ (None: entry header)."""
    if rel in ENTRY_HEADERS:
        return None
    parts = rel.split("/")
    if len(parts) == 1:
        return "core"
    return FOLDER_LAYER.get(parts[0], "unknown")


def headers(root: pathlib.Path):
    base = root / "include" / "tpuprof"
    for path in sorted(base.rglob("*")):
        if path.is_file() and path.suffix in (".hpp", ".h", ".ipp"):
            yield path, path.relative_to(base).as_posix()


def include_violations(root: pathlib.Path):
    """(file, line, text, key) for every include against the data flow."""
    out = []
    for path, rel in headers(root):
        mine = layer_of(rel)
        if mine is None:
            continue
        shown = f"include/tpuprof/{rel}"
        if mine == "unknown":
            out.append((shown, 1, f"folder '{rel.split('/')[0]}/' has no layer (add it to "
                        "FOLDER_LAYER in tools/check_layers.py)", f"{shown}: unknown layer"))
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            target = m.group(1)[len("tpuprof/"):]
            theirs = layer_of(target)
            if theirs is None:
                out.append((shown, no, f"{line.strip()}  ({mine} includes an entry header)",
                            f"{shown} -> tpuprof/{target}"))
            elif theirs == "unknown" or RANK[theirs] > RANK[mine]:
                out.append((shown, no, f"{line.strip()}  ({mine} -> {theirs})",
                            f"{shown} -> tpuprof/{target}"))
    return out


def strip_comments_and_strings(text: str) -> str:
    """The code of a C++ file with comments and string/char literals blanked
    (newlines kept, so line numbers stay). Raw strings are handled."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or
                                                                         text[i - 1] == "_")):
            k = text.find("(", i + 2)
            delim = text[i + 2:k]
            j = text.find(")" + delim + '"', k)
            j = n if j < 0 else j + len(delim) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # a ' right after a digit or letter is a digit separator (1'000), not a literal
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def names_chip(ident: str) -> bool:
    if ident in CHIP_IDENTIFIERS:
        return True
    return any(part.lower() in CHIP_WORDS for part in ident.split("_"))


def chip_name_violations(root: pathlib.Path):
    out = []
    for path, rel in headers(root):
        if rel in ENTRY_HEADERS or rel.split("/")[0] in CHIP_NAME_FOLDERS:
            continue
        shown = f"include/tpuprof/{rel}"
        text = path.read_text(encoding="utf-8")
        code = strip_comments_and_strings(text)
        for no, line in enumerate(code.splitlines(), 1):
            for ident in IDENT_RE.findall(line):
                if names_chip(ident):
                    out.append((shown, no, f"names a chip: {ident}", f"{shown}: {ident}"))
    return out


def read_allowlist(path: pathlib.Path) -> set[str]:
    keys = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keys.add(line)
    return keys


def report(found, allowlist: pathlib.Path | None, print_only: bool, label: str) -> int:
    """Prints `found` (file, line, text, allowlist key) against the allowlist:
    new violations and stale allowlist lines fail (exit code 1). With
    print_only, prints the keys in allowlist form and returns 0. Shared with
    check_sizes.py."""
    if print_only:
        for key in sorted({v[3] for v in found}):
            print(key)
        return 0
    allowed = read_allowlist(allowlist) if allowlist else set()
    new = [v for v in found if v[3] not in allowed]
    stale = sorted(allowed - {v[3] for v in found})
    for f, no, text, _ in new:
        print(f"{f}:{no}: {text}")
    for key in stale:
        print(f"{allowlist}: fixed, remove this line: {key}")
    known = len(found) - len(new)
    if new or stale:
        print(f"{label}: {len(new)} new violation(s), {len(stale)} stale allowlist "
              f"line(s); {known} known")
        return 1
    print(f"{label}: ok ({known} known violation(s) in the allowlist)" if known else f"{label}: ok")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chip-names", action="store_true", help="check chip names instead")
    ap.add_argument("--allowlist", type=pathlib.Path, help="known violations")
    ap.add_argument("--print", action="store_true", help="print violations in allowlist form")
    ap.add_argument("--root", type=pathlib.Path,
                    default=pathlib.Path(__file__).resolve().parent.parent)
    args = ap.parse_args(argv)

    what = "chip names" if args.chip_names else "include direction"
    found = chip_name_violations(args.root) if args.chip_names else include_violations(args.root)
    return report(found, args.allowlist, args.print, f"check_layers ({what})")


if __name__ == "__main__":
    sys.exit(main())

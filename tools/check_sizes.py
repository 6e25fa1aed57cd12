#!/usr/bin/env python3
"""Room sizes (issue #13): no hand-written file in include/, examples/, src/
over 600 lines, no function over 150 lines.

A file whose first line says it is generated (it contains "generated" and
"tools/", the script that regenerates it) is exempt from both.

Functions are found with a brace-matching heuristic over clang-formatted C++:
comments, string literals and preprocessor lines are blanked; a `{` at
namespace or class scope whose statement has a parameter list `( ... )` (and
is not a class, enum, namespace or concept head, nor a brace inside a
constructor's member-init list) opens a function body, counted from the line
of its `{` to the line of its matching `}` inclusive. Lambdas and local
classes inside a body count toward the enclosing function.

  tools/check_sizes.py [--allowlist FILE] [--print] [--root DIR]
      [--max-file-lines 600] [--max-function-lines 150] [PATH...]

--allowlist: known violations ("file" or "file: function"), as --print prints
them; only new ones fail, and entries that no longer occur fail too.
Exit 1 on a violation (each listed as file:line: text), 0 otherwise.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_layers import report, strip_comments_and_strings  # noqa: E402

DIRS = ("include", "examples", "src")
SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".ipp")
SCOPE_HEAD = re.compile(r"^(?:(?:inline|export)\s+)*(namespace|class|struct|union|enum|extern)\b")


def is_generated(text: str) -> bool:
    first = text.split("\n", 1)[0].lower()
    return "generated" in first and "tools/" in first


def blank_preprocessor(code: str) -> str:
    """Blanks preprocessor lines (and their continuations), keeping newlines."""
    out, cont = [], False
    for line in code.split("\n"):
        directive = cont or line.lstrip().startswith("#")
        cont = directive and line.rstrip().endswith("\\")
        out.append("" if directive else line)
    return "\n".join(out)


def strip_template_heads(stmt: str) -> str:
    """Drops leading `template <...>` heads and [[attributes]]."""
    s = stmt.lstrip()
    while True:
        if s.startswith("[["):
            end = s.find("]]")
            s = s[end + 2:].lstrip() if end >= 0 else s
            continue
        m = re.match(r"template\s*<", s)
        if not m:
            return s
        depth, i = 1, m.end()
        while i < len(s) and depth:
            depth += {"<": 1, ">": -1}.get(s[i], 0)
            i += 1
        s = s[i:].lstrip()


def top_level_colon_after_params(stmt: str) -> bool:
    """True when `stmt` is `f(...) : member-inits` (a constructor's init list)."""
    depth, seen_paren = 0, False
    i = 0
    while i < len(stmt):
        c = stmt[i]
        if c in "([":
            depth += 1
            seen_paren = True
        elif c in ")]":
            depth -= 1
        elif c == ":" and depth == 0 and seen_paren:
            if stmt.startswith("::", i):
                i += 2
                continue
            if i > 0 and stmt[i - 1] == ":":
                i += 1
                continue
            return True
        i += 1
    return False


def function_name(stmt: str) -> str:
    s = strip_template_heads(stmt)
    depth = 0
    # the name is what precedes the first top-level '(' (operator() aside)
    for i, c in enumerate(s):
        if c == "(" and depth == 0:
            if re.search(r"\boperator\s*$", s[:i]) and s.startswith("()", i):
                continue
            head = s[:i].rstrip()
            m = re.search(r"(operator\s*\S+|~?[A-Za-z_][\w:]*(?:<[^()]*>)?::~?[A-Za-z_]\w*|"
                          r"~?[A-Za-z_]\w*)$", head)
            return re.sub(r"\s+", " ", m.group(1)) if m else head.split()[-1] if head else "?"
        if c == "<":
            depth += 1
        elif c == ">" and depth:
            depth -= 1
    return "?"


def functions(code: str):
    """(name, first_line, last_line) of every function body at namespace/class scope."""
    found = []
    scopes = ["namespace"]  # kinds of the open braces
    stmt, stmt_line = [], None
    body_start = None  # (name, line, depth) while inside a function body
    line = 1
    for c in code:
        if c == "\n":
            line += 1
        if body_start is not None:
            if c == "{":
                scopes.append("block")
            elif c == "}":
                scopes.pop()
                if len(scopes) == body_start[2]:
                    found.append((body_start[0], body_start[1], line))
                    body_start = None
                    stmt, stmt_line = [], None
            continue
        if c == "{":
            text = "".join(stmt)
            s = strip_template_heads(text)
            m = SCOPE_HEAD.match(s)
            parens_open = text.count("(") - text.count(")")
            tail = text.rstrip()[-1:] if text.strip() else ""
            if scopes[-1] == "init":
                scopes.append("init")  # nested braces of an initializer
                stmt.append(c)
            elif m:
                scopes.append(m.group(1))
                stmt, stmt_line = [], None
            elif (s.startswith("concept") or re.search(r"\bconcept\b", s) or "(" not in text
                  or parens_open > 0 or tail in "=,"):
                scopes.append("init")  # a brace initializer: part of the statement
                stmt.append(c)
            elif top_level_colon_after_params(s) and (tail.isalnum() or tail in "_>"):
                scopes.append("init")  # member{...} inside a constructor's init list
                stmt.append(c)
            else:
                body_start = (function_name(text), line, len(scopes))
                scopes.append("function")
            continue
        if c == "}":
            kind = scopes.pop() if len(scopes) > 1 else "namespace"
            if kind == "init":
                stmt.append(c)
            else:
                stmt, stmt_line = [], None
            continue
        if c == ";" and scopes[-1] != "init":
            stmt, stmt_line = [], None
            continue
        if scopes[-1] in ("namespace", "class", "struct", "union", "extern", "init"):
            if c == ":" and scopes[-1] != "init" and re.search(
                    r"\b(public|private|protected)\s*$", "".join(stmt)):
                stmt, stmt_line = [], None
                continue
            if stmt_line is None and not c.isspace():
                stmt_line = line
            stmt.append(c)
    return found


def scan(root: pathlib.Path, paths: list[str], max_file: int, max_fn: int):
    """(file, line, text, key) of every violation."""
    out = []
    files = []
    for p in paths or DIRS:
        base = root / p
        if base.is_file():
            files.append(base)
        elif base.is_dir():
            files.extend(f for f in sorted(base.rglob("*")) if f.suffix in SUFFIXES and f.is_file())
    for path in files:
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if is_generated(text):
            continue
        n = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if n > max_file:
            out.append((rel, 1, f"{n} lines (max {max_file})", rel))
        code = blank_preprocessor(strip_comments_and_strings(text))
        for name, first, last in functions(code):
            length = last - first + 1
            if length > max_fn:
                out.append((rel, first, f"function {name}: {length} lines (max {max_fn})",
                            f"{rel}: {name}"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help=f"files or folders (default: {' '.join(DIRS)})")
    ap.add_argument("--allowlist", type=pathlib.Path)
    ap.add_argument("--print", action="store_true", help="print violations in allowlist form")
    ap.add_argument("--list-functions", action="store_true",
                    help="print every function found and its length (to verify the heuristic)")
    ap.add_argument("--root", type=pathlib.Path,
                    default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument("--max-file-lines", type=int, default=600)
    ap.add_argument("--max-function-lines", type=int, default=150)
    args = ap.parse_args(argv)

    if args.list_functions:
        for p in args.paths:
            code = blank_preprocessor(strip_comments_and_strings(pathlib.Path(p).read_text()))
            for name, first, last in functions(code):
                print(f"{p}:{first}-{last}: {last - first + 1} {name}")
        return 0
    found = scan(args.root, args.paths, args.max_file_lines, args.max_function_lines)
    return report(found, args.allowlist, args.print, "check_sizes")


if __name__ == "__main__":
    sys.exit(main())

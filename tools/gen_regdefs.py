#!/usr/bin/env python3
"""Generates tpuprof's constexpr register tables from a vendor register-definition file.

The vendor files are themselves generated from the vendor's register spreadsheets. Two
formats are read, both with `ast` (nothing is executed):
  * tpu-mlir python/profile_helper/regdef_1684x.py: one dict literal `reg_def`, sheet name ->
    list of (field name, exclusive high bit) in bit order;
  * tpu-mlir python/debugger/target_*/regdef.py and bigTpuProfile debugger/target/regdef_aks.py,
    regdef_aksv.py: one ctypes class per command form, `OP_NAME = "..."`,
    `_fields_ = [(name, ctypes.c_uint64, width), ...]`, `length = <bits>`.
Fields are laid out back to back from bit 0 (the spreadsheet's layout; the sum of the widths
equals `length`). Where a field straddles a 64-bit word, ctypes would move it to the next word;
the generated header lists those fields in a comment (see docs/registers.md).
The output is a header of `tpuprof::regs::reg_field` arrays: name, low bit, width; format it
with clang-format-16 afterwards. Each table also gets its name index as a string literal: an
open-addressing table of 2^k >= 2n one-character slots ('#' + field index + 1, '#' empty), a
field at the slot its name's FNV-1a hash (`regs::name_hash`) picks or the next free one, so
`reg_table::find` costs a probe or two instead of a scan of string compares (issue #17). Written
as a literal it costs the compiler next to nothing (1 MB of GGC for the header-only umbrella; an
index computed in constant evaluation cost 34 MB and broke the compile budget, a std::string_view
member 4 MB more than a pointer).

Usage: gen_regdefs.py CHIP TPU_MLIR_DIR [OUT_HEADER]
e.g.   tools/gen_regdefs.py bm1684x $TPU_MLIR && clang-format-16 -i include/tpuprof/chips/bm1684x/regs.hpp
CHIP is a key of CHIPS below, which says per chip the vendor file (relative to a tpu-mlir
checkout), the C++ namespace, the output header (relative to the repository) and the provenance
written into it. Run from the repository root.
"""
import ast
import re
import sys

# Per chip: vendor file in tpu-mlir, namespace tpuprof::regs::<namespace>, output header, and
# the provenance the header states. Moving a chip's header is one edit of its `out`.
CHIPS = {
    "bm1684x": dict(
        vendor="python/profile_helper/regdef_1684x.py",
        namespace="bm1684x",
        out="include/tpuprof/chips/bm1684x/regs.hpp",
        provenance="tpu-mlir (fork jonathansong/tpu-mlir @ 8f9f82e1) "
        "python/profile_helper/regdef_1684x.py, from BM1686_TPU_TIU_Reg6.5.xlsx and "
        "GDMA_1686_DES_REG_v7.7.xlsx"),
    "aks": dict(
        vendor="python/debugger/target_1690/regdef.py",
        namespace="aks",
        out="include/tpuprof/chips/aks/regs.hpp",
        provenance="tpu-mlir (fork jonathansong/tpu-mlir @ 8f9f82e1) "
        "python/debugger/target_1690/regdef.py (BM1690 = SG2260, from BM1690_TPU_TIU_Reg0.12.xlsx "
        "and GDMA_BM1690_DES_REG_12_21.xlsx)"),
    "aksv": dict(
        vendor="python/debugger/target_1690e/regdef.py",
        namespace="aksv",
        out="include/tpuprof/chips/aksv/regs.hpp",
        provenance="tpu-mlir (fork jonathansong/tpu-mlir @ 8f9f82e1) "
        "python/debugger/target_1690e/regdef.py (SG2260E, from SG2260E "
        "tensor_extension_instruction_code_v2.0.13.xlsx)"),
    "bm1688": dict(
        vendor="python/debugger/target_1688/regdef.py",
        namespace="bm1688",
        out="include/tpuprof/chips/bm1688/regs.hpp",
        provenance="tpu-mlir (fork jonathansong/tpu-mlir @ 8f9f82e1) "
        "python/debugger/target_1688/regdef.py"),
    "cv184x": dict(
        vendor="python/debugger/target_cv184x/regdef.py",
        namespace="cv184x",
        out="include/tpuprof/chips/cv184x/regs.hpp",
        provenance="tpu-mlir (fork jonathansong/tpu-mlir @ 8f9f82e1) "
        "python/debugger/target_cv184x/regdef.py",
        # the vendor's DMA_gather / DMA_scatter fields sum to 800 bits, their length says 768
        skip={"DMA_gather", "DMA_scatter"}),
}


def load_reg_def(path, skip=()):
    """Returns {sheet: [(field, exclusive high bit), ...]}."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "reg_def" for t in node.targets):
            return ast.literal_eval(node.value)
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        name, fields, length = None, None, None
        for st in node.body:
            if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
                if st.targets[0].id == "OP_NAME":
                    name = ast.literal_eval(st.value)
                elif st.targets[0].id == "_fields_":
                    fields = [(e.elts[0].value, e.elts[2].value) for e in st.value.elts]
            elif isinstance(st, ast.AnnAssign) and getattr(st.target, "id", "") == "length":
                length = ast.literal_eval(st.value)
        if name is None or fields is None:
            continue
        hi, rows = 0, []
        for fname, width in fields:
            hi += width
            rows.append((fname, hi))
        if length is not None and hi != length:
            if name in skip:
                print(f"{path}: {name}: fields sum to {hi} bits, length says {length}: skipped",
                      file=sys.stderr)
                continue
            raise SystemExit(f"{path}: {name}: fields sum to {hi} bits, length says {length}")
        out[name] = rows
    if not out:
        raise SystemExit(f"{path}: neither a reg_def dict nor ctypes register classes")
    return out


def name_hash(name):
    """FNV-1a, 32 bits, of the UTF-8 name: regs::name_hash in include/tpuprof/regs/reg_table.hpp."""
    h = 2166136261
    for b in name.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def name_index(names):
    """The slots of a table's name index (see the module doc); the first of equal names wins."""
    size = 2
    while size < 2 * len(names):
        size *= 2
    slots, seen = [0] * size, set()
    for i, name in enumerate(names):
        if name in seen:
            continue
        seen.add(name)
        k = name_hash(name) & (size - 1)
        while slots[k]:
            k = (k + 1) & (size - 1)
        slots[k] = i + 1
    return slots


def slot_char(v):
    """Slot value v (0 empty, else field index + 1) as a string-literal character: chr(0x23 + v)
    ('#' is empty), octal-escaped where that is '"', '\\', '?' or not printable ASCII."""
    c = 0x23 + v
    if c > 0xFF:
        raise SystemExit(f"slot value {v}: the index holds at most {0xFF - 0x23} fields")
    return chr(c) if c < 0x7F and chr(c) not in '"\\?' else f"\\{c:03o}"


def ident(sheet):
    s = re.sub(r"（.*?）|\(.*?\)", "", sheet)  # drop "(0x000)"-style suffixes
    s = s.replace("&", "_")
    s = re.sub(r"[^0-9A-Za-z]+", "_", s).strip("_")
    # sAR -> s_ar (short form), keep others lower case
    if re.match(r"^s[A-Z]", s):
        s = "s_" + s[1:]
    s = s.lower()
    if s[0].isdigit():
        s = "t_" + s
    return s


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in CHIPS:
        raise SystemExit(__doc__ + "\nchips: " + ", ".join(CHIPS))
    chip, tpu_mlir = sys.argv[1:3]
    cfg = CHIPS[chip]
    ns, provenance = cfg["namespace"], cfg["provenance"]
    out = sys.argv[3] if len(sys.argv) == 4 else cfg["out"]
    reg_def = load_reg_def(f"{tpu_mlir}/{cfg['vendor']}", cfg.get("skip", ()))
    lines = [
        f"/// Generated by `tools/gen_regdefs.py {chip} $TPU_MLIR` (then clang-format-16); do not edit.",
        f"/// {ns} command register layouts.",
        f"/// Source facts: {provenance},",
        "/// which the vendor generated from its register spreadsheets. Each table lists the",
        "/// fields of one command form in bit order: name, low bit, width (LSB-first bit numbering);",
        "/// after them each table's field-name index (see regs::reg_table::index).",
        "#pragma once",
        "",
        "#include <array>",
        "",
        "#include <tpuprof/regs/reg_table.hpp>",
        "",
        f"namespace tpuprof::regs::{ns} {{",
        "",
    ]
    names = []
    used = set()
    for sheet, fields in reg_def.items():
        cid = ident(sheet)
        while cid in used:
            cid += "_"
        used.add(cid)
        names.append((sheet, cid))
        lo = 0
        rows = []
        straddle, prev = [], 0
        for fname, hi in fields:
            if prev // 64 != (hi - 1) // 64:
                straddle.append(fname)
            prev = hi
        for fname, hi in fields:
            width = hi - lo
            if width <= 0 or width > 64:
                raise SystemExit(f"{sheet}.{fname}: width {width} unsupported")
            rows.append(f'    reg_field{{"{fname}", {lo}, {width}}},')
            lo = hi
        if straddle:
            lines.append(f"// {sheet.strip()}: crosses a 64-bit word (ctypes would move it): "
                         + ", ".join(straddle))
        lines.append(f"inline constexpr std::array<reg_field, {len(fields)}> {cid}_fields{{{{")
        lines.extend(rows)
        lines.append("}};")
        slots = name_index([f for f, _ in fields])
        # the index inline, one character a slot: printable characters in the table's own
        # initializer cost the compiler least (a variable per index costs 1 MB more GGC over all
        # chips, hex escapes 2 MB more)
        index = '"' + "".join(map(slot_char, slots)) + '"'
        lines.append(f'inline constexpr reg_table {cid}{{"{sheet.strip()}", {cid}_fields, {lo}, '
                     f'{index}, {len(slots) - 1}}};')
        lines.append("")
    lines.append(f"/// Every table of this chip, in the vendor file's order.")
    lines.append(f"inline constexpr std::array<const reg_table*, {len(names)}> all_tables{{")
    lines.append("    " + ", ".join(f"&{cid}" for _, cid in names) + "};")
    lines.append("")
    lines.append(f"}}  // namespace tpuprof::regs::{ns}")
    open(out, "w", encoding="utf-8").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

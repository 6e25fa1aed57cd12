"""Unit tests of tools/check_layers.py on a tiny fake tree (python3 -m unittest)."""

import contextlib
import io
import pathlib
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import check_layers  # noqa: E402


def make_tree(files: dict[str, str]) -> tempfile.TemporaryDirectory:
    tmp = tempfile.TemporaryDirectory()
    for rel, text in files.items():
        path = pathlib.Path(tmp.name) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp


def run(root: str, *args: str) -> tuple[int, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = check_layers.main(["--root", root, *args])
    return rc, buf.getvalue()


INC = "include/tpuprof/"


class IncludeDirection(unittest.TestCase):
    def test_downward_includes_pass(self):
        with make_tree({
            INC + "event.hpp": "#pragma once\n",
            INC + "regs/table.hpp": "#include <tpuprof/event.hpp>\n",
            INC + "io/bytes.hpp": "#include <tpuprof/regs/table.hpp>\n",
            INC + "chips/x.hpp": "#include <tpuprof/io/bytes.hpp>\n",
            INC + "decode/d.hpp": "#include <tpuprof/chips/x.hpp>\n",
            INC + "decode/detail/e.hpp": "#include <tpuprof/decode/d.hpp>\n",
            INC + "views/v.hpp": "#include <tpuprof/decode/detail/e.hpp>\n",
            INC + "algo/a.hpp": "#include <tpuprof/views/v.hpp>\n",
            INC + "views/w.hpp": "#include <tpuprof/algo/a.hpp>\n",  # same layer
            INC + "sinks/s.hpp": "#include <tpuprof/views/v.hpp>\n",
            INC + "report/r.hpp": "#include <tpuprof/sinks/s.hpp>\n",
            INC + "tpuprof.hpp": "#include <tpuprof/report/r.hpp>\n",  # entry header
        }) as root:
            rc, out = run(root)
            self.assertEqual(rc, 0, out)
            self.assertIn("ok", out)

    def test_upward_include_fails_with_file_line_and_include(self):
        with make_tree({
            INC + "event.hpp": "#pragma once\n",
            INC + "views/v.hpp": "#pragma once\n",
            INC + "decode/d.hpp": "#pragma once\n// one\n#include <tpuprof/views/v.hpp>\n",
            INC + "sinks/detail/f.hpp": "#include <tpuprof/decode/d.hpp>\n",
            INC + "regs/r.hpp": "#  include \"tpuprof/sinks/detail/f.hpp\"\n",
        }) as root:
            rc, out = run(root)
            self.assertEqual(rc, 1)
            self.assertIn("include/tpuprof/decode/d.hpp:3: #include <tpuprof/views/v.hpp>"
                          "  (decode -> views)", out)
            self.assertIn("include/tpuprof/regs/r.hpp:1:", out)
            self.assertIn("(core -> sinks)", out)
            self.assertNotIn("sinks/detail/f.hpp:", out)  # sinks -> decode is downward

    def test_entry_header_included_from_a_layer_fails(self):
        with make_tree({INC + "views.hpp": "\n", INC + "sinks/s.hpp": "#include <tpuprof/views.hpp>\n"}) as root:
            rc, out = run(root)
            self.assertEqual(rc, 1)
            self.assertIn("sinks/s.hpp:1:", out)

    def test_unknown_folder_fails(self):
        with make_tree({INC + "misc/m.hpp": "\n"}) as root:
            rc, out = run(root)
            self.assertEqual(rc, 1)
            self.assertIn("has no layer", out)

    def test_allowlist_known_new_and_stale(self):
        with make_tree({
            INC + "views/v.hpp": "\n",
            INC + "io/a.hpp": "#include <tpuprof/views/v.hpp>\n",
            INC + "io/b.hpp": "#include <tpuprof/views/v.hpp>\n",
            "allow.txt": "# known\ninclude/tpuprof/io/a.hpp -> tpuprof/views/v.hpp\n",
            "stale.txt": "include/tpuprof/io/a.hpp -> tpuprof/views/v.hpp\n"
                         "include/tpuprof/io/b.hpp -> tpuprof/views/v.hpp\n"
                         "include/tpuprof/io/c.hpp -> tpuprof/views/v.hpp\n",
        }) as root:
            rc, out = run(root, "--print")
            self.assertEqual(rc, 0)
            self.assertEqual(out.splitlines(), ["include/tpuprof/io/a.hpp -> tpuprof/views/v.hpp",
                                                "include/tpuprof/io/b.hpp -> tpuprof/views/v.hpp"])
            rc, out = run(root, "--allowlist", root + "/allow.txt")
            self.assertEqual(rc, 1)
            self.assertIn("io/b.hpp:1:", out)
            self.assertNotIn("io/a.hpp:1:", out)
            rc, out = run(root, "--allowlist", root + "/stale.txt")
            self.assertEqual(rc, 1)
            self.assertIn("remove this line: include/tpuprof/io/c.hpp", out)


class ChipNames(unittest.TestCase):
    def test_chip_identifiers_in_code_only(self):
        with make_tree({
            INC + "decode/d.hpp": """\
                // bm1684x in a comment is fine
                /* so is aks
                   and aksv */
                const char* s = "aks";  // a string is not an identifier
                int peaks = 1'000;  // 'aks' inside a longer word
                auto r = R"x(bm1684x aks)x";
                enum class cdm_chip_kind { a, b };
                using t = chips::bm1684x;
                """,
            INC + "views/v.hpp": "#include <tpuprof/chips/aks_regs.hpp>\n",
            INC + "chips/aks.hpp": "struct aks {};\n",   # chips/ may name chips
            INC + "synth/s.hpp": "int aksv;\n",           # so may generators
            INC + "tpuprof.hpp": "using x = chips::aks;\n",  # and entry headers
        }) as root:
            rc, out = run(root, "--chip-names")
            self.assertEqual(rc, 1)
            lines = sorted(l for l in out.splitlines() if "names a chip" in l)
            self.assertEqual(lines, [
                "include/tpuprof/decode/d.hpp:7: names a chip: cdm_chip_kind",
                "include/tpuprof/decode/d.hpp:8: names a chip: bm1684x",
                "include/tpuprof/views/v.hpp:1: names a chip: aks_regs",
            ])

    def test_clean_tree_passes(self):
        with make_tree({INC + "views/v.hpp": "template <class Chip> int cores = Chip::cores;\n"}) as root:
            self.assertEqual(run(root, "--chip-names")[0], 0)


if __name__ == "__main__":
    unittest.main()

"""Keeps docs/ARCHITECTURE.md's layer rules true of the source tree.

docs/ARCHITECTURE.md lists the folders of src/gpushare/ in layers, lowest
first, in its ```layers block: one line per layer, the folders of a layer
separated by spaces. A file of a folder may include its own folder and the
folders of lower layers only — never a folder of its own layer or of a
higher one. Tests (`*_test.cc`) and test-only fixtures (`test_*.h`, included
by tests only) are exempt: a test may run the layers above the one it tests.

Also checked: every folder of src/gpushare/ is in the table and every folder
of the table exists; no source file under src/ or cli/ is over the line limit
the document states; every header and source file of src/gpushare/ opens with
a comment (its contract) before its first #include.

Run as: python3 tests/layers_test.py --binary /path/to/gpushare-sim (the
binary is not used; the flag keeps CTest's calling convention).
"""

import os
import re
import unittest

from cli_harness import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src", "gpushare")
ARCHITECTURE = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
INCLUDE = re.compile(r'^\s*#\s*include\s+"gpushare/([a-z_]+)/')


def layers():
    """The folders of each layer, lowest first, from docs/ARCHITECTURE.md."""
    with open(ARCHITECTURE, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"^```layers\n(.*?)^```", text, re.S | re.M)
    assert match, "docs/ARCHITECTURE.md has no ```layers block"
    return [line.split() for line in match.group(1).splitlines()
            if line.strip()]


def line_limit():
    with open(ARCHITECTURE, encoding="utf-8") as f:
        match = re.search(r"no source file is over ([0-9,]+) lines", f.read())
    assert match, "docs/ARCHITECTURE.md states no line limit"
    return int(match.group(1).replace(",", ""))


def sources(top):
    for root, _, files in os.walk(top):
        for name in sorted(files):
            if name.endswith((".cc", ".h")):
                yield os.path.join(root, name)


def is_test_only(path):
    name = os.path.basename(path)
    return name.endswith("_test.cc") or name.startswith("test_")


class LayersTest(unittest.TestCase):

    def test_every_folder_has_a_layer(self):
        listed = {folder for layer in layers() for folder in layer}
        present = {d for d in os.listdir(SRC)
                   if os.path.isdir(os.path.join(SRC, d))}
        self.assertEqual(sorted(present - listed), [],
                         "folders missing from docs/ARCHITECTURE.md")
        self.assertEqual(sorted(listed - present), [],
                         "docs/ARCHITECTURE.md lists folders that do not exist")

    def test_includes_point_down(self):
        rank = {}
        for i, layer in enumerate(layers()):
            for folder in layer:
                rank[folder] = i
        wrong = []
        for path in sources(SRC):
            if is_test_only(path):
                continue
            folder = os.path.relpath(path, SRC).split(os.sep)[0]
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m or m.group(1) == folder:
                        continue
                    target = m.group(1)
                    if target not in rank or rank[target] >= rank[folder]:
                        wrong.append(f"{os.path.relpath(path, ROOT)}:{number}: "
                                     f"{folder}/ includes {target}/")
        self.assertEqual(wrong, [], "includes against the layers")

    def test_no_file_over_the_limit(self):
        limit = line_limit()
        long = []
        for top in (os.path.join(ROOT, "src"), os.path.join(ROOT, "cli")):
            for path in sources(top):
                with open(path, encoding="utf-8") as f:
                    lines = sum(1 for _ in f)
                if lines > limit:
                    long.append(f"{os.path.relpath(path, ROOT)}: {lines}")
        self.assertEqual(long, [], f"files over {limit} lines")

    def test_every_file_opens_with_its_contract(self):
        bare = []
        for path in sources(SRC):
            if path.endswith("_test.cc"):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            head = text.split("#include", 1)[0].split("#ifndef", 1)[0]
            if "//" not in head:
                # A source file may open with its own header's include and
                # carry the contract there.
                own = path[:-3] + ".h"
                if path.endswith(".cc") and os.path.exists(own):
                    continue
                bare.append(os.path.relpath(path, ROOT))
        self.assertEqual(bare, [], "files without a contract comment")


if __name__ == "__main__":
    main()

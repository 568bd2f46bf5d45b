"""docs/architecture.md tells the truth about the tree: its file counts are the package's."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_file_counts_in_the_architecture_page_are_those_of_the_tree():
    page = (ROOT / "docs" / "architecture.md").read_text()
    rows = dict(re.findall(r"^\| `(kernelscope/[a-z_]*/?)`(?: \(top level\))? \| (\d+) \|$", page, re.M))
    assert rows, "no file-count table found"
    for folder, count in rows.items():
        assert len(list((ROOT / folder).glob("*.py"))) == int(count), folder
    packages = {p.parent.name for p in (ROOT / "kernelscope").glob("*/__init__.py")}
    assert {f"kernelscope/{name}/" for name in packages} <= set(rows), "a package is missing from the table"

"""`python -m kernelscope.rules PAGE`: rewrite the rule table of a Markdown page (docs/lint.md) from
the registry, between its two marker comments."""

import sys
from pathlib import Path

from kernelscope.rules import with_rules_table

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m kernelscope.rules docs/lint.md")
    page = Path(sys.argv[1])
    page.write_text(with_rules_table(page.read_text()))

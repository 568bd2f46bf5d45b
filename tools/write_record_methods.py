"""Write kernelscope/_record_methods.py: the methods of every class `kernelscope.records.record` makes,
as plain source (see kernelscope/records.py for why). Run it after changing such a class;
tests/test_records.py fails while the file is out of date.

Usage: python tools/write_record_methods.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from kernelscope.record_source import all_record_classes, module_source

    target = ROOT / "kernelscope" / "_record_methods.py"
    text = module_source(all_record_classes())
    changed = not target.exists() or target.read_text() != text
    target.write_text(text)
    print(f"{target.relative_to(ROOT)}: {'written' if changed else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

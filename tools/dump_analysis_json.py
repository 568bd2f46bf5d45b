"""Write `kernelscope analyze --format json --registers estimate` of every project .cu file to a folder.

Used to check that a change meant to be behaviour-neutral (a speed-up) leaves the JSON byte-identical:
dump before and after the change, then `diff -r BEFORE AFTER`. One output file per input file (path with
'/' turned into '__'), holding the exit status on the first line and the JSON document after it.
All files run in one process, so a cache that leaks state from one file into the next shows up too.

    python tools/dump_analysis_json.py OUT_DIR [ROOT]
"""

from __future__ import annotations

import sys
from pathlib import Path

FOLDERS = ("examples", "tests", "corpus")


def project_sources(root: Path) -> list[Path]:
    found = []
    for folder in FOLDERS:
        found.extend(p for p in (root / folder).rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())
    return sorted(found)


def main() -> None:
    out = Path(sys.argv[1])
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else Path.cwd()
    out.mkdir(parents=True, exist_ok=True)
    from click.testing import CliRunner

    from kernelscope.cli import cli

    runner = CliRunner()
    for source in project_sources(root):
        relative = source.relative_to(root)
        result = runner.invoke(cli, ["analyze", "--format", "json", "--registers", "estimate", str(relative)])
        name = str(relative).replace("/", "__") + ".json"
        (out / name).write_text(f"exit {result.exit_code}\n{result.stdout}")
    print(f"{len(project_sources(root))} files written to {out}")


if __name__ == "__main__":
    main()

"""Dump `kernelscope analyze --format json --registers estimate` (and `kernelscope lint --format json`)
for every CUDA file under examples/, tests/kernels/ and corpus/ into one directory, so that a refactoring
can be checked byte for byte: run it before and after, then `diff -r BEFORE AFTER`.

Usage: python tools/json_snapshot.py OUT_DIR"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

ROOTS = ("examples", "tests/kernels", "corpus")
SUFFIXES = (".cu", ".cuh")


def cuda_files(repo: Path) -> list[Path]:
    found = []
    for root in ROOTS:
        found.extend(p for p in sorted((repo / root).rglob("*")) if p.suffix in SUFFIXES and p.is_file())
    return found


def main(out_dir: str) -> int:
    from kernelscope.cli import cli

    repo = Path(__file__).resolve().parent.parent
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    runner = CliRunner()
    commands = {"analyze": ["analyze", "--format", "json", "--registers", "estimate"],
                "lint": ["lint", "--format", "json"]}
    files = cuda_files(repo)
    for path in files:
        rel = path.relative_to(repo)
        for name, argv in commands.items():
            result = runner.invoke(cli, [*argv, str(rel)], catch_exceptions=True)
            text = f"exit {result.exit_code}\n{result.stdout}\nSTDERR\n{result.stderr}"
            if result.exception and not isinstance(result.exception, SystemExit):
                text += f"\nEXCEPTION {type(result.exception).__name__}: {result.exception}\n"
            target = out / name / (str(rel).replace("/", "__") + ".txt")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    print(f"{len(files)} files x {len(commands)} commands written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

"""Which modules a fresh `kernelscope analyze` process imported: the start-up tests ask this of a
real new interpreter, since the current one has imported everything the other tests needed."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs the command as `python -m kernelscope` does, then prints sys.modules' names on the last line.
_SCRIPT = """
import contextlib, io, sys
from kernelscope.cli import cli
with contextlib.redirect_stdout(io.StringIO()):
    try:
        cli.main(args=sys.argv[1:], prog_name="kernelscope", standalone_mode=True)
    except SystemExit:
        pass
print(sorted(sys.modules))
"""


def modules_of_a_fresh_analyze(path: Path, registers: str = "estimate") -> set[str]:
    ran = subprocess.run([sys.executable, "-c", _SCRIPT, "analyze", "--format", "json", "--registers", registers,
                          str(path)], capture_output=True, text=True, cwd=path.parent,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0, ran.stderr
    return set(ast.literal_eval(ran.stdout.strip().splitlines()[-1]))

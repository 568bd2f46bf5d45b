"""A broken install (a required package gone from the environment) is reported as what it is, on one
line with exit status 2, not as an internal error to report and not as a traceback. The package is
made unimportable in a real `kernelscope` process: a None entry in sys.modules makes Python's import
raise ModuleNotFoundError, as it does when the package is not installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "saxpy.cu"
RUN_WITHOUT = ("import sys; sys.modules[{name!r}] = None; sys.argv = ['kernelscope', *sys.argv[1:]]; "
               "from kernelscope.cli import main; main()")


def _analyze_without(module: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN_WITHOUT.format(name=module), "analyze", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", ["tree_sitter_cuda", "tree_sitter"])
def test_a_missing_parser_package_is_named_with_exit_2(module):
    completed = _analyze_without(module)
    assert completed.returncode == 2
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    assert f"'{module}' is missing" in lines[0]
    assert sys.executable in lines[0]
    assert "internal error" not in lines[0] and "Traceback" not in completed.stderr
    assert completed.stdout == ""


def test_the_same_process_with_the_package_present_analyses():
    # the harness itself is not what fails: with a package no command needs made unimportable,
    # the example is analysed as usual
    completed = _analyze_without("kernelscope_no_such_package")
    assert completed.returncode in (0, 1), completed.stderr
    assert "saxpy" in completed.stdout

"""A fresh process of a quick command (analyze, lint, rules) ends without tearing itself down and
starts without numpy's BLAS threads (kernelscope.cli.main): its output, files and exit status are
what the same command gives in process (click's CliRunner, which main's shortcuts never touch), and
what it printed before ending is not lost."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope import cli as cli_module
from kernelscope.cli import QUICK_COMMANDS, cli, command_name
from kernelscope.gc_tuning import THRESHOLDS

ROOT = Path(__file__).parent.parent
SAXPY = ROOT / "examples" / "saxpy.cu"
REDUCTION = ROOT / "examples" / "reduction.cu"
RACY = "__global__ void k(float* x) { __shared__ float s[32]; s[threadIdx.x] = 1; x[0] = s[31 - threadIdx.x]; }\n"


def child_environment() -> dict:
    """This checkout first on the path, standard streams buffered as they are by default (a pipe's
    until it is flushed), no thread count chosen."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONUNBUFFERED", None)
    env.pop("OPENBLAS_NUM_THREADS", None)
    return env


def fresh(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelscope", *map(str, args)], capture_output=True,
                          env=child_environment(), cwd=ROOT)


def in_process(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("line, name", [
    (["analyze", "x.cu"], "analyze"),
    (["-q", "lint", "x.cu"], "lint"),
    (["analyze", "-v", "x.cu"], "analyze"),
    (["--color", "never", "rules"], "rules"),
    (["--color=always", "-vv", "analyze"], "analyze"),
    (["--color", "analyze"], None),              # (--color takes the word as its value)
    (["-V"], "-V"),
    (["--help"], "--help"),
    ([], None),
    (["run", "--", "analyze"], "run"),
])
def test_command_name_finds_the_command_wherever_the_global_options_stand(line, name):
    assert command_name(line) == name


@pytest.mark.parametrize("args", [
    ["analyze", "--format", "json", "--registers", "estimate", SAXPY],
    ["analyze", "--registers", "estimate", SAXPY, REDUCTION],
    ["-q", "analyze", "--format", "json", "--registers", "estimate", "no-such-file.cu"],
    ["lint", "--format", "json", "--registers", "estimate", "-j", "1", REDUCTION],
    ["rules"],
], ids=["json", "text", "missing file", "lint", "rules"])
def test_a_fresh_process_prints_and_exits_as_the_command_does_in_process(args):
    ran = fresh(*args)
    expected = in_process(*args)
    assert ran.returncode == expected.exit_code
    assert ran.stdout.decode() == expected.stdout
    assert ran.stderr.decode() == expected.stderr


def test_findings_at_error_severity_exit_1_and_a_report_file_is_complete(tmp_path):
    source = tmp_path / "racy.cu"
    source.write_text(RACY)
    report = tmp_path / "report.json"
    ran = fresh("analyze", "--format", "json", "--registers", "estimate", "-o", report, source)
    expected = in_process("analyze", "--format", "json", "--registers", "estimate", source)
    assert ran.returncode == expected.exit_code == 1
    assert report.read_text() == expected.stdout


def test_ending_without_teardown_flushes_what_was_printed():
    # stdout is a pipe here, so the text waits in Python's buffer: ending without the flush loses it
    script = ("import sys\nfrom kernelscope.cli import _end_without_teardown\n"
              "sys.stdout.write('printed, not flushed')\nsys.stderr.write('and a note')\n_end_without_teardown(3)\n")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, env=child_environment())
    assert (ran.returncode, ran.stdout, ran.stderr) == (3, b"printed, not flushed", b"and a note")


def test_a_message_as_exit_code_is_left_to_python():
    script = "from kernelscope.cli import _end_without_teardown\n_end_without_teardown('a message')\nprint('went on')\n"
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, env=child_environment())
    assert ran.returncode == 0 and ran.stdout == b"went on\n"


def test_quick_start_leaves_a_chosen_thread_count_and_sets_the_analysis_thresholds(monkeypatch):
    before = gc.get_threshold()
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    try:
        cli_module._start_quick_process()
        assert gc.get_threshold() == THRESHOLDS
    finally:
        gc.set_threshold(*before)
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    try:
        cli_module._start_quick_process()
    finally:
        gc.set_threshold(*before)
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


def test_a_quick_process_runs_numpy_without_blas_threads():
    # the thread count of a process that has imported numpy as `analyze` does
    script = ("import sys\nsys.argv = ['kernelscope', 'rules']\nimport kernelscope.cli as c\n"
              "c._start_quick_process()\nimport numpy\n"
              "print(open('/proc/self/status').read().split('Threads:')[1].split()[0])\n")
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, env=child_environment(), text=True)
    assert ran.stdout.strip() == "1", ran.stderr


def test_the_quick_commands_are_commands():
    assert QUICK_COMMANDS <= set(cli_module.COMMANDS)

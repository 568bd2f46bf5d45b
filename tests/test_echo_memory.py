"""Commands run in a loop in one process through click's CliRunner (tests, batch drivers, the in-process
benchmarks) must not keep each run's output alive. click.echo without a stream caches a wrapper of the
current standard stream in a weak-keyed table whose entry refers to its own key, so every CliRunner
invocation that echoed to it stayed alive to the end of the process (commands._common.echo)."""

from __future__ import annotations

import gc
import sys
import tracemalloc
from pathlib import Path

import click
from click.testing import CliRunner

from kernelscope.cli import cli
from kernelscope.commands._common import _is_os_file, echo

ROOT = Path(__file__).resolve().parent.parent
# files whose reports are large enough for a kept copy per run to stand out above what caches add
FILES = sorted(str(p) for pattern in ("examples/*.cu", "corpus/*/*.cu") for p in ROOT.glob(pattern))


def _kept_per_call(call, warm_ups: int, calls: int = 3) -> int:
    """Bytes still allocated per call of `call` over `calls` calls, after `warm_ups` calls and a
    collection (the caches a process keeps are filled by then)."""
    for _ in range(warm_ups):
        call()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(calls):
            call()
        gc.collect()
        return (tracemalloc.get_traced_memory()[0] - before) // calls
    finally:
        tracemalloc.stop()


def _growth_per_run(command: list[str]) -> tuple[int, int]:
    """(bytes still allocated per run of `command` after three warm-up runs, the size of one run's output)."""
    runner = CliRunner()
    sizes = []

    def once() -> None:
        result = runner.invoke(cli, command)
        assert result.exit_code in (0, 1), result.output[-2000:]
        sizes.append(len(result.stdout_bytes))

    return _kept_per_call(once, warm_ups=3), sizes[-1]


def test_analyze_json_runs_keep_no_output():
    growth, size = _growth_per_run(["analyze", "--registers", "estimate", "--format", "json", *FILES])
    assert size > 500_000
    # a kept run holds its output twice (the runner's buffer and the result's bytes): 2 * size; what the
    # process's caches still add is a fraction of one output (seen: up to a third, lint in the full suite)
    assert growth < size, (growth, size)


def test_analyze_text_runs_keep_no_output():
    growth, size = _growth_per_run(["analyze", "--registers", "estimate", *FILES])
    assert size > 50_000
    assert growth < size, (growth, size)


def test_lint_runs_keep_no_output():
    growth, size = _growth_per_run(["lint", "--format", "json", *FILES])
    assert size > 10_000
    assert growth < size, (growth, size)


def test_click_echo_without_a_stream_is_what_keeps_them():
    """The reason for echo(): the same loop through click.echo keeps every run's output (if click mends
    its cache some day, this test says that echo() is no longer needed)."""
    text = "x" * 300_000

    @click.command()
    @click.option("--ours", is_flag=True)
    def speak(ours):
        (echo if ours else click.echo)(text, nl=False)

    def growth(args: list[str]) -> int:
        runner = CliRunner()

        def once() -> None:
            assert runner.invoke(speak, args).output == text

        return _kept_per_call(once, warm_ups=1)

    assert growth(["--ours"]) < len(text) / 4
    assert growth([]) > len(text)


def test_echo_to_a_real_stream_goes_through_click(capfd):
    """Standard streams that are files keep click's own wrapper (nothing cached there grows)."""
    assert _is_os_file(sys.stdout) and _is_os_file(sys.stderr)     # (capfd's streams are files)
    echo("to stdout")
    echo("to stderr", err=True)
    captured = capfd.readouterr()
    assert captured.out == "to stdout\n"
    assert captured.err == "to stderr\n"

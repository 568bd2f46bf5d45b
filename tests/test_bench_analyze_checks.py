"""benchmarks/bench_analyze.py times only processes that did their work: a fresh process that fails
(a missing package, a crash) stops the benchmark with its error instead of being timed as a fast one."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_analyze  # noqa: E402

ENV = dict(os.environ)


def test_a_failing_fresh_process_stops_the_benchmark_with_its_error():
    command = [sys.executable, "-c", "import sys; sys.stderr.write('no parser here'); sys.exit(2)"]
    with pytest.raises(SystemExit) as stopped:
        bench_analyze.fresh_command_seconds(command, 3, ENV)
    assert "exit 2" in str(stopped.value) and "no parser here" in str(stopped.value)


@pytest.mark.parametrize("status", [0, 1])
def test_success_and_findings_are_timed(status):
    seconds = bench_analyze.fresh_command_seconds([sys.executable, "-c", f"raise SystemExit({status})"], 3, ENV)
    assert seconds > 0

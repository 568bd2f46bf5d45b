"""The sync analysis on kernels it was not written against: every corpus/ implementation that uses
shared memory, barriers, warp intrinsics or atomics (56 of them), which compute-sanitizer racecheck
and synccheck ran clean on the H200 at each spec's smallest size
(tests/kernels/sync/sanitizer/corpus_verdicts_h200.csv, from `sanitize_sync.py run --corpus`).
On those, every error or warning the analysis raised would be a false alarm."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file

pytestmark = pytest.mark.slow   # about 15 s: 112 analyses, some of 20 000 threads

ROOT = Path(__file__).resolve().parents[1]
VERDICTS = ROOT / "tests" / "kernels" / "sync" / "sanitizer" / "corpus_verdicts_h200.csv"


def driver():
    spec = importlib.util.spec_from_file_location("sanitize_sync", ROOT / "benchmarks" / "gpu" / "sanitize_sync.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENTRIES = driver().problem_entries()


def verdicts() -> dict:
    with open(VERDICTS, newline="") as handle:
        return {(row["kernel"], row["tool"]): row["verdict"] for row in csv.DictReader(handle)}


def test_every_synchronizing_implementation_was_sanitized_clean():
    measured = verdicts()
    assert len(ENTRIES) >= 50
    assert {(e["name"], tool) for e in ENTRIES for tool in ("racecheck", "synccheck")} == set(measured)
    assert set(measured.values()) == {"clean"}


@pytest.mark.parametrize("with_launch", [True, False], ids=["launch-bound", "lint"])
@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["name"])
def test_no_false_alarm_on_sanitizer_clean_kernels(entry, with_launch):
    path = ROOT / entry["file"]
    kernel = next(k for k in parse_file(path.read_text(), str(path)).kernels if k.name == entry["kernel"])
    bindings = {name: value for name, value in entry["bindings"].items() if isinstance(value, (int, float))}
    result = sync.analyze(kernel, tuple(entry["block"]), bindings if with_launch else {},
                          grid=tuple(entry["grid"]) if with_launch else None)
    alarms = [(d.rule, d.line, d.message) for d in sync.diagnostics(result, kernel, entry["file"])
              if d.severity != "info"]
    assert alarms == []

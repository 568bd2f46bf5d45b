"""On a GPU machine: compute-sanitizer's verdicts for the sync corpus are what was committed.

Runs benchmarks/gpu/sanitize_sync.py (about 20 s on the H200 with 12 parallel sanitizer processes)
and compares the verdicts with profiles/measured/sync_verdicts_h200.csv, so a changed kernel, driver
or sanitizer version shows up as a difference rather than as silently stale truth. (Hazard kinds and
the order racecheck names the two accesses in depend on timing, so only verdicts are compared.)
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.gpu


def rows(path: Path) -> dict:
    with open(path, newline="") as handle:
        return {(r["kernel"], r["tool"]): r["verdict"] for r in csv.DictReader(handle)}


@pytest.mark.skipif(shutil.which("compute-sanitizer") is None or shutil.which("nvcc") is None,
                    reason="needs compute-sanitizer and nvcc")
def test_sanitizer_verdicts_match_the_committed_ones(tmp_path):
    pytest.importorskip("cupy")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu" / "sanitize_sync.py"), "run", "--out",
                    str(tmp_path)], cwd=ROOT, check=True, timeout=600)
    fresh = rows(tmp_path / "sync_verdicts_h200.csv")
    committed = rows(ROOT / "profiles" / "measured" / "sync_verdicts_h200.csv")
    assert fresh == committed

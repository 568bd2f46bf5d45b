"""Parsing compute-sanitizer reports (benchmarks/gpu/sanitize_sync.py) without a GPU."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def driver():
    spec = importlib.util.spec_from_file_location("sanitize_sync", ROOT / "benchmarks" / "gpu" / "sanitize_sync.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record(output: str, tool: str = "racecheck", returncode=99) -> dict:
    return {"kernel": "k", "file": "k.cu", "tool": tool, "returncode": returncode, "output": output}


def test_committed_logs_parse_to_the_committed_verdicts(tmp_path):
    rows = driver().write_verdicts(ROOT / "tests" / "kernels" / "sync" / "sanitizer" / "logs_h200.jsonl",
                                   tmp_path / "verdicts.csv")
    with open(ROOT / "profiles" / "measured" / "sync_verdicts_h200.csv", newline="") as handle:
        committed = list(csv.DictReader(handle))
    assert [{k: str(v) for k, v in row.items()} for row in rows] == committed


def test_race_with_several_partners_gives_every_kind_and_line():
    output = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at k+0x140 in /src/k.cu:10
=========     and Read access at k+0x120 in /src/k.cu:9 [256 hazards]
=========     and Write access at k+0x170 in /src/k.cu:12 [128 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""
    row = driver().parse_record(record(output))
    assert (row["verdict"], row["hazard_kind"], row["lines"], row["severity"]) == ("hazard", "RAW;WAW", "9 10 12", "error")


def test_reports_about_other_files_are_ignored():
    output = """========= Warning: Race reported between Read access at f+0x10 in /lib/other.cu:3
=========     and Write access at f+0x20 in /lib/other.cu:4 [2 hazards]
"""
    assert driver().parse_record(record(output, returncode=0))["verdict"] == "clean"


def test_synccheck_barrier_error_keeps_its_title_and_line():
    output = """========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp.
=========     at k+0xe0 in /src/k.cu:9
=========     by thread (64,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 1 error
"""
    row = driver().parse_record(record(output, tool="synccheck"))
    assert (row["verdict"], row["hazard_kind"], row["lines"]) == \
        ("hazard", "Barrier error detected. Divergent thread(s) in warp", "9")


def test_timeouts_and_failures_are_not_called_clean():
    assert driver().parse_record(record("", returncode=None))["verdict"] == "timeout"
    assert driver().parse_record(record("========= Program hit cudaErrorLaunchFailure", returncode=1))["verdict"] == "failed"

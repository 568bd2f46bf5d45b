"""The race rules against the labelled race suite (tests/kernels/races/, read by
benchmarks/race_suite.py) and against compute-sanitizer on the H200, where it can see the race.

racecheck sees shared-memory hazards only; for global-memory races (inside a block or between
blocks) and for the cooperative launches, the label written in each file is the truth, and the
committed run shows racecheck passing those kernels clean."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERDICTS = ROOT / "profiles" / "measured" / "race_suite_verdicts_h200.csv"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


suite_module = _load(ROOT / "benchmarks" / "race_suite.py", "race_suite")
SUITE = suite_module.entries()


def test_the_suite_covers_memories_scopes_grids_and_cooperative_groups():
    assert len(SUITE) >= 60
    racy = [e for e in SUITE if e["label"] == "race"]
    assert 30 <= len(racy) <= len(SUITE) - 30       # as many look-alikes as races, roughly
    kinds = {(e["label"], e["memory"], e["between"]) for e in SUITE}
    for label in ("race", "race-free"):
        assert {(label, "shared", "threads-of-a-block"), (label, "shared", "lanes-of-a-warp"),
                (label, "global", "threads-of-a-block"), (label, "global", "lanes-of-a-warp"),
                (label, "global", "blocks")} <= kinds
    sources = {e["name"]: (ROOT / e["file"]).read_text() for e in SUITE}
    assert sum("cg::" in text for text in sources.values()) >= 10
    assert any(e["cooperative"] for e in SUITE)
    assert sum("blockIdx" in text and "__shared__" in text for text in sources.values()) >= 20


@pytest.mark.parametrize("bound", [True, False], ids=["launch-bound", "lint-no-grid"])
def test_precision_and_recall_on_the_suite(bound):
    result = suite_module.score(SUITE, bound)
    assert result["precision"] >= 0.95, result["mistakes"]
    assert result["recall"] >= 0.90, result["mistakes"]


def test_binding_the_launch_finds_at_least_what_lint_finds():
    assert suite_module.score(SUITE, True)["found"] >= suite_module.score(SUITE, False)["found"]


def verdicts() -> dict:
    with open(VERDICTS, newline="") as handle:
        return {(row["kernel"], row["tool"]): row for row in csv.DictReader(handle)}


@pytest.mark.skipif(not VERDICTS.exists(), reason="no sanitizer run committed yet")
def test_every_suite_kernel_ran_under_both_tools():
    measured = verdicts()
    assert {(e["name"], tool) for e in SUITE for tool in ("racecheck", "synccheck")} <= set(measured)
    assert {measured[(e["name"], t)]["verdict"] for e in SUITE for t in ("racecheck", "synccheck")} <= \
        {"hazard", "clean"}


@pytest.mark.skipif(not VERDICTS.exists(), reason="no sanitizer run committed yet")
def test_racecheck_agrees_with_every_shared_memory_label():
    measured = verdicts()
    disagree = [e["name"] for e in SUITE if e["memory"] == "shared" and
                (measured[(e["name"], "racecheck")]["verdict"] == "hazard") != (e["label"] == "race")]
    assert disagree == []


@pytest.mark.skipif(not VERDICTS.exists(), reason="no sanitizer run committed yet")
def test_racecheck_is_blind_to_global_memory_races():
    measured = verdicts()
    global_races = [e["name"] for e in SUITE if e["memory"] == "global" and e["label"] == "race"]
    assert global_races and all(measured[(name, "racecheck")]["verdict"] == "clean" for name in global_races)


@pytest.mark.skipif(not VERDICTS.exists(), reason="no sanitizer run committed yet")
def test_racecheck_lines_are_among_the_marked_lines():
    measured = verdicts()
    for entry in SUITE:
        row = measured[(entry["name"], "racecheck")]
        if entry["memory"] == "shared" and row["verdict"] == "hazard":
            assert {int(line) for line in row["lines"].split()} & set(entry["lines"]), entry["name"]


def test_committed_sanitizer_logs_parse_to_the_committed_verdicts(tmp_path):
    driver = _load(ROOT / "benchmarks" / "gpu" / "sanitize_sync.py", "sanitize_sync")
    rows = driver.write_verdicts(ROOT / "tests" / "kernels" / "races" / "sanitizer" / "logs_h200.jsonl",
                                 tmp_path / "verdicts.csv")
    with open(VERDICTS, newline="") as handle:
        committed = list(csv.DictReader(handle))
    assert [{k: str(v) for k, v in row.items()} for row in rows] == committed

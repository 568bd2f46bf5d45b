"""The sync analysis against the seeded corpus and compute-sanitizer's verdicts from the H200.

Truth comes from two places: the bug seeded in each kernel (tests/kernels/sync/manifest.toml) and
what racecheck / synccheck reported when each kernel ran on the H200
(profiles/measured/sync_verdicts_h200.csv, produced by benchmarks/gpu/sanitize_sync.py). The
sanitizer cannot see every seeded bug (a barrier skipped by whole warps, a return before a barrier,
a shuffle mask naming idle lanes, contention); for those the CUDA programming guide's rules are the
truth and the seeded label stands.
"""

from __future__ import annotations

import csv
import tomllib
from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernelscope.rules import sync as sync_rules

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "kernels" / "sync"
VERDICTS = ROOT / "profiles" / "measured" / "sync_verdicts_h200.csv"

BUG_OF_RULE = {
    "KS201": "divergent_barrier",
    "KS202": "shared_race",
    "KS204": "atomic_contention",
    "KS205": "shuffle_mask",
    "KS206": "return_before_barrier",
    "KS207": "missing_syncwarp",
}
RACE_BUGS = {"shared_race", "missing_syncwarp"}


def manifest() -> list[dict]:
    with open(CORPUS / "manifest.toml", "rb") as handle:
        return tomllib.load(handle)["kernel"]


def verdicts() -> dict:
    with open(VERDICTS, newline="") as handle:
        return {(row["kernel"], row["tool"]): row for row in csv.DictReader(handle)}


def load_kernel(entry: dict):
    path = CORPUS / entry["file"]
    model = parse_file(path.read_text(), str(path))
    return next(k for k in model.kernels if k.name == entry["name"])


def bindings_of(entry: dict, kernel, with_grid: bool = True) -> dict:
    bound = {param.name: spec["value"] for param, spec in zip(kernel.params, entry["args"]) if "scalar" in spec}
    if with_grid:
        bound.update({f"gridDim.{axis}": size for axis, size in zip("xyz", entry["grid"])})
    return bound


def findings(entry: dict, bound: bool = True) -> dict:
    """Seeded-bug kind -> set of lines, for the analysis's error and warning diagnostics."""
    kernel = load_kernel(entry)
    result = sync.analyze(kernel, tuple(entry["block"]), bindings_of(entry, kernel) if bound else {})
    found: dict = {}
    for diagnostic in sync_rules.findings(result, kernel, entry["file"]):
        bug = BUG_OF_RULE.get(diagnostic.rule)
        if bug:
            found.setdefault(bug, set()).add(diagnostic.line)
            found[bug].update(line for line, _, _ in diagnostic.related)
    return found


def scores(bound: bool) -> tuple[float, float, list]:
    true_positives = false_positives = bugs = 0
    mistakes = []
    for entry in manifest():
        seeded = entry["bug"]
        reported = set(findings(entry, bound))
        bugs += seeded != "none"
        if seeded != "none" and seeded in reported:
            true_positives += 1
        elif seeded != "none":
            mistakes.append((entry["name"], "missed", seeded))
        for kind in reported - {seeded}:
            false_positives += 1
            mistakes.append((entry["name"], "false", kind))
    precision = true_positives / max(1, true_positives + false_positives)
    return precision, true_positives / bugs, mistakes


def test_corpus_has_enough_bugs_and_tricky_correct_kernels():
    entries = manifest()
    seeded = [e for e in entries if e["bug"] != "none"]
    assert len(entries) >= 24
    assert 2 * len(seeded) >= len(entries)
    assert {e["bug"] for e in seeded} >= {"shared_race", "divergent_barrier", "return_before_barrier",
                                         "shuffle_mask", "atomic_contention", "missing_syncwarp"}
    assert all((CORPUS / e["file"]).is_file() for e in entries)


def test_racecheck_flags_exactly_the_seeded_races():
    measured = verdicts()
    for entry in manifest():
        hazard = measured[(entry["name"], "racecheck")]["verdict"] == "hazard"
        assert hazard == (entry["bug"] in RACE_BUGS), entry["name"]


def test_synccheck_only_flags_seeded_barrier_bugs():
    measured = verdicts()
    flagged = {name for (name, tool), row in measured.items() if tool == "synccheck" and row["verdict"] == "hazard"}
    seeded = {e["name"]: e["bug"] for e in manifest()}
    assert flagged
    assert all(seeded[name] == "divergent_barrier" for name in flagged)


def test_every_sanitizer_run_finished():
    assert {row["verdict"] for row in verdicts().values()} <= {"hazard", "clean"}
    assert len(verdicts()) == 2 * len(manifest())


def test_precision_and_recall_with_launch_bindings():
    precision, recall, mistakes = scores(bound=True)
    assert precision >= 0.95, mistakes
    assert recall >= 0.90, mistakes


def test_precision_and_recall_without_bindings_or_grid():
    # what `kernelscope lint` sees: no argument values and no grid, so symbolic judgements step in
    precision, recall, mistakes = scores(bound=False)
    assert precision >= 0.95, mistakes
    assert recall >= 0.90, mistakes


@pytest.mark.parametrize("entry", [e for e in manifest() if e["bug"] != "none"], ids=lambda e: e["name"])
def test_detected_bugs_point_at_a_seeded_line(entry):
    found = findings(entry)
    if entry["bug"] not in found:
        pytest.skip(f"{entry['name']}: not detected (counted in the recall test)")
    assert found[entry["bug"]] & set(entry["lines"])


@pytest.mark.parametrize("entry", [e for e in manifest() if e["bug"] in RACE_BUGS], ids=lambda e: e["name"])
def test_races_agree_with_racecheck_lines_and_kinds(entry):
    row = verdicts()[(entry["name"], "racecheck")]
    measured_lines = {int(line) for line in row["lines"].split()}
    measured_kinds = set(row["hazard_kind"].split(";"))
    kernel = load_kernel(entry)
    result = sync.analyze(kernel, tuple(entry["block"]), bindings_of(entry, kernel))
    predicted_lines = {r.first_line for r in result.shared_races} | {r.second_line for r in result.shared_races}
    predicted_kinds = {r.kind for r in result.shared_races}
    assert predicted_lines & measured_lines
    assert predicted_kinds & (measured_kinds | {entry["hazard"]})


@pytest.mark.parametrize("entry", [e for e in manifest() if e["bug"] == "divergent_barrier"], ids=lambda e: e["name"])
def test_divergent_barriers_cover_synccheck_reports(entry):
    row = verdicts()[(entry["name"], "synccheck")]
    if row["verdict"] != "hazard":
        pytest.skip("synccheck does not see this one (whole warps skip the barrier, or loop trip counts)")
    assert {int(line) for line in row["lines"].split()} <= findings(entry)["divergent_barrier"]

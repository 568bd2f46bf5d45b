"""Baselines record current findings and hide them later, surviving unrelated edits."""

import json

import pytest

from kernelscope.errors import UsageError
from kernelscope.lint.baseline import Baseline, write_baseline
from kernelscope.lint.config import SettingsResolver
from kernelscope.lint.engine import run_lint

from test_lint_engine import marker_analyzer


def lint(tmp_path, baseline=None):
    report = run_lint([tmp_path / "src"], SettingsResolver(), analyzer=marker_analyzer, jobs=1,
                      baseline=baseline)
    return [(f.diagnostic.rule, f.diagnostic.line) for f in report.findings]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.cu").write_text("x = 1; // FINDING(KS101)\ny = 2; // FINDING(KS202)\n")
    return tmp_path


def test_baselined_findings_are_hidden_and_new_ones_reported(project):
    report = run_lint([project / "src"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    assert write_baseline(project / "baseline.json", report.findings) == 2
    source = project / "src" / "a.cu"
    source.write_text("// a new comment line moves everything down\n" + source.read_text()
                      + "z = 3; // FINDING(KS202)\n")
    assert lint(project, Baseline(project / "baseline.json")) == [("KS202", 4)]


def test_editing_a_recorded_line_makes_its_finding_new(project):
    report = run_lint([project / "src"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    write_baseline(project / "baseline.json", report.findings)
    (project / "src" / "a.cu").write_text("x = 10; // FINDING(KS101)\ny = 2; // FINDING(KS202)\n")
    assert lint(project, Baseline(project / "baseline.json")) == [("KS101", 1)]


def test_identical_findings_are_counted_not_merged(project):
    (project / "src" / "a.cu").write_text("x; // FINDING(KS101)\n")
    report = run_lint([project / "src"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    write_baseline(project / "baseline.json", report.findings)
    (project / "src" / "a.cu").write_text("x; // FINDING(KS101)\nx; // FINDING(KS101)\n")
    assert lint(project, Baseline(project / "baseline.json")) == [("KS101", 2)]


def test_baseline_paths_are_relative_to_the_baseline_file(project, monkeypatch):
    report = run_lint([project / "src"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    write_baseline(project / "baseline.json", report.findings)
    entries = json.loads((project / "baseline.json").read_text())["findings"]
    assert {e["path"] for e in entries} == {"src/a.cu"}
    monkeypatch.chdir(project / "src")   # a run from elsewhere, with other relative paths
    report = run_lint(["a.cu"], SettingsResolver(), analyzer=marker_analyzer, jobs=1,
                      baseline=Baseline(project / "baseline.json"))
    assert report.findings == []


def test_missing_or_foreign_baseline_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        Baseline(tmp_path / "none.json")
    (tmp_path / "other.json").write_text('{"version": "2.1.0"}')
    with pytest.raises(UsageError, match="not a kernelscope baseline"):
        Baseline(tmp_path / "other.json")

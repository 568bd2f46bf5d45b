"""The engine: discovery, parallel runs equal serial runs, selection, severity, input errors.

`marker_analyzer` stands in for the analyses: it reports `FINDING(KSnnn)` markers in the source,
so these tests pin down the engine without depending on what the analyses detect.
"""

import re

from kernelscope import rules
from kernelscope.lint.config import Overrides, SettingsResolver
from kernelscope.lint.engine import run_lint
from kernelscope.model import Diagnostic

_MARKER = re.compile(r"FINDING\((KS\d+)\)")


def marker_analyzer(text, path, settings):
    return [Diagnostic(match.group(1), rules.severity_of(match.group(1)), path, number, match.start() + 1,
                       f"marker {match.group(1)}", kernel="k")
            for number, line in enumerate(text.splitlines(), start=1) for match in _MARKER.finditer(line)]


def make_tree(root, files=40):
    for n in range(files):
        folder = root / f"dir{n % 4}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"k{n}.cu").write_text(
            f"// file {n}\nx; // FINDING(KS10{1 + n % 3})\n" + ("y; // FINDING(KS201)\n" if n % 5 == 0 else ""))
    (root / "notes.txt").write_text("FINDING(KS101)\n")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "skip.cu").write_text("FINDING(KS101)\n")


def summary(report):
    return [(f.diagnostic.path, f.diagnostic.line, f.diagnostic.rule, f.fingerprint) for f in report.findings]


def test_directories_are_walked_for_cu_files_skipping_hidden_folders(tmp_path):
    make_tree(tmp_path, files=4)
    (tmp_path / "dir0" / "helpers.cuh").write_text("FINDING(KS402)\n")
    report = run_lint([tmp_path], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    names = sorted(o.path.rsplit("/", 1)[-1] for o in report.files)
    assert names == ["helpers.cuh", "k0.cu", "k1.cu", "k2.cu", "k3.cu"]


def test_parallel_run_gives_the_same_findings_as_a_serial_run(tmp_path):
    make_tree(tmp_path)
    serial = run_lint([tmp_path], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    parallel = run_lint([tmp_path], SettingsResolver(), analyzer=marker_analyzer, jobs=4)
    assert summary(parallel) == summary(serial)
    assert len(serial.findings) == 40 + 8


def test_selection_and_severity_overrides_apply_to_findings(tmp_path):
    (tmp_path / "a.cu").write_text("FINDING(KS101) FINDING(KS201) FINDING(KS402)\n")
    overrides = Overrides(ignore=("KS4",), severity=(("KS101", "error"),), fail_on="error")
    report = run_lint([tmp_path / "a.cu"], SettingsResolver(overrides), analyzer=marker_analyzer, jobs=1)
    assert [(f.diagnostic.rule, f.diagnostic.severity, f.failing) for f in report.findings] == [
        ("KS101", "error", True), ("KS201", "error", True)]


def test_unreadable_files_are_errors_and_do_not_stop_the_others(tmp_path):
    (tmp_path / "bad.cu").write_bytes(b"\x00\x01binary")
    (tmp_path / "good.cu").write_text("FINDING(KS101)\n")
    report = run_lint([tmp_path], SettingsResolver(), analyzer=marker_analyzer, jobs=2)
    assert [path.rsplit("/", 1)[-1] for path, _ in report.errors] == ["bad.cu"]
    assert [f.diagnostic.rule for f in report.findings] == ["KS101"]


def test_a_crashing_analysis_is_reported_per_file(tmp_path):
    (tmp_path / "a.cu").write_text("x\n")
    report = run_lint([tmp_path], SettingsResolver(), analyzer=crashing_analyzer, jobs=1)
    ((_, message),) = report.errors
    assert "internal error: ZeroDivisionError" in message


def crashing_analyzer(text, path, settings):
    return 1 / 0


def test_configured_exclude_and_include_globs(tmp_path):
    make_tree(tmp_path, files=8)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.kernelscope]\ninclude = ["*.cu", "*.txt"]\nextend-exclude = ["dir1", "dir2/k6.cu"]\n')
    report = run_lint([tmp_path], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    names = sorted(o.path.rsplit("/", 1)[-1] for o in report.files)
    assert names == ["k0.cu", "k2.cu", "k3.cu", "k4.cu", "k7.cu", "notes.txt"]


def test_a_file_named_explicitly_is_linted_even_if_it_does_not_match_include(tmp_path):
    (tmp_path / "kernel.cpp").write_text("FINDING(KS101)\n")
    report = run_lint([tmp_path / "kernel.cpp"], SettingsResolver(), analyzer=marker_analyzer, jobs=1)
    assert len(report.findings) == 1

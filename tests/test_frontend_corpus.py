"""The tricky-CUDA corpus: every kernel found where it is, errors located, nothing invented.

Each case in tests/kernels/tricky/expected.toml was written by hand from the source file; the
tests run `kernelscope analyze --format json` and compare. Most cases go through click's
CliRunner (fast, in process); two tests run the installed `kernelscope` command for real.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

CORPUS = Path(__file__).parent / "kernels" / "tricky"
CASES = tomllib.loads((CORPUS / "expected.toml").read_text())["case"]


def _case_id(case: dict) -> str:
    return case["file"] + ("[" + " ".join(case["args"]) + "]" if case.get("args") else "")


def _analyze_in_process(paths, extra_args=()) -> tuple[int, dict, str]:
    result = CliRunner().invoke(
        cli, ["analyze", "--format", "json", "--registers", "estimate", *extra_args, *map(str, paths)])
    assert "Traceback" not in result.output, result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"analyze raised {result.exception!r}") from result.exception
    return result.exit_code, json.loads(result.stdout) if result.exit_code in (0, 1) else {}, result.output


def _kernels_by_name(file_doc: dict) -> dict:
    kernels = {}
    for kernel in file_doc["kernels"]:
        assert kernel["name"] not in kernels, f"kernel {kernel['name']} reported twice"
        kernels[kernel["name"]] = kernel
    return kernels


def _normalise_args(args) -> tuple:
    return tuple("".join(str(a).split()) for a in args)


def _instantiation_recorded(expected: list, recorded: list) -> bool:
    """An instantiation as written, or the same with defaulted trailing arguments filled in."""
    want = _normalise_args(expected)
    return any(_normalise_args(r)[:len(want)] == want for r in recorded)


def _launch_template_args(kernel: dict) -> list:
    return [launch.get("template_args", []) for launch in kernel.get("launches", [])]


def _check_errors(case: dict, errors: list) -> None:
    ranges = case.get("error_lines", [])
    located = all(any(lo <= e["line"] <= hi for lo, hi in ranges) for e in errors)
    if case["errors"] == "none":
        assert errors == [], f"no syntax errors expected, got {errors}"
    elif case["errors"] == "some":
        assert errors, f"a syntax error was expected within lines {ranges}"
        assert located, f"errors outside lines {ranges}: {errors}"
    else:
        assert located, f"errors outside lines {ranges}: {errors}"
    for error in errors:
        assert error["line"] >= 1 and error["column"] >= 1 and error["message"].strip()


def _check_kernel(expected: dict, kernel: dict) -> None:
    name = expected["name"]
    assert kernel["line"] == expected["line"], f"{name}: line"
    if "column" in expected:
        assert kernel["column"] == expected["column"], f"{name}: column"
    if "launch_bounds" in expected:
        assert list(kernel["launch_bounds"]) == expected["launch_bounds"], f"{name}: launch bounds"
    for instantiation in expected.get("template_instantiations", []):
        assert _instantiation_recorded(instantiation, kernel["template_instantiations"]), \
            f"{name}: instantiation {instantiation} not in {kernel['template_instantiations']}"
    for arguments in expected.get("launch_template_args", []):
        recorded = kernel.get("template_instantiations", []) + _launch_template_args(kernel)
        assert _instantiation_recorded(arguments, recorded), \
            f"{name}: launch-site template arguments {arguments} not recorded (have {recorded})"
    if "block" in expected:
        assert list(kernel["block"]) == expected["block"], f"{name}: block shape from the launch site"
    if "dynamic_smem" in expected:
        assert kernel["occupancy"]["dynamic_shared_bytes"] == expected["dynamic_smem"], f"{name}: dynamic smem"
    if "static_shared_bytes" in expected:
        assert kernel["occupancy"]["static_shared_bytes"] == expected["static_shared_bytes"], \
            f"{name}: static shared bytes"
    global_accesses = [a for a in kernel["accesses"] if a["space"] == "global"]
    if "global_access_lines" in expected:
        assert sorted({a["line"] for a in global_accesses}) == expected["global_access_lines"], \
            f"{name}: lines of global accesses"
    for line, column in expected.get("global_access_positions", []):
        assert any((a["line"], a["column"]) == (line, column) for a in global_accesses), \
            f"{name}: no global access at {line}:{column}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_corpus_file_matches_hand_written_expectations(case):
    path = CORPUS / case["file"]
    exit_code, document, output = _analyze_in_process([path], case.get("args", ()))
    assert exit_code in (0, 1), output
    [file_doc] = document["files"]
    _check_errors(case, file_doc["errors"])
    kernels = _kernels_by_name(file_doc)
    assert sorted(kernels) == sorted(k["name"] for k in case["kernel"])
    for expected in case["kernel"]:
        _check_kernel(expected, kernels[expected["name"]])


def test_corpus_has_enough_files_and_each_has_expectations():
    files = {p.name for p in CORPUS.glob("*.cu")}
    assert len(files) >= 25
    assert files == {case["file"] for case in CASES}


def _installed_kernelscope() -> list[str]:
    script = Path(sys.executable).with_name("kernelscope")
    if script.exists():
        return [str(script)]
    found = shutil.which("kernelscope")
    if found is None:
        pytest.skip("the kernelscope console script is not installed")
    return [found]


def _default_cases() -> list[dict]:
    return [case for case in CASES if not case.get("args")]


def test_installed_command_analyses_whole_corpus_in_one_run():
    cases = _default_cases()
    command = _installed_kernelscope() + ["analyze", "--format", "json", "--registers", "estimate"]
    completed = subprocess.run(command + [str(CORPUS / c["file"]) for c in cases],
                               capture_output=True, text=True, timeout=120, env=os.environ.copy())
    assert "Traceback" not in completed.stderr
    assert completed.returncode in (0, 1), completed.stderr
    document = json.loads(completed.stdout)
    assert document["schema"] == "kernelscope.analysis/1"
    assert len(document["files"]) == len(cases)
    by_name = {Path(f["path"]).name: f for f in document["files"]}
    for case in cases:
        found = sorted(k["name"] for k in by_name[case["file"]]["kernels"])
        assert found == sorted(k["name"] for k in case["kernel"]), case["file"]


def test_installed_command_prints_text_report_naming_each_kernel():
    case = next(c for c in CASES if c["file"] == "launch_sites.cu")
    completed = subprocess.run(
        _installed_kernelscope() + ["analyze", "--registers", "estimate", str(CORPUS / case["file"])],
        capture_output=True, text=True, timeout=60)
    assert completed.returncode in (0, 1), completed.stderr
    assert "Traceback" not in completed.stderr
    for kernel in case["kernel"]:
        assert kernel["name"] in completed.stdout

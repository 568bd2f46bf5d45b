"""The JSON documents kernelscope writes agree with the JSON Schemas shipped in kernelscope/schemas/:
the analysis document of every example, test kernel and corpus kernel; the lint document of the
examples and test kernels; the run results measured on the H200 (profiles/measured/raw). And the
schemas are strict enough to reject documents that break the contract."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from kernelscope import schemas  # noqa: E402
from kernelscope.analyze import Options, analyze_path, document  # noqa: E402
from kernelscope.lint.config import SettingsResolver  # noqa: E402
from kernelscope.lint.engine import run_lint  # noqa: E402
from kernelscope.report.analysis_json import render  # noqa: E402
from kernelscope.report.lint_json import lint_document  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ESTIMATE = Options(registers="estimate")


def validator(name: str, definition: str | None = None):
    schema = schemas.load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    if definition is not None:
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    return jsonschema.Draft202012Validator(schema)


def problems(validator_, instance) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator_.iter_errors(instance)]


def cuda_files(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())


def analysis_document(paths) -> dict:
    # through the renderer, as `kernelscope analyze --format json` writes it (NaN -> null, tuples -> lists)
    return json.loads(render(document([analyze_path(p, ESTIMATE) for p in paths])))


def test_every_schema_file_is_a_valid_schema_named_after_its_document():
    for name, filename in schemas.FILES.items():
        schema = schemas.load(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["title"] == name
        assert schema["properties"]["schema"] == {"const": name}, filename


def test_schemas_ship_inside_the_package():
    folder = Path(schemas.__file__).parent
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(schemas.FILES.values())


@pytest.mark.parametrize("folder", ["examples", "tests/kernels", "corpus"])
def test_analysis_documents_of_real_files_follow_the_schema(folder):
    paths = cuda_files(folder)
    assert paths, folder
    doc = analysis_document(paths)
    assert len(doc["files"]) == len(paths)
    assert problems(validator("kernelscope.analysis/1"), doc) == []


def test_lint_documents_of_real_files_follow_the_schema():
    report = run_lint([str(ROOT / "examples"), str(ROOT / "tests" / "kernels")], SettingsResolver(), jobs=1)
    doc = json.loads(json.dumps(lint_document(report)))
    assert doc["diagnostics"], "the test kernels are written to have findings"
    assert problems(validator("kernelscope.lint/1"), doc) == []


@pytest.mark.parametrize("measured", ["batch_h200x1_details.json", "batch_h200x2_details.json"])
def test_run_results_measured_on_the_gpu_follow_the_schema(measured):
    details = json.loads((ROOT / "profiles" / "measured" / "raw" / measured).read_text())
    results = details["results_1gpu"] if "results_1gpu" in details else details["results"]
    assert results
    check = validator("kernelscope.run/1", "result")
    for result in results:
        assert problems(check, result) == [], result.get("candidate")
    doc = {"schema": "kernelscope.run/1", "problem": results[0]["problem"], "results": results}
    assert problems(validator("kernelscope.run/1"), doc) == []


def test_run_results_built_here_follow_the_schema():
    from kernelscope.runner.results import RunResult, SizeVerdict
    from kernelscope.runner.timing import summarize

    timing = summarize([1.0, 1.1, 0.9, 1.2])
    verdict = SizeVerdict(size="large", correct=True, trials=3, time_ms=timing.median_ms, time_spread=timing.cv,
                          timing=timing.to_json(), reference_time_ms=2.0, speedup=2.0 / timing.median_ms,
                          max_abs_error=float("inf"))
    failed = RunResult(problem="p", kernel=None, flags=["compile_error"], error="boom").finish()
    good = RunResult(problem="p", kernel="k", compiled=True, sizes=[verdict]).finish()
    for result in (failed, good):
        assert problems(validator("kernelscope.run/1", "result"), json.loads(json.dumps(result.to_json()))) == []


def _saxpy_document() -> dict:
    return analysis_document([ROOT / "examples" / "saxpy.cu"])


@pytest.mark.parametrize("breakage", [
    lambda d: d.pop("diagnostics"),
    lambda d: d.update(schema="kernelscope.analysis/2"),
    lambda d: d["files"][0]["kernels"][0].pop("occupancy"),
    lambda d: d["files"][0]["kernels"][0].update(block=[256, 1]),
    lambda d: d["files"][0]["kernels"][0]["accesses"][0].update(pattern="sideways"),
    lambda d: d["files"][0]["kernels"][0]["accesses"][0].pop("exec_weight"),
    lambda d: d["files"][0]["kernels"][0]["occupancy"].update(theoretical_occupancy=1.5),
    lambda d: d["files"][0]["kernels"][0]["intensity"].update(bound="fast"),
    lambda d: d["files"][0]["kernels"][0]["sync"].update(barriers=-1),
], ids=["no-diagnostics", "other-schema", "no-occupancy", "2d-block", "unknown-pattern", "no-exec-weight",
        "occupancy-over-1", "unknown-bound", "negative-barriers"])
def test_the_analysis_schema_rejects_documents_that_break_the_contract(breakage):
    doc = _saxpy_document()
    assert problems(validator("kernelscope.analysis/1"), doc) == []
    broken = copy.deepcopy(doc)
    breakage(broken)
    assert problems(validator("kernelscope.analysis/1"), broken) != []


def test_unknown_schema_names_are_refused():
    with pytest.raises(KeyError, match="no schema"):
        schemas.load("kernelscope.nothing/1")

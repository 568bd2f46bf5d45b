"""Reading a batch: JSON Lines candidates and folders of problems, checked before anything runs; and
the CPU half of the real evaluator, which must write the records `evaluate` writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kernelscope.batch import EvalOptions, RunnerEvaluator, load_items
from kernelscope.errors import InputError
from kernelscope.runner import device
from kernelscope.runner.evaluation import evaluate

ROOT = Path(__file__).resolve().parents[1]
VECTOR_ADD = ROOT / "examples" / "problems" / "vector_add"
needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
GOOD = ("__global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n")


def write_jsonl(tmp_path, *records) -> Path:
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" if isinstance(r, dict) else r + "\n" for r in records))
    return path


def test_jsonl_lines_become_items_with_paths_relative_to_the_file(tmp_path):
    (tmp_path / "k.cu").write_text(GOOD)
    path = write_jsonl(tmp_path,
                       {"spec": str(VECTOR_ADD), "source": GOOD, "kernel": "vector_add", "id": "inline"},
                       "",
                       {"spec": str(VECTOR_ADD / "spec.toml"), "file": "k.cu", "sizes": ["small"],
                        "launch": {"grid": ["ceil_div(n, 128)"], "block": [128]}})
    first, second = load_items(path)
    assert (first.index, first.label, first.kernel, first.source) == (0, "inline", "vector_add", GOOD)
    assert (second.index, second.label, second.source, second.sizes) == (1, "k.cu", GOOD, ("small",))
    assert second.spec.concrete_launch("small", second.launch).block == (128, 1, 1)
    assert first.spec is second.spec          # one spec object per problem, read once


@pytest.mark.parametrize("record, message", [
    ({"source": GOOD}, "'spec'"),
    ({"spec": str(VECTOR_ADD)}, "exactly one of"),
    ({"spec": str(VECTOR_ADD), "source": GOOD, "file": "x.cu"}, "exactly one of"),
    ({"spec": str(VECTOR_ADD), "source": GOOD, "colour": "red"}, "unknown keys colour"),
    ({"spec": str(VECTOR_ADD), "source": GOOD, "sizes": ["huge"]}, "'sizes'"),
    ({"spec": str(VECTOR_ADD), "source": GOOD, "launch": {"grid": ["m / 0 + q"]}}, "bad launch override"),
    ({"spec": str(VECTOR_ADD), "file": "missing.cu"}, "cannot read candidate"),
    ("[1, 2]", "JSON object"),
    ("{not json", "not JSON"),
])
def test_a_bad_line_is_an_input_error_naming_the_line(tmp_path, record, message):
    path = write_jsonl(tmp_path, {"spec": str(VECTOR_ADD), "source": GOOD}, record)
    with pytest.raises(InputError, match=message) as caught:
        load_items(path)
    assert f"{path}:2" in str(caught.value) or "cannot read" in str(caught.value)


def test_an_empty_batch_file_and_a_missing_path_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="no candidates"):
        load_items(write_jsonl(tmp_path, ""))
    with pytest.raises(InputError, match="no such"):
        load_items(tmp_path / "nothing.jsonl")
    with pytest.raises(InputError, match="no spec.toml"):
        load_items(tmp_path)


def test_a_folder_of_problems_yields_every_implementation_named_as_kernelscope_run_names_it():
    items = load_items(ROOT / "corpus")
    specs = {item.spec.path for item in items}
    assert len(specs) == len(list((ROOT / "corpus").glob("*/spec.toml")) + list((ROOT / "corpus").glob("*/problem.toml")))
    assert sum(len(load_items(path.parent)) for path in specs) == len(items)
    assert [item.index for item in items] == list(range(len(items)))
    vector = load_items(VECTOR_ADD)
    assert [i.label for i in vector] == ["naive.cu:vector_add", "vectorized.cu:vector_add_float4"]
    # the vectorized kernel's launch is the plan in its file, not an override on the item
    from kernelscope.runner.plan import plan_from_source

    assert vector[1].launch is None
    assert plan_from_source(vector[1].source, vector[1].spec).launches[0].grid == ("ceil_div(n, 1024)",)


@pytest.fixture
def gpu_check_passes(monkeypatch):
    """Let `evaluate` get past its GPU check: the records compared here are written before any GPU work."""
    monkeypatch.setattr(device, "gpu_available", lambda: True)


def without_timings(result) -> dict:
    data = result.to_json()
    data.pop("wall_seconds")
    return data


@pytest.mark.parametrize("source", [
    "int main() { return 0; }\n" + GOOD,                          # host code: rejected by the policy
    # does not compile; `evaluate` compiles in the GPU worker (under a time limit), so this needs a GPU
    pytest.param(GOOD.replace("c[i] = a[i] + b[i];", "c[i] = a[i] + undefined_name;"),
                 marks=[needs_nvcc, pytest.mark.gpu,
                        pytest.mark.skipif(not device.gpu_available(), reason="compiles in the GPU worker")]),
])
def test_prepare_writes_the_record_evaluate_writes_for_rejected_and_broken_sources(gpu_check_passes, source):
    [item] = load_items(VECTOR_ADD)[:1]
    prepared = RunnerEvaluator(EvalOptions(arch="sm_90", backend="nvcc")).prepare(
        type(item)(index=0, spec=item.spec, source=source, kernel="vector_add", label="x"))
    assert prepared.finished
    alone = evaluate(item.spec, source, "vector_add", arch="sm_90", backend="nvcc", candidate="x")
    assert without_timings(prepared.result) == without_timings(alone)


@needs_nvcc
def test_prepare_compiles_a_good_source_for_the_requested_architecture():
    item = load_items(VECTOR_ADD)[0]
    prepared = RunnerEvaluator(EvalOptions(arch="sm_90", backend="nvcc")).prepare(item)
    assert not prepared.finished
    assert prepared.compiled.arch == "sm_90" and prepared.compiled.kernel == "vector_add"
    assert prepared.compiled.cubin[:4] == b"\x7fELF"

"""The corpus of problems: every spec is complete, every kernel compiles, every reference agrees with
its prompt source, and the committed H200 measurements show correct kernels with a real speed spread."""

from __future__ import annotations

import csv
import ctypes
import importlib.util
import inspect
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]


def _load_reader():
    """corpus/problem_reader.py: the CPU-side reading of specs (inputs and references with numpy)."""
    location = REPO / "corpus" / "problem_reader.py"
    module_spec = importlib.util.spec_from_file_location("corpus_problem_reader", location)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module      # dataclasses look their module up while building
    module_spec.loader.exec_module(module)
    return module


spec = _load_reader()

PROBLEMS = spec.all_problems()
IDS = [p.name for p in PROBLEMS]
MEASURED = REPO / "profiles" / "measured" / "corpus_h200.csv"
PLANS_MEASURED = [REPO / "profiles" / "measured" / name for name in ("launch_plans_h200.csv",
                                                                      "launch_plans_relaunch_h200.csv")]
CTYPES = {"float32": ctypes.c_float, "float64": ctypes.c_double, "int32": ctypes.c_int}


def test_corpus_has_enough_problems_of_each_style():
    styles = [p.spec["style"] for p in PROBLEMS]
    assert len(PROBLEMS) >= 40
    assert styles.count("c") >= 25
    assert styles.count("pytorch") >= 15


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_problem_is_complete(problem):
    assert problem.name == problem.directory.name
    assert len(problem.sizes) >= 2
    strategies = [impl["strategy"] for impl in problem.implementations]
    assert len(set(strategies)) == len(strategies)
    # the plans/ implementations name their kernels in their plans; the others share one kernel name
    # (and carry a plan, if any, at the end of the file)
    single = [impl for impl in problem.implementations if not impl["file"].startswith("plans/")]
    assert len(single) >= 3
    kernels = {impl["kernel"] for impl in single}
    assert len(kernels) == 1, "every implementation of a problem takes the same kernel name"
    for impl in problem.implementations:
        source = (problem.directory / impl["file"]).read_text()
        if impl in single:
            assert f'extern "C" __global__ void {impl["kernel"]}(' in source
        else:
            assert "kernel" not in impl and source.startswith("/* kernelscope:plan\n")
    prompt = problem.directory / problem.spec["prompt_source"]
    assert prompt.exists()
    assert prompt.suffix == (".c" if problem.spec["style"] == "c" else ".py")
    names = [e["name"] for e in problem.spec["inputs"] + problem.spec["outputs"] + problem.spec.get("scalars", [])]
    assert sorted(problem.spec["launch"]["args"]) == sorted(names)


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_the_runner_accepts_the_spec(problem):
    from kernelscope.runner import load_spec

    spec = load_spec(problem.directory)
    assert [impl.file for impl in spec.implementations] == [impl["file"] for impl in problem.implementations]


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_small_size_is_not_a_multiple_of_the_block(problem):
    """The small size is odd-shaped so that bounds checks are exercised."""
    small = problem.sizes["small"]
    assert any(isinstance(v, int) and v % 2 == 1 for v in small.values())


def _c_reference(problem, inputs, size, tmp_path):
    library = tmp_path / f"{problem.name}.so"
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(library),
                    str(problem.directory / "reference.c"), "-lm"], check=True)
    function = getattr(ctypes.CDLL(str(library)), problem.implementations[0]["kernel"])
    outputs = {o["name"]: np.zeros(problem.shape(o, size), dtype=o["dtype"]) for o in problem.spec["outputs"]}
    scalars = problem.scalars(size)
    dtypes = {s["name"]: s["dtype"] for s in problem.spec.get("scalars", [])}
    arguments = []
    for name in problem.spec["launch"]["args"]:
        if name in scalars:
            arguments.append(CTYPES[dtypes[name]](scalars[name].item()))
        else:
            array = inputs.get(name, outputs.get(name))
            arguments.append(array.ctypes.data_as(ctypes.c_void_p))
    function(*arguments)
    return outputs


def _assert_close(problem, actual, expected):
    tolerance = problem.spec["tolerance"]
    for name, value in expected.items():
        np.testing.assert_allclose(actual[name], np.asarray(value).reshape(actual[name].shape),
                                   rtol=tolerance["rtol"], atol=tolerance["atol"], err_msg=name)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("problem", [p for p in PROBLEMS if p.spec["style"] == "c"],
                         ids=[p.name for p in PROBLEMS if p.spec["style"] == "c"])
def test_numpy_reference_matches_the_c_loops(problem, tmp_path):
    inputs = problem.make_inputs("small", np.random.default_rng(1))
    expected = problem.reference(inputs, "small")
    _assert_close(problem, _c_reference(problem, inputs, "small", tmp_path), expected)


@pytest.mark.parametrize("problem", [p for p in PROBLEMS if p.spec["style"] == "pytorch"],
                         ids=[p.name for p in PROBLEMS if p.spec["style"] == "pytorch"])
def test_numpy_reference_matches_the_pytorch_module(problem):
    torch = pytest.importorskip("torch")
    inputs = problem.make_inputs("small", np.random.default_rng(2))
    expected = problem.reference(inputs, "small")
    module = spec.load_module(problem.directory / problem.spec["prompt_source"])
    accepted = inspect.signature(module.forward).parameters
    arguments = {k: torch.from_numpy(v) for k, v in inputs.items()}
    arguments.update({k: v.item() for k, v in problem.scalars("small").items() if k in accepted})
    with torch.no_grad():
        result = module.forward(**arguments)
    if not isinstance(result, tuple):
        result = (result,)
    actual = {o["name"]: r.numpy().astype(o["dtype"]) for o, r in zip(problem.spec["outputs"], result)}
    _assert_close(problem, actual, expected)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_every_implementation_compiles_for_sm90(tmp_path):
    sources = [p.directory / impl["file"] for p in PROBLEMS for impl in p.implementations]

    def compile_one(source):
        out = tmp_path / f"{source.parent.name}_{source.stem}.o"
        result = subprocess.run(["nvcc", "-arch=sm_90", "-c", str(source), "-o", str(out)],
                                capture_output=True, text=True)
        return source, result.returncode, result.stderr

    with ThreadPoolExecutor() as pool:
        failures = [(str(s), err) for s, rc, err in pool.map(compile_one, sources) if rc != 0]
    assert not failures


def _measured_rows():
    if not MEASURED.exists():
        pytest.skip("no H200 measurements committed yet")
    with open(MEASURED, newline="") as handle:
        return list(csv.DictReader(handle))


def test_measurements_cover_every_implementation_at_every_size():
    """corpus_h200.csv (with ncu counters) measured the implementations outside plans/; the plans/
    ones, written later, are timed in launch_plans_h200.csv and launch_plans_relaunch_h200.csv (both
    sizes), correct."""
    measured = {(r["problem"], r["implementation"], r["size"]) for r in _measured_rows()}
    for path in PLANS_MEASURED:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
        for row in rows:
            if row["kind"] == "plan" and row["correct"] == "True":
                measured |= {(row["problem"], row["candidate"], size) for size in ("small", "large")
                             if row[f"{size}_ms"]}
    expected = {(p.name, impl["file"], size) for p in PROBLEMS for impl in p.implementations for size in p.sizes}
    assert expected <= measured


def test_every_implementation_was_correct_on_the_h200():
    wrong = [(r["problem"], r["implementation"], r["size"]) for r in _measured_rows() if r["correct"] != "True"]
    assert not wrong


def test_fastest_is_at_least_1_5x_faster_than_slowest_in_30_problems():
    times = {}
    for row in _measured_rows():
        if row["size"] == "large":
            times.setdefault(row["problem"], []).append(float(row["time_ms"]))
    spread = [max(t) / min(t) for t in times.values()]
    assert sum(s >= 1.5 for s in spread) >= 30

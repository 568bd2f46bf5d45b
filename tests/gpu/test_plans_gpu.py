"""Launch plans on a real GPU: a multi-kernel plan with scratch is verified and timed as one unit,
and the runner's checks hold for scratch buffers (fresh every execution, guarded)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kernelscope.runner import gpu_available, load_spec

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not gpu_available(), reason="needs an NVIDIA GPU with CuPy")]

ROOT = Path(__file__).resolve().parents[2]
PLANS = ROOT / "tests" / "kernels" / "adversarial" / "plans"
ROW_SUM = ROOT / "corpus" / "row_sum"


@pytest.fixture(scope="module")
def pool():
    from kernelscope.runner import WorkerPool

    with WorkerPool() as workers:
        yield workers


def _evaluate(name, pool, spec=ROW_SUM):
    from kernelscope.runner import evaluate

    return evaluate(load_spec(spec), (PLANS / name).read_text(), None, pool=pool, repeats=10)


def test_an_honest_two_kernel_plan_with_scratch_is_correct_and_timed(pool):
    result = _evaluate("two_pass.cu", pool)
    assert result.correct and not result.flags, result.to_json()
    assert result.kernel == "chunk_sums+finish"
    assert all(v.time_ms > 0 and v.speedup > 0 for v in result.sizes)


def test_scratch_is_fresh_for_every_execution_verified_and_timed(pool):
    result = _evaluate("counter_reset.cu", pool)
    assert result.correct and "timing_divergence" not in result.flags, result.to_json()


def test_reading_garbage_filled_scratch_as_if_zeroed_is_wrong(pool):
    result = _evaluate("stale_scratch.cu", pool)
    assert not result.correct and "mismatch" in result.flags, result.to_json()


def test_a_write_past_a_scratch_buffer_is_caught_by_its_guard(pool):
    result = _evaluate("scratch_overrun.cu", pool)
    assert not result.correct and "out_of_bounds_write" in result.flags, result.to_json()
    assert _evaluate("two_pass.cu", pool).correct        # the evaluator is healthy after it


def test_a_broken_plan_does_not_build(pool):
    from kernelscope.runner import evaluate

    source = (PLANS / "two_pass.cu").read_text().replace('"out", "rows", "chunks"]', '"rows", "chunks"]')
    result = evaluate(load_spec(ROW_SUM), source, None, pool=pool)
    assert not result.compiled and "compile_error" in result.flags and "output(s) out" in result.error


@pytest.mark.parametrize("plan", sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("corpus/*/plans/*.cu")))
def test_corpus_plan_implementations_are_correct(plan, pool):
    from kernelscope.runner import evaluate

    path = ROOT / plan
    result = evaluate(load_spec(path.parent.parent), path.read_text(), None, pool=pool, repeats=5)
    assert result.correct and not [f for f in result.flags if f != "implausible_speedup"], result.to_json()


@pytest.mark.skipif(shutil.which("ncu") is None, reason="needs Nsight Compute")
def test_profile_reports_every_launch_of_a_plan_with_its_own_grid_and_block():
    from kernelscope.runner.profile import Candidate, profile

    spec = load_spec(ROW_SUM)
    result = profile(spec, [Candidate("two_pass", (PLANS / "two_pass.cu").read_text())], sizes=["small"])
    frame = result.frame
    assert list(frame["kernel"]) == ["chunk_sums", "finish"] and list(frame["launch"]) == [1, 2]
    rows, cols = spec.sizes["small"]["rows"], spec.sizes["small"]["cols"]
    assert list(frame["grid"]) == [f"{-(-cols // 256)}x{rows}x1", f"{-(-rows // 128)}x1x1"]
    assert list(frame["block"]) == ["256x1x1", "128x1x1"]

"""The runner's defences through the batch path and for launch plans, on a real GPU: a compile bomb in
a batch ends at the batch's compile limit with the rest of the batch evaluated, and plans cannot carry
answers across executions (device globals are flagged, a memo in scratch never replays)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.runner import gpu_available, load_spec

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not gpu_available(), reason="needs an NVIDIA GPU with CuPy")]

ROOT = Path(__file__).resolve().parents[2]
ADVERSARIAL = ROOT / "tests" / "kernels" / "adversarial"
ROW_SUM = ROOT / "corpus" / "row_sum"


@pytest.fixture(scope="module")
def pool():
    from kernelscope.runner import WorkerPool

    with WorkerPool() as workers:
        yield workers


def _plan(name, pool):
    from kernelscope.runner import evaluate

    return evaluate(load_spec(ROW_SUM), (ADVERSARIAL / "plans" / name).read_text(), None, pool=pool, repeats=10)


def test_a_plan_that_memorises_its_answer_in_device_globals_is_flagged(pool):
    result = _plan("device_memo.cu", pool)
    assert not result.correct and "state_carried" in result.flags, result.to_json()
    assert _plan("two_pass.cu", pool).correct       # the evaluator is healthy after it


def test_a_memo_kept_in_declared_scratch_never_replays(pool):
    result = _plan("scratch_memo.cu", pool)
    assert result.correct and not result.flags, result.to_json()
    assert all(v.time_ms > 0 for v in result.sizes)


def test_a_compile_bomb_in_a_batch_stops_at_the_compile_limit_and_the_rest_is_evaluated():
    from kernelscope.batch import BatchItem, EvalOptions, run_batch

    spec = load_spec(ADVERSARIAL / "spec.toml")
    items = [BatchItem(index=0, spec=spec, source=(ADVERSARIAL / "compile_bomb.cu").read_text(), kernel="vector_add",
                       label="bomb"),
             BatchItem(index=1, spec=spec, source=(ADVERSARIAL / "correct.cu").read_text(), kernel="vector_add",
                       label="honest"),
             BatchItem(index=2, spec=load_spec(ROW_SUM), source=(ADVERSARIAL / "plans" / "two_pass.cu").read_text(),
                       label="plan")]
    outcomes = {o.result.candidate: o.result for o in run_batch(items, EvalOptions(compile_timeout_s=5, repeats=10))}
    assert outcomes["bomb"].flags == ["compile_error"] and outcomes["bomb"].error == "compilation took more than 5 s"
    assert outcomes["honest"].correct and not outcomes["honest"].flags, outcomes["honest"].to_json()
    assert outcomes["plan"].correct and not outcomes["plan"].flags, outcomes["plan"].to_json()

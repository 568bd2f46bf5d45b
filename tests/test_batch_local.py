"""The local batch backend: every candidate once, streamed as it finishes, spread over the GPUs,
retried when a GPU slot (not the candidate) fails. A fake evaluator stands in for the GPU on the CPU;
the GPU test at the end compares a real batch with one-by-one runs."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kernelscope.batch import BatchItem, EvalOptions, Prepared, iter_batch, run_batch
from kernelscope.batch.local import run_local
from kernelscope.errors import ToolMissingError
from kernelscope.runner.device import gpu_available
from kernelscope.runner.results import RunResult, SizeVerdict
from kernelscope.runner.spec import load_spec
from kernelscope.runner.worker import WorkerError

ROOT = Path(__file__).resolve().parents[1]
VECTOR_ADD = ROOT / "examples" / "problems" / "vector_add"


class Activity:
    """How many fake sessions evaluate at once, and the most at any time (counted per process: a
    pickled copy, as Ray ships it, starts again at zero)."""

    def __init__(self):
        self.running = self.peak = 0
        self._lock = threading.Lock()

    def __reduce__(self):
        return Activity, ()

    def __enter__(self):
        with self._lock:
            self.running += 1
            self.peak = max(self.peak, self.running)

    def __exit__(self, *exc):
        with self._lock:
            self.running -= 1


@dataclass
class FakeEvaluator:
    """Candidates say in their source what happens to them: `good` passes, anything else mismatches,
    `nocompile` fails to compile, `sleep=S` takes S seconds on the GPU, `die` kills the Ray actor that
    runs it the first time (once per `marker_dir`). Sessions on `broken_devices` cannot run anything."""
    broken_devices: frozenset = frozenset()
    marker_dir: str | None = None
    activity: Activity = field(default_factory=Activity)

    def prepare(self, item: BatchItem) -> Prepared:
        if "nocompile" in item.source:
            result = RunResult(problem=item.spec.name, kernel=item.kernel, candidate=item.label,
                               flags=["compile_error"], error="compilation failed")
            return Prepared(item, result=result.finish())
        return Prepared(item, compiled=item.source.encode())

    def bound_to_device(self) -> "FakeEvaluator":
        return self

    def open(self, device: int) -> "FakeSession":
        return FakeSession(self, device)


class FakeSession:
    def __init__(self, evaluator: FakeEvaluator, device: int):
        self.evaluator, self.device = evaluator, device

    def warm_up(self) -> None:
        pass

    def close(self) -> None:
        pass

    def evaluate(self, prepared: Prepared) -> RunResult:
        if self.device in self.evaluator.broken_devices:
            raise WorkerError("the GPU worker did not start")
        source = prepared.item.source
        if "die" in source and self.evaluator.marker_dir:
            marker = Path(self.evaluator.marker_dir, f"died-{prepared.item.index}")
            if not marker.exists():
                marker.touch()
                os._exit(1)
        with self.evaluator.activity:
            for word in source.split():
                if word.startswith("sleep="):
                    time.sleep(float(word[6:]))
        good = "good" in source
        verdict = SizeVerdict(size="small", correct=good, trials=3, flags=[] if good else ["mismatch"])
        # where it ran, as the process saw it (the Ray tests check the GPU assignment)
        seen = f"device={self.device} visible={os.environ.get('CUDA_VISIBLE_DEVICES', '')}"
        return RunResult(problem=prepared.item.spec.name, kernel=prepared.item.kernel,
                         candidate=prepared.item.label, compiled=True, sizes=[verdict], compile_log=seen).finish()


@pytest.fixture(scope="module")
def spec():
    return load_spec(VECTOR_ADD)


def make_items(spec, sources):
    return [BatchItem(index=i, spec=spec, source=s, kernel="k", label=f"c{i}") for i, s in enumerate(sources)]


def one_by_one(evaluator, items):
    """What evaluating each candidate alone gives: prepare, then one session."""
    session = evaluator.open(0)
    results = []
    for item in items:
        prepared = evaluator.prepare(item)
        results.append(prepared.result if prepared.finished else session.evaluate(prepared))
    return results


def comparable(result: RunResult) -> dict:
    data = result.to_json()
    data.pop("wall_seconds")
    data.pop("compile_log")
    return data


def test_a_batch_gives_every_candidate_exactly_the_record_of_a_one_by_one_run(spec):
    sources = ["good", "bad", "nocompile", "good sleep=0.05", "bad sleep=0.02", "good"] * 3
    items = make_items(spec, sources)
    outcomes = run_batch(items, evaluator=FakeEvaluator(), devices=[0, 1])
    assert [o.index for o in outcomes] == list(range(len(items)))
    alone = one_by_one(FakeEvaluator(), items)
    assert [comparable(o.result) for o in outcomes] == [comparable(r) for r in alone]


def test_results_stream_in_the_order_they_finish_not_the_order_given(spec):
    items = make_items(spec, ["good sleep=0.6", "good", "good", "good"])
    stream = iter_batch(items, evaluator=FakeEvaluator(), devices=[0, 1])
    started = time.perf_counter()
    first = next(stream)
    assert first.index != 0 and time.perf_counter() - started < 0.5
    rest = list(stream)
    assert rest[-1].index == 0
    assert sorted(o.index for o in [first, *rest]) == [0, 1, 2, 3]


def test_every_gpu_runs_candidates_at_the_same_time(spec):
    evaluator = FakeEvaluator()
    items = make_items(spec, ["good sleep=0.2"] * 8)
    started = time.perf_counter()
    outcomes = run_batch(items, evaluator=evaluator, devices=[0, 1, 2, 3])
    elapsed = time.perf_counter() - started
    assert evaluator.activity.peak == 4
    assert {o.slot for o in outcomes} == {0, 1, 2, 3}
    assert elapsed < 8 * 0.2 * 0.6          # serial would take 1.6 s


def test_one_worker_per_gpu_never_runs_two_candidates_on_one_gpu(spec):
    evaluator = FakeEvaluator()
    run_batch(make_items(spec, ["good sleep=0.05"] * 6), evaluator=evaluator, devices=[0])
    assert evaluator.activity.peak == 1


def test_candidates_that_fail_to_compile_never_take_a_gpu(spec):
    outcomes = run_batch(make_items(spec, ["nocompile", "good"]), evaluator=FakeEvaluator(), devices=[0])
    assert outcomes[0].slot is None and outcomes[0].attempts == 0
    assert outcomes[0].result.flags == ["compile_error"]
    assert outcomes[1].slot == 0 and outcomes[1].attempts == 1 and outcomes[1].result.correct


def test_a_broken_gpu_is_retired_and_its_candidates_run_on_the_others(spec):
    items = make_items(spec, ["good sleep=0.01"] * 10)
    outcomes = run_batch(items, evaluator=FakeEvaluator(broken_devices=frozenset({1})), devices=[0, 1])
    assert len(outcomes) == 10
    assert all(o.result.correct and o.slot == 0 for o in outcomes)
    assert sum(o.attempts for o in outcomes) <= 10 + 2     # the broken GPU got at most two tries


def test_when_every_gpu_is_broken_each_candidate_gets_a_harness_error(spec):
    items = make_items(spec, ["good", "bad", "nocompile", "good"])
    outcomes = run_batch(items, evaluator=FakeEvaluator(broken_devices=frozenset({0, 1})), devices=[0, 1])
    assert [o.index for o in outcomes] == [0, 1, 2, 3]
    assert outcomes[2].result.flags == ["compile_error"]
    for outcome in (outcomes[0], outcomes[1], outcomes[3]):
        assert outcome.result.flags == ["harness_error"] and not outcome.result.correct
        assert "WorkerError" in outcome.result.error or "every GPU slot failed" in outcome.result.error


def test_a_missing_tool_while_compiling_stops_the_batch(spec):
    class NoCompiler(FakeEvaluator):
        def prepare(self, item):
            raise ToolMissingError("NVRTC is not available")

    with pytest.raises(ToolMissingError):
        run_batch(make_items(spec, ["good"]), evaluator=NoCompiler(), devices=[0])


def test_an_unknown_size_is_a_usage_error_before_anything_runs(spec):
    from kernelscope.errors import UsageError

    with pytest.raises(UsageError, match="unknown size"):
        run_batch(make_items(spec, ["good"]), EvalOptions(sizes=("huge",)), evaluator=FakeEvaluator(), devices=[0])


def test_without_devices_the_local_backend_refuses():
    from kernelscope.errors import KernelscopeError

    with pytest.raises(KernelscopeError):
        list(run_local([], FakeEvaluator(), []))


def test_outcome_json_carries_the_run_record_and_where_it_ran(spec):
    [outcome] = run_batch(make_items(spec, ["good"]), evaluator=FakeEvaluator(), devices=[3])
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["schema"] == "kernelscope.run/1" and data["slot"] == 3 and data["attempts"] == 1
    assert data["index"] == 0 and data["correct"] is True


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs an NVIDIA GPU with CuPy")
def test_a_real_batch_on_every_gpu_agrees_with_one_by_one_runs():
    from kernelscope.batch import load_items
    from kernelscope.runner.evaluation import evaluate
    from kernelscope.runner.results import FAILING_FLAGS

    items = load_items(VECTOR_ADD)
    wrong = "__global__ void vector_add(const float *a, const float *b, float *c, int n) {\n" \
            "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] - b[i]; }\n"
    items.append(BatchItem(index=len(items), spec=items[0].spec, source=wrong, kernel="vector_add", label="wrong"))
    outcomes = run_batch(items, EvalOptions(seed=7))
    for item, outcome in zip(items, outcomes):
        alone = evaluate(item.spec, item.source, item.kernel, launch=item.launch, seed=7, candidate=item.label)
        assert outcome.result.correct == alone.correct
        assert set(outcome.result.flags) & FAILING_FLAGS == set(alone.flags) & FAILING_FLAGS
        assert [v.mismatched_elements for v in outcome.result.sizes] == [v.mismatched_elements for v in alone.sizes]
    assert [o.result.correct for o in outcomes] == [True, True, False]

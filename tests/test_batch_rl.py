"""BatchRunMany as the RL layer's run_many_fn: results in candidate order, GPUs kept across steps,
harness failures raised as the RL layer expects, and the unified reward scoring through it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from test_batch_local import VECTOR_ADD, FakeEvaluator

from kernelscope.batch.rl import BatchRunMany
from kernelscope.rl.reward import HarnessError

TASK = SimpleNamespace(spec_path=str(VECTOR_ADD / "spec.toml"), implementation=None)


def test_results_come_back_in_candidate_order_and_the_gpus_stay_up_between_calls():
    run_many = BatchRunMany(evaluator=FakeEvaluator(), devices=[0, 1])
    try:
        first = run_many(TASK, [("bad sleep=0.2", "k"), ("good", "k"), ("nocompile", "k")])
        assert [r.correct for r in first] == [False, True, False]
        assert first[2].flags == ["compile_error"]
        gpus = run_many._gpus
        second = run_many(TASK, [("good", "k")])
        assert second[0].correct and run_many._gpus is gpus
    finally:
        run_many.close()
    assert run_many._gpus is None


def test_a_known_implementation_runs_with_the_launch_its_source_carries():
    seen = []

    class Recording(FakeEvaluator):
        def prepare(self, item):
            seen.append(item)
            return super().prepare(item)

    from kernelscope.runner.plan import plan_from_source

    source = (VECTOR_ADD / "vectorized.cu").read_text()
    task = SimpleNamespace(spec_path=TASK.spec_path, implementation="vectorized.cu")
    run_many = BatchRunMany(evaluator=Recording(), devices=[0])
    try:
        run_many(task, [(source, "vector_add_float4")])
    finally:
        run_many.close()
    assert seen[0].launch is None          # no override: the plan travels in the source
    assert plan_from_source(seen[0].source, seen[0].spec).launches[0].grid == ("ceil_div(n, 1024)",)


def test_a_candidate_the_harness_could_not_run_raises_harness_error():
    run_many = BatchRunMany(evaluator=FakeEvaluator(broken_devices=frozenset({0})), devices=[0])
    try:
        with pytest.raises(HarnessError, match="GPU"):
            run_many(TASK, [("good", "k")])
    finally:
        run_many.close()


def test_the_unified_reward_scores_through_the_batch(monkeypatch):
    from kernelscope.rl.reward import RewardConfig, UnifiedReward
    from kernelscope.rl.tasks import load_task

    task = load_task(VECTOR_ADD / "spec.toml")
    source = (VECTOR_ADD / "naive.cu").read_text()
    wrong = source.replace("a[i] + b[i]", "a[i] - b[i]")
    fake = FakeEvaluator()

    class ByOperator(FakeEvaluator):
        """Pass the source that adds; fail the one that subtracts."""

        def prepare(self, item):
            marker = "good" if "a[i] + b[i]" in item.source else "bad"
            return super().prepare(type(item)(**{**item.__dict__, "source": marker}))

    run_many = BatchRunMany(evaluator=ByOperator(activity=fake.activity), devices=[0, 1])
    try:
        reward = UnifiedReward(RewardConfig(mode="full"), run_many_fn=run_many)
        good, bad = reward.score_many([f"```cuda\n{source}```", f"```cuda\n{wrong}```"], [task, task])
    finally:
        run_many.close()
    assert good.band == "pass" and bad.outcome == "incorrect" and good.total > bad.total

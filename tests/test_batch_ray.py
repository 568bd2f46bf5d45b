"""The Ray backend on a local Ray cluster that pretends to have GPUs (Ray schedules by declared
resources, so actors of one "GPU" each are placed and given CUDA_VISIBLE_DEVICES without any GPU)."""

from __future__ import annotations

import sys

import pytest

ray = pytest.importorskip("ray")

import test_batch_local  # noqa: E402  (the fake evaluator; shipped to Ray's workers by value)
from test_batch_local import FakeEvaluator, comparable, make_items, one_by_one  # noqa: E402

from kernelscope.batch import run_batch  # noqa: E402
from kernelscope.runner.spec import load_spec  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    ray.cloudpickle.register_pickle_by_value(test_batch_local)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=4, num_gpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def spec():
    return load_spec(test_batch_local.VECTOR_ADD)


def test_every_candidate_gets_one_record_equal_to_a_one_by_one_run(cluster, spec):
    items = make_items(spec, ["good", "bad", "nocompile", "good sleep=0.05"] * 4)
    outcomes = run_batch(items, backend="ray", evaluator=FakeEvaluator())
    assert [o.index for o in outcomes] == list(range(len(items)))
    assert [comparable(o.result) for o in outcomes] == [comparable(r) for r in one_by_one(FakeEvaluator(), items)]


def test_each_actor_holds_one_gpu_of_its_own(cluster, spec):
    outcomes = run_batch(make_items(spec, ["good sleep=0.2"] * 8), backend="ray", evaluator=FakeEvaluator())
    seen = {o.slot: o.result.compile_log for o in outcomes}
    assert set(seen) == {0, 1}
    visible = {log.split("visible=")[1] for log in seen.values()}
    assert len(visible) == 2 and all(v.isdigit() for v in visible)      # one distinct GPU each


def test_a_candidate_whose_actor_died_is_run_again_and_reported_once(cluster, spec, tmp_path):
    items = make_items(spec, ["good", "good die", "bad", "good", "good die sleep=0.1", "good"])
    outcomes = run_batch(items, backend="ray", evaluator=FakeEvaluator(marker_dir=str(tmp_path)), max_attempts=3)
    assert [o.index for o in outcomes] == list(range(len(items)))
    assert {p.name for p in tmp_path.iterdir()} == {"died-1", "died-4"}   # each killed its actor once
    for outcome in outcomes:
        expected_attempts = 2 if "die" in items[outcome.index].source else 1
        assert outcome.attempts == expected_attempts
        assert outcome.result.correct == ("good" in items[outcome.index].source)


def test_asking_for_more_gpus_than_the_cluster_has_is_a_usage_error(cluster, spec):
    from kernelscope.errors import UsageError

    # an actor Ray cannot place would keep its candidates waiting forever
    with pytest.raises(UsageError, match="offers 2 GPU"):
        run_batch(make_items(spec, ["good"]), backend="ray", workers=3, evaluator=FakeEvaluator())


def test_a_batch_on_fewer_gpus_than_the_cluster_has_uses_only_those(cluster, spec):
    outcomes = run_batch(make_items(spec, ["good sleep=0.05"] * 4), backend="ray", workers=1,
                         evaluator=FakeEvaluator())
    assert {o.slot for o in outcomes} == {0} and all(o.result.correct for o in outcomes)


def test_the_rl_run_many_keeps_its_actors_from_one_call_to_the_next(cluster, spec):
    from types import SimpleNamespace

    from kernelscope.batch.rl import BatchRunMany

    task = SimpleNamespace(spec_path=str(spec.path), implementation=None)
    run_many = BatchRunMany(backend="ray", evaluator=FakeEvaluator())
    try:
        first = run_many(task, [("good", "k"), ("bad", "k")])
        actors = list(run_many._gpus.actors)
        second = run_many(task, [("bad", "k"), ("good", "k")])
        assert [r.correct for r in first + second] == [True, False, False, True]
        assert run_many._gpus.actors == actors and len(actors) == 2
    finally:
        run_many.close()
    assert ray.is_initialized()        # the test's cluster was not started by the backend: left running

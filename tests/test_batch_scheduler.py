"""The scheduler's bookkeeping: nothing lost, nothing twice, retries bounded, problems kept together."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.batch import BatchItem, Prepared
from kernelscope.batch.scheduler import Scheduler
from kernelscope.runner.results import RunResult
from kernelscope.runner.spec import load_spec

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def specs():
    return [load_spec(ROOT / "corpus" / name) for name in ("saxpy", "matmul", "transpose")]


def prepared_items(specs, problems):
    """One compiled candidate per entry of `problems` (indices into `specs`)."""
    return [Prepared(BatchItem(index=i, spec=specs[p], source="", label=f"c{i}"), compiled=b"")
            for i, p in enumerate(problems)]


def result_for(prepared):
    return RunResult(problem=prepared.item.spec.name, kernel=None, compiled=True).finish()


def test_a_second_result_for_a_candidate_is_dropped(specs):
    [prepared] = prepared_items(specs, [0])
    scheduler = Scheduler([prepared.item], ["a", "b"])
    scheduler.prepared(prepared)
    [(slot, work)] = scheduler.assignments()
    assert len(scheduler.ran(slot, work, result_for(work))) == 1
    assert scheduler.ran("b", work, result_for(work)) == []
    assert scheduler.duplicates == 1 and scheduler.finished


def test_a_failed_slot_puts_the_candidate_back_at_the_front(specs):
    first, second = prepared_items(specs, [0, 1])
    scheduler = Scheduler([first.item, second.item], ["a"], slot_failure_limit=5)
    scheduler.prepared(first)
    scheduler.prepared(second)
    [(slot, work)] = scheduler.assignments()
    assert work is first
    assert scheduler.run_failed(slot, work, RuntimeError("worker lost")) == []
    [(slot, again)] = scheduler.assignments()
    assert again is first and scheduler.attempts[0] == 2


def test_attempts_are_bounded_and_end_in_a_harness_error(specs):
    [prepared] = prepared_items(specs, [0])
    scheduler = Scheduler([prepared.item], ["a", "b", "c"], max_attempts=2)
    scheduler.prepared(prepared)
    outcomes = []
    while not scheduler.finished:
        for slot, work in scheduler.assignments():
            outcomes += scheduler.run_failed(slot, work, RuntimeError("actor died"))
    [outcome] = outcomes
    assert outcome.result.flags == ["harness_error"] and outcome.attempts == 2
    assert "2 attempts" in outcome.result.error and "actor died" in outcome.result.error


def test_a_slot_that_keeps_failing_is_retired(specs):
    items = prepared_items(specs, [0, 0, 0])
    scheduler = Scheduler([p.item for p in items], ["bad", "good"], slot_failure_limit=2, max_attempts=5)
    for p in items:
        scheduler.prepared(p)
    done = []
    while not scheduler.finished:
        for slot, work in scheduler.assignments():
            if slot == "bad":
                done += scheduler.run_failed(slot, work, RuntimeError("no GPU"))
            else:
                done += scheduler.ran(slot, work, result_for(work))
    assert "bad" not in scheduler.live_slots
    assert sorted(o.index for o in done) == [0, 1, 2] and all(o.slot == "good" for o in done)


def test_a_free_slot_takes_a_candidate_of_a_problem_it_already_ran(specs):
    # queue: saxpy, matmul, transpose, matmul, saxpy; slots a and b
    items = prepared_items(specs, [0, 1, 2, 1, 0])
    scheduler = Scheduler([p.item for p in items], ["a", "b"])
    for p in items:
        scheduler.prepared(p)
    placed = {}
    first = scheduler.assignments()                      # a: saxpy, b: matmul
    placed.update({work.item.index: slot for slot, work in first})
    for slot, work in first:
        scheduler.ran(slot, work, result_for(work))
    for slot, work in scheduler.assignments():           # both know a problem further down the queue
        placed[work.item.index] = slot
    assert placed[4] == placed[0] and placed[3] == placed[1]
    assert 2 not in placed                               # transpose waits: nobody has it yet, and it is not lost
    assert [p.item.index for p in scheduler.ready] == [2]

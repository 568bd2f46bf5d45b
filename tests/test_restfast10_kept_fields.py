"""memory._kept_access looks an access' kept fields up in Lanes.answers (the dict Lanes.kept keeps its
answers in) before it makes the closure that computes them: on fresh environments (nothing kept, so
every access' fields are computed here) and again (every one found), each AccessResult is the general
path's (_access), field by field and type by type."""

import pytest

from kernelscope.analyses import memory
from kernelscope.analyses.threads import BlockShape, Lanes, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from project_sources import project_kernels

CASES = [(BlockShape(256), {}), (BlockShape(100), {}), (BlockShape(128), {"n": 4096, "width": 1024})]


def _fields(result):
    return [[(name, type(value), value) for name, value in vars(access).items()] for access in result.accesses]


def _unshared_weights(block, bindings):
    # (signature None: a Lanes with kept values of its own, so nothing is found from earlier tests)
    return ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block), None)


def test_the_answers_are_those_kept_answers_keeps():
    block = BlockShape(64)
    lanes = Lanes(thread_env(block), block.slots, active_slots(block))
    other = Lanes(thread_env(block), block.slots, active_slots(block))
    assert lanes.answers is other.answers                       # an equal environment's
    assert lanes.kept(("a key",), lambda: (1, 2)) == (1, 2)
    assert other.answers[("a key",)] == (1, 2)


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_fields_computed_then_found_are_the_general_answers(monkeypatch, block, bindings):
    computed = 0
    for kernel in project_kernels():
        monkeypatch.setattr(memory, "KEEP_ACCESS_FIELDS", False)
        general = _fields(memory.analyze(kernel, block, bindings, None, _unshared_weights(block, bindings)))
        monkeypatch.setattr(memory, "KEEP_ACCESS_FIELDS", True)
        weights = _unshared_weights(block, bindings)
        before = len(weights.lanes.answers)
        assert _fields(memory.analyze(kernel, block, bindings, None, weights)) == general, kernel.name
        computed += len(weights.lanes.answers) > before
        assert _fields(memory.analyze(kernel, block, bindings, None, weights)) == general, kernel.name
    assert computed > 30


def test_a_wrong_kept_answer_is_caught(monkeypatch):
    """The comparison can fail: fields found under the key are what the analysis reports."""
    kernel = next(k for k in project_kernels() if any(a.space == "global" for a in k.accesses))
    block = BlockShape(256)
    weights = _unshared_weights(block, {})
    general = _fields(memory.analyze(kernel, block, {}, None, weights))
    for key, value in list(weights.lanes.answers.items()):
        if key[0] == "access fields":
            weights.lanes.answers[key] = value[:-1] + ("changed",)
    assert _fields(memory.analyze(kernel, block, {}, None, weights)) != general

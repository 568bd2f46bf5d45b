"""memfast15: Lanes evaluates an address under the second stand-in (PLACEHOLDER_ALT, memory's
symbolic stride) and a guard over several unbound scalars under _decided_by_stand_ins' spread values
with the values kept under PLACEHOLDER of the parts that read none of the unbound names
(threads.SHARE_BOUND_PARTS). Compared with the general evaluation on every access address and
every guard and branch condition of the project's kernels, in a few block shapes and bindings, and
on hand-made trees where a loop variable is also an unbound name (the parts would be wrong there)."""

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import threads
from kernelscope.analyses.threads import PLACEHOLDER, PLACEHOLDER_ALT, UNEVALUABLE, BlockShape, Lanes
from project_sources import project_kernels

CASES = [(BlockShape(256), {}), (BlockShape(16, 16), {}), (BlockShape(100), {}),
         (BlockShape(128), {"n": 4096, "N": 4096, "width": 1024})]


def _fresh_lanes(block, bindings):
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    env = threads.thread_env(block, None, dict(bindings))
    return Lanes(env, block.slots, threads.active_slots(block))


def _general(expr, env, slots, value):
    try:
        return threads.evaluate_per_thread(expr, threads.with_placeholders(expr, env, value), slots)
    except UNEVALUABLE as exc:
        return type(exc)


def _kept(lanes, expr, value):
    try:
        return lanes.values(expr, value)
    except UNEVALUABLE as exc:
        return type(exc)


def _same(a, b):
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return a is b


def _conditions(kernel):
    for branch in kernel.branches:
        if branch.condition is not None:
            yield branch.condition
    for access in kernel.accesses:
        for condition in access.context.conditions:
            yield condition.expr


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_second_stand_in_values_are_the_general_ones(block, bindings):
    lanes = _fresh_lanes(block, bindings)
    seeded = 0
    for kernel in project_kernels():
        for access in kernel.accesses:
            address = access.address
            first = _kept(lanes, address, PLACEHOLDER)      # (as memory asks: PLACEHOLDER first)
            assert _same(first, _general(address, lanes.env, lanes.slots, PLACEHOLDER))
            before = len(lanes._kept.nodes[PLACEHOLDER_ALT])
            second = _kept(lanes, address, PLACEHOLDER_ALT)
            assert _same(second, _general(address, lanes.env, lanes.slots, PLACEHOLDER_ALT)), (kernel.name, str(address))
            seeded += len(lanes._kept.nodes[PLACEHOLDER_ALT]) > before
    assert seeded > 0


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_spread_evaluations_are_the_general_ones(block, bindings):
    lanes = _fresh_lanes(block, bindings)
    used = 0
    for kernel in project_kernels():
        for expr in _conditions(kernel):
            unbound = sorted(sx.free_names(expr).difference(lanes.env))
            if len(unbound) < 2:
                continue
            try:
                lanes.values(expr)
            except UNEVALUABLE:
                continue
            evaluate = lanes._spread_evaluator(expr, unbound)
            if evaluate is None:
                continue
            used += 1
            for order in (unbound, unbound[::-1]):
                spread = {**lanes.env, **{name: PLACEHOLDER * (k + 2) for k, name in enumerate(order)}}
                try:
                    want = threads.evaluate_per_thread(expr, spread, lanes.slots)
                except UNEVALUABLE as exc:
                    with pytest.raises(type(exc)):
                        evaluate(spread)
                    continue
                assert _same(evaluate(spread), want), (kernel.name, str(expr))
    assert used > 0


def test_verdicts_and_truths_match_the_general_path(monkeypatch):
    """Lanes.condition with and without the shared parts, judged afresh, against condition_values."""
    for share in (True, False):
        monkeypatch.setattr(threads, "SHARE_BOUND_PARTS", share)
        for block, bindings in CASES:
            lanes = _fresh_lanes(block, bindings)
            for kernel in project_kernels():
                for expr in _conditions(kernel):
                    if hasattr(expr, "_decided_by_stand_ins"):
                        del expr._decided_by_stand_ins
                    got = lanes.condition(expr)
                    verdict = getattr(expr, "_decided_by_stand_ins", None)
                    if hasattr(expr, "_decided_by_stand_ins"):
                        del expr._decided_by_stand_ins
                    want = threads.condition_values(expr, lanes.env, lanes.slots)
                    assert getattr(expr, "_decided_by_stand_ins", None) == verdict
                    assert (got is None and want is None) or np.array_equal(got, want), str(expr)


def _loop_variable_also_unbound():
    """`(i + m) < n` where i is a loop variable starting at `m`... and also an unbound name here."""
    tid, m, n = sx.Sym("threadIdx.x"), sx.Sym("m"), sx.Sym("n")
    i = sx.Sym("i", default=sx.binary("*", tid, 2))
    inner = sx.binary("+", sx.binary("*", i, 3), tid)
    return sx.binary("<", sx.binary("+", inner, m), sx.binary("*", n, sx.Sym("i"))), inner


def test_a_loop_variable_that_is_also_unbound_is_evaluated_in_full():
    lanes = _fresh_lanes(BlockShape(64), {})
    condition, inner = _loop_variable_also_unbound()
    lanes.values(inner)
    unbound = sorted(sx.free_names(condition).difference(lanes.env))
    assert "i" in unbound and lanes._spread_evaluator(condition, unbound) is None
    assert _same(lanes.values(condition, PLACEHOLDER_ALT), _general(condition, lanes.env, lanes.slots, PLACEHOLDER_ALT))


def test_the_parts_are_what_reads_none_of_the_names():
    lanes = _fresh_lanes(BlockShape(64), {})
    tid, n = sx.Sym("threadIdx.x"), sx.Sym("n")
    row = sx.binary("*", sx.binary("/", tid, 8), 4)
    address = sx.binary("+", sx.binary("*", row, n), sx.binary("%", tid, 8))
    lanes.values(address)
    parts = lanes._bound_parts(address, ["n"])
    assert set(parts) == {row._key, sx.binary("%", tid, 8)._key}
    assert np.array_equal(parts[row._key], (np.arange(64) // 8) * 4)
    # the same parts in the other stand-in's values, and the address right there
    assert _same(lanes.values(address, PLACEHOLDER_ALT), _general(address, lanes.env, 64, PLACEHOLDER_ALT))
    assert lanes._kept.nodes[PLACEHOLDER_ALT][row._key] is parts[row._key]


def test_same_truth_is_array_equal():
    rng = np.random.default_rng(15)
    for size in (0, 1, 31, 64, 256):
        a = rng.random(size) < 0.5
        for b in (a.copy(), ~a, rng.random(size) < 0.5, a[: size // 2], np.append(a, True)):
            assert threads._same_truth(a, b) == np.array_equal(a, b)
    one = np.ones(64, dtype=bool)
    changed = one.copy()
    changed[63] = False
    assert threads._same_truth(one, one.copy()) and not threads._same_truth(one, changed)

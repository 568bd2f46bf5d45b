"""coldfast16: a Lanes of loop values (Lanes._lanes_within, what the intensity analysis's
_count_executions asks for guards over loop variables) evaluates an expression with the values its
parent keeps of the largest parts that read none of the loop variables, and hands the parent those
it computes (threads.SHARE_OUTER_PARTS). Compared with the general evaluation and with the switch
off, on every guard over a loop variable of the project's kernels, after the parent has evaluated
the kernels' addresses as the memory analysis does; and on hand-made trees where the parent binds
the loop variable to another value, or leaves it unbound (a part that reads it must not be taken)."""

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import threads
from kernelscope.analyses.threads import PLACEHOLDER, BlockShape, Lanes
from project_sources import project_kernels
from test_memfast15_bound_parts import _general as _general_under
from test_memfast15_bound_parts import _kept as _kept_under
from test_memfast15_bound_parts import _same

CASES = [(BlockShape(256), {}), (BlockShape(16, 16), {}), (BlockShape(100), {}),
         (BlockShape(128), {"n": 4096, "N": 4096, "width": 1024})]
LOOP_VALUES = (0, 1, 3, -1, 64)


def _fresh_lanes(block, bindings):
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    env = threads.thread_env(block, None, dict(bindings))
    return Lanes(env, block.slots, threads.active_slots(block))


def _general(expr, env, slots):
    return _general_under(expr, env, slots, PLACEHOLDER)


def _kept(lanes, expr):
    return _kept_under(lanes, expr, PLACEHOLDER)


def _loop_guards(kernel):
    """(guard, loop variable) for every guard of an access that reads a variable of its loops."""
    for access in kernel.accesses:
        for condition in access.context.conditions:
            for loop in access.context.loops:
                if loop.var and loop.var in condition.expr.symbols():
                    yield condition.expr, loop.var


def _within_values(block, bindings, share: bool, monkeypatch):
    monkeypatch.setattr(threads, "SHARE_OUTER_PARTS", share)
    lanes = _fresh_lanes(block, bindings)
    answers, taken = [], 0
    for kernel in project_kernels():
        for access in kernel.accesses:          # (the parent's kept values, as memory leaves them)
            _kept(lanes, access.address)
        for expr, var in _loop_guards(kernel):
            for value in LOOP_VALUES:
                env = {**lanes.env, var: value}
                within = lanes._lanes_within(env, {var: value})
                if share and within._outer is not None:
                    outer = within._outer[0]
                    taken += any(key in outer for key in threads._outer_parts(expr, frozenset((var,))))
                got = _kept(within, expr)
                assert _same(got, _general(expr, env, lanes.slots)), (kernel.name, str(expr), var, value)
                answers.append(got)
    return answers, taken


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_loop_value_evaluations_are_the_general_ones(block, bindings, monkeypatch):
    shared, taken = _within_values(block, bindings, True, monkeypatch)
    general, _ = _within_values(block, bindings, False, monkeypatch)
    assert taken > 0
    assert len(shared) == len(general)
    assert all(_same(a, b) for a, b in zip(shared, general))


def _tid_plus_i_times_tid():
    tid, i = sx.Sym("threadIdx.x"), sx.Sym("i")
    reads_i = sx.binary("+", tid, i)
    fixed = sx.binary("*", tid, 3)
    return sx.binary("<", sx.binary("*", reads_i, fixed), 500), reads_i, fixed


@pytest.mark.parametrize("parent_binds_i", [True, False])
def test_a_part_that_reads_the_loop_variable_is_not_taken(parent_binds_i):
    expr, reads_i, fixed = _tid_plus_i_times_tid()
    block = BlockShape(64)
    threads._KEPT.clear()
    threads._DROPS[0] += 1
    env = threads.thread_env(block, None, {"i": 5} if parent_binds_i else {})
    parent = Lanes(env, block.slots, threads.active_slots(block))
    parent.values(expr)                  # keeps (threadIdx.x + i) with i = 5 or the stand-in
    assert reads_i._key in parent._kept.nodes[PLACEHOLDER]
    for value in (0, 2, 7):
        within_env = {**env, "i": value}
        within = parent._lanes_within(within_env, {"i": value})
        assert within._outer is not None
        assert _same(within.values(expr), _general(expr, within_env, block.slots))
    # the part reading no loop variable is the parent's value, the same object
    assert threads._outer_parts(expr, frozenset(("i",))) == (fixed._key,)
    assert within._kept.nodes[PLACEHOLDER][fixed._key] is parent._kept.nodes[PLACEHOLDER][fixed._key]


def test_parts_the_parent_lacks_are_handed_to_it():
    expr, reads_i, fixed = _tid_plus_i_times_tid()
    block = BlockShape(32)
    parent = _fresh_lanes(block, {})
    assert fixed._key not in parent._kept.nodes[PLACEHOLDER]
    within_env = {**parent.env, "i": 1}
    within = parent._lanes_within(within_env, {"i": 1})
    assert _same(within.values(expr), _general(expr, within_env, block.slots))
    assert np.array_equal(parent._kept.nodes[PLACEHOLDER][fixed._key], np.arange(32) * 3)
    assert reads_i._key not in parent._kept.nodes[PLACEHOLDER]

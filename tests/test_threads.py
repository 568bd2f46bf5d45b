"""The one thread space of a block: padded (memory, divergence, intensity) and exact (sync) views agree."""

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import threads


@pytest.mark.parametrize("block", [(48, 1, 1), (16, 16, 1), (7, 3, 2), (32, 8, 1)])
def test_padded_space_is_the_exact_one_plus_inactive_lanes(block):
    exact = threads.thread_space(block)
    padded = threads.thread_space(block, padded=True)
    count = block[0] * block[1] * block[2]
    assert exact.size == count and exact.active.all()
    assert padded.size % threads.WARP_SIZE == 0 and padded.size - count < threads.WARP_SIZE
    assert padded.active.sum() == count and not padded.active[count:].any()
    for name in ("threadIdx.x", "threadIdx.y", "threadIdx.z", "%laneid", "%warpid"):
        assert np.array_equal(padded.env[name][:count], exact.env[name]), name
    assert exact.warps == padded.warps == -(-count // threads.WARP_SIZE)


def test_thread_ids_rebuild_the_linear_id():
    space = threads.thread_space(threads.BlockShape(5, 4, 3))
    env = space.env
    rebuilt = env["threadIdx.x"] + env["threadIdx.y"] * 5 + env["threadIdx.z"] * 20
    assert np.array_equal(rebuilt, space.linear)
    assert np.array_equal(env["%laneid"] + threads.WARP_SIZE * env["%warpid"], space.linear)


def test_memory_environment_is_the_padded_space_with_grid_and_bindings():
    block = threads.BlockShape(40)
    env = threads.thread_env(block, (8, 1, 1), {"n": 5, "blockDim.x": 99})
    assert env["threadIdx.x"].size == block.slots == 64
    assert env["n"] == 5 and env["blockDim.x"] == 99          # bindings come last
    assert env["blockIdx.x"] == threads.REPRESENTATIVE_BLOCK[0] and env["blockIdx.y"] == 0
    assert np.array_equal(threads.active_slots(block), threads.thread_space(block, padded=True).active)


def test_one_error_tuple_for_values_that_cannot_be_known():
    unknown_call = sx.Call("not_modelled", (sx.Sym("threadIdx.x"),))
    space = threads.thread_space((32, 1, 1))
    assert threads.per_thread(unknown_call, space.env, space.size) is None
    with pytest.raises(threads.UNEVALUABLE):
        threads.evaluate_per_thread(unknown_call, space.env, space.size)
    assert threads.condition_values(sx.Load("a", sx.Sym("threadIdx.x")), space.env, space.size) is None


def _guard(expr, negated=False):
    from types import SimpleNamespace
    return SimpleNamespace(expr=expr, negated=negated)


def test_lanes_agree_with_evaluating_each_expression_on_its_own():
    tid = sx.Sym("threadIdx.x")
    block = threads.BlockShape(48)
    env = threads.thread_env(block, (4, 1, 1), {"m": 40})
    lanes = threads.Lanes(env, block.slots, threads.active_slots(block))
    index = sx.binary("+", sx.binary("*", sx.Sym("blockIdx.x"), sx.Sym("blockDim.x")), tid)
    exprs = [index, sx.binary("*", index, sx.Sym("n")), sx.binary("<", index, sx.Sym("n")),
             sx.binary("<", tid, sx.Sym("m")), sx.binary(">=", tid, sx.binary("-", sx.Sym("n"), sx.Sym("k"))),
             sx.Load("a", tid), sx.binary("/", tid, sx.binary("-", tid, tid))]
    for expr in exprs:
        for stand_in in (threads.PLACEHOLDER, threads.PLACEHOLDER_ALT):
            try:
                expected = threads.evaluate_per_thread(expr, threads.with_placeholders(expr, env, stand_in), block.slots)
            except threads.UNEVALUABLE as exc:
                with pytest.raises(type(exc)):
                    lanes.values(expr, stand_in)
            else:
                assert np.array_equal(lanes.values(expr, stand_in), expected)
        fresh = threads.condition_values(expr, env, block.slots)
        kept = lanes.condition(expr)
        assert (fresh is None and kept is None) or np.array_equal(fresh, kept)
    guards = [[], [_guard(exprs[3])], [_guard(exprs[3]), _guard(exprs[2], True)], [_guard(exprs[5]), _guard(exprs[3])],
              [_guard(exprs[4])], [_guard(sx.binary(">", tid, sx.Sym("n")))]]
    for conditions in guards:
        assert np.array_equal(lanes.mask(conditions), threads.condition_mask(conditions, env, block.slots))
        assert np.array_equal(lanes.active_mask(conditions),
                              threads.active_slots(block) & threads.condition_mask(conditions, env, block.slots))


def test_bound_values_are_evaluate_per_thread_and_refuse_unbound_names():
    tid = sx.Sym("threadIdx.x")
    block = threads.BlockShape(48)
    env = threads.thread_env(block, (4, 1, 1), {"m": 40})
    lanes = threads.Lanes(env, block.slots, threads.active_slots(block))
    bound = sx.binary("-", sx.Sym("m"), sx.binary("/", tid, sx.Const(2)))
    assert np.array_equal(lanes.bound_values(bound), threads.evaluate_per_thread(bound, env, block.slots))
    unbound = sx.binary("+", tid, sx.Sym("n"))
    lanes.values(unbound)           # a stand-in for n is kept here; bound_values must not use it
    with pytest.raises(threads.UNEVALUABLE):
        lanes.bound_values(unbound)
    with pytest.raises(threads.UNEVALUABLE):
        lanes.bound_values(sx.Load("a", tid))


def _lanes(block, bindings):
    env = threads.thread_env(block, (4, 1, 1), bindings)
    return threads.Lanes(env, block.slots, threads.active_slots(block))


def test_kernels_written_alike_are_evaluated_once_per_launch_shape_and_bindings(monkeypatch):
    def address():          # what each copy of a kernel builds for itself: new nodes, the same tree
        tid = sx.Sym("threadIdx.x")
        return sx.binary("*", sx.binary("+", sx.binary("*", sx.Sym("blockIdx.x"), sx.Sym("blockDim.x")), tid),
                         sx.Sym("stride"))
    block = threads.BlockShape(64)
    first = _lanes(block, {"stride": 3}).values(address())
    evaluated = []
    original = sx.evaluate_shared
    monkeypatch.setattr(sx, "evaluate_shared", lambda *args: evaluated.append(1) or original(*args))
    again = _lanes(block, {"stride": 3}).values(address())
    assert evaluated == [] and np.array_equal(first, again)
    other = _lanes(block, {"stride": 5}).values(address())          # other bindings: evaluated anew
    assert evaluated == [1] and np.array_equal(other, first // 3 * 5)
    shape = threads.BlockShape(96)
    wider = _lanes(shape, {"stride": 3}).values(address())         # another shape too
    env = threads.thread_env(shape, (4, 1, 1), {"stride": 3})
    assert evaluated == [1, 1] and np.array_equal(wider, threads.evaluate_per_thread(address(), env, shape.slots))


def test_masks_for_a_loop_value_agree_with_evaluating_the_guards_there():
    tid, step = sx.Sym("threadIdx.x"), sx.Sym("s", default=sx.Const(64))
    block = threads.BlockShape(128)
    lanes = _lanes(block, {"n": 100})
    guards = [_guard(sx.binary("<", tid, sx.Sym("n"))), _guard(sx.binary("<", tid, step)),
              _guard(sx.binary("==", sx.binary("%", tid, sx.binary("*", step, 2)), 0), True)]
    for value in (64, 32, 1):
        env = {**lanes.env, "s": value}
        for conditions in (guards, guards[1:], guards[:1]):
            assert np.array_equal(lanes.mask_in(conditions, env, {"s": value}),
                                  threads.condition_mask(conditions, env, block.slots))


def test_guards_over_several_unbound_scalars_keep_the_verdict_of_the_first_environment_they_met():
    # `tid >= n - m - t`: whether stand-ins decide it is judged once per node, in the first
    # environment it meets; Lanes must leave each node the verdict condition_values would have.
    def guard():
        t = sx.Sym("t", default=sx.Const(0))
        return sx.binary(">=", sx.Sym("threadIdx.x"), sx.binary("-", sx.binary("-", sx.Sym("n"), sx.Sym("m")), t))

    block = threads.BlockShape(64)
    lanes = _lanes(block, {})
    plain_env = dict(lanes.env)
    orders = [("loop", "base"), ("base", "loop"), ("base",), ("loop",)]
    for order in orders:
        kept_copy, plain_copy = guard(), guard()          # one judged through Lanes, one directly
        for where in order:
            if where == "base":
                got = lanes.condition(kept_copy)
                want = threads.condition_values(plain_copy, plain_env, block.slots)
            else:
                env = {**lanes.env, "t": 5}
                got = lanes.mask_in([_guard(kept_copy)], env, {"t": 5})
                want = threads.condition_mask([_guard(plain_copy)], env, block.slots)
            assert (got is None and want is None) or np.array_equal(got, want), (order, where)
        assert getattr(kept_copy, "_decided_by_stand_ins", None) == getattr(plain_copy, "_decided_by_stand_ins", None)

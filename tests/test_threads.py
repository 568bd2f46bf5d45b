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

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

"""restfast13: threads.shared_launch keys a launch by one _scalar_key over the block's, grid's and
bindings' values together (with the grid's length and the bindings' names), not by one key a part.
Two launches must share their entry exactly when the keys of the part-by-part form (written out
here) are equal: checked on every pair of launches that move values between grid and bindings,
mix ints, bools and floats, or hold values that are not plain scalars."""
import itertools

import numpy as np
import pytest

from kernelscope.analyses import threads


def _part_key(block, grid, bindings):
    parts = (threads._scalar_key((block.x, block.y, block.z)), threads._scalar_key(grid or ()),
             threads._scalar_key(bindings.values() if bindings else ()))
    return None if None in parts else (parts, tuple(bindings) if bindings else ())


B256 = threads.BlockShape(256, 1, 1)
B64 = threads.BlockShape(64, 4, 1)
LAUNCHES = [
    (B256, None, None), (B256, (), {}), (B256, (4, 1, 1), None), (B256, None, {"a": 4, "b": 1, "c": 1}),
    (B256, (4, 1, 1), {"n": 2}), (B256, (4, 1, 2), {"m": 2}), (B256, None, {"x": 4, "y": 1, "z": 2, "m": 2}),
    (B256, (4, 1, 1), {"n": True}), (B256, (4, 1, 1), {"n": 1.0}), (B256, (4, 1, 1), {"n": 1}),
    (B256, (4, 1, 1), {"n": 0.0}), (B256, (4, 1, 1), {"n": -0.0}), (B256, (True, 1, 1), {"n": 1}),
    (B256, (4, 1, 1), {"m": 1}), (B256, (4, 1, 1), {"n": 1, "m": 1}), (B256, (4, 1, 1), {"m": 1, "n": 1}),
    (B64, (4, 1, 1), {"n": 1}), (B64, None, None), (B256, (4, 1, 1), {"n": np.int64(1)}),
]


@pytest.fixture(autouse=True)
def _fresh_launches():
    saved = dict(threads._SHARED_ENVS)
    threads._SHARED_ENVS.clear()
    yield
    threads._SHARED_ENVS.clear()
    threads._SHARED_ENVS.update(saved)


def test_launches_share_exactly_when_the_part_keys_are_equal():
    answers = [threads.shared_launch(*launch) for launch in LAUNCHES]
    for (i, first), (j, second) in itertools.combinations(enumerate(LAUNCHES), 2):
        key_i, key_j = _part_key(*first), _part_key(*second)
        shared = key_i is not None and key_i == key_j
        assert (answers[i] is answers[j]) == shared, (first, second)


def test_unkeyed_launches_get_their_own_env_each_time():
    launch = (B256, (4, 1, 1), {"n": np.int64(1)})
    assert threads.shared_launch(*launch) is not threads.shared_launch(*launch)


def test_the_env_is_that_of_thread_env():
    env, signature, slots, active = threads.shared_launch(B256, None, {"n": 3})
    assert env.keys() == threads.thread_env(B256, None, {"n": 3}).keys() and env["n"] == 3
    assert slots == B256.slots and active is threads.active_slots(B256)

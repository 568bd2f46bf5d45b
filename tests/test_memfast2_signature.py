"""Two shortcuts of the per-kernel set-up of the memory and intensity analyses:

- threads._signature keys ints and bools by their value rather than their text (repr): two
  environments still get equal signatures exactly when the text-keyed signature (the general
  form, written out below) says they are equal, so Lanes share kept values as before;
- threads.active_slots is the padded thread space's shared, read-only mask instead of a fresh
  `np.arange(slots) < threads` per kernel: the same values."""

import itertools

import numpy as np
import pytest

from kernelscope.analyses import threads
from kernelscope.analyses.threads import BlockShape, thread_env

SCALARS = [0, 1, -1, 7, 2**62, -2**63, True, False, 0.0, -0.0, 1.0, 7.0, float("nan"), float("inf"), 1e300]


def _text_signature(env: dict, slots: int):
    """The signature as it was keyed before: every scalar by its type and text."""
    items = []
    for name, value in env.items():
        kind = type(value)
        if kind is np.ndarray:
            items.append((name, id(value)))
        elif kind in (int, bool, float):
            items.append((name, kind, repr(value)))
        else:
            return None
    return slots, tuple(sorted(items))


def _envs():
    block = BlockShape(64)
    for bindings in [{}, {"n": 40}, {"n": 40, "m": 3}, {"m": 3, "n": 40}, {"x": None}, {"x": "text"}]:
        yield thread_env(block, (4, 1, 1), bindings)
    for value in SCALARS:
        yield thread_env(block, (4, 1, 1), {"n": value, "m": 5})
    yield thread_env(BlockShape(32, 2), (4, 1, 1), {"n": 40})


def test_signatures_are_equal_exactly_when_the_text_keyed_ones_are():
    envs = list(_envs())
    for first, second in itertools.product(envs, repeat=2):
        text_equal = _text_signature(first, 64) == _text_signature(second, 64)
        assert (threads._signature(first, 64) == threads._signature(second, 64)) == text_equal
        assert (threads._signature(first, 64) is None) == (_text_signature(first, 64) is None)


@pytest.mark.parametrize("left, right", [(1, True), (0, False), (1, 1.0), (0.0, -0.0), (0, 0.0)])
def test_values_equal_in_python_but_not_alike_keep_apart(left, right):
    # keyed by value alone (without the type, or floats without their text) these would share
    first, second = ({"n": value, "threadIdx.x": np.arange(4)} for value in (left, right))
    assert threads._signature(first, 4) != threads._signature(second, 4)


@pytest.mark.parametrize("shape", [(32,), (48,), (100,), (256,), (16, 3), (16, 16), (7, 5, 3), (1024,)])
def test_active_slots_are_the_real_threads(shape):
    block = BlockShape(*shape)
    active = threads.active_slots(block)
    assert active.dtype == bool and np.array_equal(active, np.arange(block.slots) < block.threads)
    assert not active.flags.writeable            # shared by every kernel of the shape
    assert threads.active_slots(BlockShape(*shape)) is active

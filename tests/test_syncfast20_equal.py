"""`sync._equal` counts the differing elements (`_count_nonzero(a != b)`) instead of reducing
`a == b` with `.all()`: compared here with np.array_equal on arrays that could tell them apart
(NaN, different shapes, empty, 2-D, bool against int, one element changed)."""

from __future__ import annotations

import numpy as np

from kernelscope.analyses import sync


def pairs():
    rng = np.random.default_rng(20)
    a = rng.integers(-5, 5, 256)
    yield a, a.copy()
    changed = a.copy()
    changed[-1] += 1
    yield a, changed
    yield a, a[:-1]
    yield a.reshape(16, 16), a.reshape(16, 16).copy()
    yield a.reshape(16, 16), a.reshape(8, 32)
    yield a.reshape(16, 16), changed.reshape(16, 16)
    yield np.zeros(0, np.int64), np.zeros(0, np.int64)
    yield np.zeros(0, np.int64), np.zeros((0, 3), np.int64)
    flags = a > 0
    yield flags, flags.astype(np.int64)
    yield flags, ~flags
    nan = np.array([1.0, np.nan])
    yield nan, nan.copy()
    yield np.array([1.0, 2.0]), np.array([1, 2])
    for _ in range(50):
        x = rng.integers(0, 2, rng.integers(1, 6))
        y = rng.integers(0, 2, x.size)
        yield x, y


def test_equal_is_array_equal():
    answers = set()
    for a, b in pairs():
        expected = bool(np.array_equal(a, b))
        assert sync._equal(a, b) is expected or sync._equal(a, b) == expected
        assert isinstance(sync._equal(a, b), bool)
        answers.add(expected)
    assert answers == {True, False}

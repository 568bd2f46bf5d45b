"""syncfast21: reductions called without numpy's Python wrappers. `symbolic`'s C division and
remainder ask `not count_nonzero(a < 0)` where they asked `a.min() >= 0`; `sync._dense_slots`,
`batched_intervals.intervals_sharing_a_word`, `BlockRun.plan_for` and `rows_for_blocks` call the
ufuncs' `reduce` (`np.minimum.reduce`, `np.logical_or.reduce`, ...) instead of ndarray.min / any /
all; `loops` counts with the C count_nonzero. Each is compared here with the expression it replaced
on inputs that tell the branches apart (negative elements or none, one negative at either end,
empty rows, a stride-0 view)."""

from __future__ import annotations

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses import batched_intervals, loops, sync


def _arrays():
    rng = np.random.default_rng(21)
    yield np.arange(256, dtype=np.int64)
    yield np.arange(-3, 253, dtype=np.int64)
    yield np.zeros(1, dtype=np.int64)
    yield np.array([-1], dtype=np.int64)
    for position in (0, 17, 255):
        a = np.arange(256, dtype=np.int64)
        a[position] = -position - 1
        yield a
    for _ in range(40):
        yield rng.integers(-50, 50, int(rng.integers(1, 300)), dtype=np.int64)


def _truncated(a: np.ndarray, b: int) -> np.ndarray:
    """C's division, element by element with Python ints (the reference)."""
    return np.array([abs(int(x)) // b * (-1 if x < 0 else 1) for x in a], dtype=np.int64)


def test_divide_and_modulo_match_c_for_every_sign():
    branches = set()
    for a in _arrays():
        branches.add(bool(a.min() >= 0))
        for b in (1, 3, 32):
            quotient = sx._c_divide(a, b)
            assert np.array_equal(quotient, _truncated(a, b))
            assert np.array_equal(sx._c_modulo(a, b), a - _truncated(a, b) * b)
    assert branches == {True, False}     # both the fast branch and the general one were taken


def test_nonnegative_test_is_min_test():
    for a in _arrays():
        assert (not sx.count_nonzero(a < 0)) == bool(a.min() >= 0)


def test_dense_slots_matches_min_and_max():
    seen = set()
    for words in _arrays():
        low, high = int(words.min()), int(words.max())
        expected = None if high - low + 1 > max(sync.DENSE_SPAN, 4 * words.size) else (words - low, high - low + 1)
        got = sync._dense_slots(words)
        assert (got is None) == (expected is None)
        if got is not None:
            assert np.array_equal(got[0], expected[0]) and got[1] == expected[1]
        seen.add(got is None)
    wide = np.array([0, sync.DENSE_SPAN * 8], dtype=np.int64)
    assert sync._dense_slots(wide) is None
    assert False in seen


def test_touched_cells_with_and_without_cells_outside_intervals():
    rng = np.random.default_rng(7)
    for size in (32, 48, 256):
        reached = rng.integers(0, 2, (6, size)).astype(bool)
        for number in (np.arange(6), np.array([0, -1, 1, 1, -1, 2]), np.array([-1] * 6), np.zeros(0, np.int64)):
            if number.size and number.size != reached.shape[0]:
                continue
            rows = reached if number.size else reached[:0]
            touch, trip, thread = sync._touched_cells(rows, number)
            expected = (rows & (number >= 0)[:, None]).ravel().nonzero()[0]
            assert np.array_equal(touch, expected)
            assert np.array_equal(trip, expected // size) and np.array_equal(thread, expected % size)


def test_reductions_by_rows_match_ndarray_methods():
    rng = np.random.default_rng(3)
    table = rng.integers(0, 2, (9, 64)).astype(bool)
    table[2] = False
    table[5] = True
    stride0 = np.ndarray((9, 64), bool, table[5], 0, (0, table.strides[1]))
    for rows in (table, stride0, table[:0], np.ones((4, 1), bool)):
        assert np.array_equal(sync._ANY(rows, axis=1), rows.any(axis=1))
        assert np.array_equal(sync._ALL(rows, axis=1), rows.all(axis=1))
        assert sync._ANY(rows, axis=1).dtype == bool and sync._ALL(rows, axis=1).dtype == bool
    for words in _arrays():
        assert int(sync._MINIMUM(words)) == int(words.min()) and int(sync._MAXIMUM(words)) == int(words.max())


def test_intervals_sharing_a_word_against_pairs():
    rng = np.random.default_rng(11)
    for _ in range(30):
        rows = int(rng.integers(2, 40))
        intervals = rng.integers(0, 3, rows)
        words = rng.integers(-5, 12, rows)
        threads = rng.integers(0, 4, rows)
        got = batched_intervals.intervals_sharing_a_word(intervals, words, threads, 3)
        expected = np.zeros(3, dtype=bool)
        for i in range(rows):
            for j in range(rows):
                if intervals[i] == intervals[j] and words[i] == words[j] and threads[i] != threads[j]:
                    expected[intervals[i]] = True
        assert np.array_equal(got, expected)


def test_loops_count_nonzero_is_numpys():
    for flags in (np.zeros(8, bool), np.eye(1, 8, 3, dtype=bool)[0], np.ones(8, bool)):
        assert loops.count_nonzero(flags) == np.count_nonzero(flags)

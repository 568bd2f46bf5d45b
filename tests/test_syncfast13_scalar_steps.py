"""`loops.executed_iterations` steps a counter whose start, step and bound are plain ints with Python's
int operations (`_scalar_steps`: bitonic_sort's `for (j = k / 2; j > 0; j /= 2)` in each trip of its
k loop). These compare it with the iteration-by-iteration path on generated loops (every update and
comparison it takes, negative and zero values, steps it must leave to the general path, threads that
all returned, the execution limit) and check that broken variants are caught."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import loops
from kernelscope.analyses.threads import thread_space
from test_loops import loop_of, value_of

HEADERS = [
    "for (int c = n; c < b; c += m)",
    "for (int c = n; c <= b; c += m)",
    "for (int c = n; c > b; c -= m)",
    "for (int c = n; c >= b; c -= m)",
    "for (int c = n; c != b; c += m)",
    "for (int c = n; c == b; c += m)",
    "for (int c = n; c > b; c /= m)",           # C's division truncates towards zero
    "for (int c = n; c < b; c *= m)",
    "for (int c = n; c > b; c >>= m)",
    "for (int c = n; c < b; c <<= m)",
    "for (int c = n; c != b; c %= m)",          # an update it leaves to the general path
    "for (int c = n; c < threadIdx.x + b; c += m)",   # a bound per thread: not plain ints
    "for (int c = n; c < c * 0 + b; c += m)",         # a bound that reads the counter
]


def _iterations(loop, bindings, alive, limit, scalar: bool, monkeypatch):
    monkeypatch.setattr(loops, "SCALAR_STEPS", scalar)
    space = thread_space((32, 1, 1))
    everyone = np.ones(space.size, dtype=bool)
    notes: list = []
    result = loops.executed_iterations(loop, {**bindings, **space.env}, value_of, alive, everyone, notes.append,
                                       limit)
    return result, notes, everyone


def _same(result, expected) -> bool:
    (iterations, bounded), notes, everyone = result
    (reference, reference_bounded), reference_notes, reference_everyone = expected
    if bounded != reference_bounded or notes != reference_notes or (iterations is None) != (reference is None):
        return False
    if iterations is None:
        return True
    return len(iterations) == len(reference) and all(
        type(value) is type(want) and np.array_equal(value, want) and np.array_equal(active, active_want) and
        (active is everyone) == (active_want is reference_everyone)
        for (value, active), (want, active_want) in zip(iterations, reference))


def _all_agree(monkeypatch, seed: int = 5) -> set:
    rng = np.random.default_rng(seed)
    lengths = set()
    for header in HEADERS:
        loop = loop_of(header, "float* out, int n, int m, int b")
        for _ in range(30):
            bindings = {"n": int(rng.integers(-300, 300)), "m": int(rng.choice([-3, -1, 0, 1, 2, 3, 7, 64, 70])),
                        "b": int(rng.integers(-300, 300))}
            alive = rng.random(32) < rng.choice([1.0, 0.5, 0.0])
            limit = int(rng.choice([1, 5, 64]))
            expected = _iterations(loop, bindings, alive, limit, False, monkeypatch)
            result = _iterations(loop, bindings, alive, limit, True, monkeypatch)
            assert _same(result, expected), (header, bindings, limit)
            lengths.add(-1 if expected[0][0] is None else len(expected[0][0]))
    return lengths


def test_scalar_steps_equal_iterations_one_by_one(monkeypatch):
    lengths = _all_agree(monkeypatch)
    assert {0, 1, 64} <= lengths and len(lengths) > 10     # empty, single, cut at the limit, and between


def test_the_fast_path_runs(monkeypatch):
    ran = []
    real = loops._scalar_steps

    def watched(*args):
        result = real(*args)
        ran.append(result is not None)
        return result

    monkeypatch.setattr(loops, "_scalar_steps", watched)
    _all_agree(monkeypatch)
    assert True in ran and False in ran


@pytest.mark.parametrize("broken", ["floor division", "no note at the limit", "threads all gone ignored"])
def test_broken_scalar_steps_are_caught(broken, monkeypatch):
    if broken == "floor division":
        monkeypatch.setitem(loops._INT_UPDATES, "/", (lambda v, s: v // s, lambda s: s != 0))
    elif broken == "no note at the limit":
        real = loops._scalar_steps
        monkeypatch.setattr(loops, "_scalar_steps",
                            lambda loop, start, step, operator, bound, alive, everyone, limit, note:
                            real(loop, start, step, operator, bound, alive, everyone, limit, lambda text: None))
    else:
        real = loops._scalar_steps
        monkeypatch.setattr(loops, "_scalar_steps",
                            lambda loop, start, step, operator, bound, alive, everyone, limit, note:
                            real(loop, start, step, operator, bound, np.ones_like(alive), everyone, limit, note))
    with pytest.raises(AssertionError):
        _all_agree(monkeypatch)

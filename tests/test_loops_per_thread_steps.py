"""`loops.executed_iterations` computes the iterations of a counter that starts per thread and adds
a constant a block of iterations at a time (`_per_thread_steps`). These compare it with the
iteration-by-iteration path on generated loops (starts, steps, comparisons, bounds, threads that
returned, the execution limit) and check that broken variants are caught."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import loops
from kernelscope.analyses.threads import thread_space
from test_loops import loop_of, value_of

HEADERS = [
    "for (int c = threadIdx.x; c < n; c += m)",
    "for (int c = threadIdx.x * 3 - 40; c <= n; c += m)",
    "for (int c = threadIdx.x + n; c > 0; c -= m)",
    "for (int c = blockDim.x - threadIdx.x; c >= n; c -= m)",
    "for (int c = threadIdx.x % 5; c != n % 24; c += m)",
    "for (int c = threadIdx.x; c < threadIdx.x * 2 + n; c += m)",   # a bound per thread
    "for (int c = n; c < 300; c += m)",                             # the same start for every thread
]


def _iterations(loop, bindings, alive, limit, stepped: bool, monkeypatch):
    monkeypatch.setattr(loops, "PER_THREAD_STEPS", stepped)
    space = thread_space((64, 1, 1))
    everyone = np.ones(space.size, dtype=bool)
    notes: list = []
    result = loops.executed_iterations(loop, {**bindings, **space.env}, value_of, alive, everyone, notes.append,
                                       limit)
    return result, notes


def _same(result, expected) -> bool:
    (iterations, bounded), notes = result
    (reference, reference_bounded), reference_notes = expected
    if bounded != reference_bounded or notes != reference_notes or len(iterations) != len(reference):
        return False
    return all(np.array_equal(value, want) and np.array_equal(active, active_want)
               for (value, active), (want, active_want) in zip(iterations, reference))


def _all_agree(monkeypatch, seed: int = 3) -> set:
    rng = np.random.default_rng(seed)
    lengths = set()
    for header in HEADERS:
        loop = loop_of(header, "float* out, int n, int m")
        for _ in range(25):
            bindings = {"n": int(rng.integers(-20, 400)), "m": int(rng.choice([1, 2, 7, 16, 64, 200]))}
            alive = rng.random(64) < rng.choice([1.0, 0.7, 0.05])
            limit = int(rng.choice([1, 5, 8, 9, 64]))
            expected = _iterations(loop, bindings, alive, limit, False, monkeypatch)
            result = _iterations(loop, bindings, alive, limit, True, monkeypatch)
            assert _same(result, expected), (header, bindings, limit)
            lengths.add(len(expected[0][0]))
    return lengths


def test_blocks_of_iterations_equal_iterations_one_by_one(monkeypatch):
    lengths = _all_agree(monkeypatch)
    assert {0, 1, 64} <= lengths and len(lengths) > 10     # empty, single, cut at the limit, and between


def test_the_fast_path_runs(monkeypatch):
    ran = []
    real = loops._per_thread_steps

    def watched(*args):
        result = real(*args)
        ran.append(result is not None)
        return result

    monkeypatch.setattr(loops, "_per_thread_steps", watched)
    _all_agree(monkeypatch)
    assert True in ran and False in ran     # (a start shared by every thread is left to the general path)


@pytest.mark.parametrize("broken", ["threads that stopped come back", "no note at the limit"])
def test_broken_blocks_of_iterations_are_caught(broken, monkeypatch):
    if broken == "threads that stopped come back":
        real = loops._per_thread_steps

        def forgetful(loop, start, step, operator, bound, alive, limit, note):
            result = real(loop, start, step, operator, bound, alive, limit, note)
            if result is None:
                return None
            # each iteration's own test only, as if a thread could resume after its test failed
            return [(value, loops._TESTS[loop.compare](value, bound)) for value, _ in result]

        monkeypatch.setattr(loops, "_per_thread_steps", forgetful)
    else:
        real = loops._per_thread_steps
        monkeypatch.setattr(loops, "_per_thread_steps", lambda loop, start, step, operator, bound, alive, limit, note:
                            real(loop, start, step, operator, bound, alive, limit, lambda text: None))
    with pytest.raises(AssertionError):
        _all_agree(monkeypatch)

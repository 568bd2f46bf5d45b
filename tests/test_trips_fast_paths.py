"""The trip-count shortcuts answer as the general numpy paths do, float for float: the Python-int
count of loops whose start, bound and step read no thread index (`_uniform_trip_count`), the count of
loops whose start alone differs between threads (`_strided_trip_count`), the values of loops that
read no thread index (`_loop_values` through `_shared_ints`), the integer
mean of counts (`_mean_count`), and the values of an inner loop whose bounds read no outer loop's
variable, taken once (`_reads_any`)."""

import sys
from pathlib import Path

import numpy as np
import pytest

from kernelscope.analyses import trips
from kernelscope.analyses.threads import BlockShape, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights
from kernelscope.frontend.parse import parse_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_analyze  # noqa: E402

LOOPS = """
__global__ void loops(float* a, int n, int m) {
    int t = threadIdx.x;
    for (int i = 0; i < n; i++) a[t + i] = 0.0f;
    for (int i = 0; i <= n; i += 3) a[t + i] = 1.0f;
    for (int i = n; i > 0; i -= 2) a[t + i] = 2.0f;
    for (int i = n; i >= m; i--) a[t + i] = 3.0f;
    for (int i = 0; i != n; i += 4) a[t + i] = 4.0f;
    for (int i = 1; i < n; i *= 2) a[t + i] = 5.0f;
    for (int i = n; i > 0; i >>= 1) a[t + i] = 6.0f;
    for (int i = 0; i < n; i += m) a[t + i] = 7.0f;
    for (int i = 0; i < n; i -= 1) a[t + i] = 8.0f;
    for (int i = t; i < n; i += blockDim.x) a[i] = 9.0f;
    for (int i = t * m; i <= n; i += 3) a[i] = 12.0f;
    for (int i = n - t; i > m; i -= 2) a[i] = 13.0f;
    for (int i = t; i >= m; i += m) a[i] = 14.0f;
    for (int i = blockIdx.x * blockDim.x + t; i != n; i += m) a[i] = 15.0f;
    for (int i = t - 40; i < n; i -= m) a[i + 64] = 16.0f;
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < m; j++) {
            if (t < j) a[t + i * 8 + j] = 10.0f;
        }
        for (int j = i; j < 8; j++) {
            if (t < i + j) a[t + j] = 11.0f;
        }
    }
}
"""

BINDINGS = [{}, {"n": 100, "m": 3}, {"n": 7, "m": 9}, {"n": 0, "m": 0}, {"n": -5, "m": -1}, {"n": 1000, "m": 0},
            {"n": 1 << 60, "m": 1}, {"n": (1 << 62) + 5, "m": 2}, {"n": 33, "m": -3}]


def _general(monkeypatch):
    monkeypatch.setattr(trips, "_shared_ints", lambda *args: trips._GENERAL)
    monkeypatch.setattr(trips, "_uniform_trip_count", lambda *args: trips._GENERAL)
    monkeypatch.setattr(trips, "_strided_trip_count", lambda *args: trips._GENERAL)


def _counts(kernels, block, bindings):
    env = thread_env(block, None, dict(bindings))
    active = active_slots(block)
    out = []
    for kernel in kernels:
        loops = {id(c.loops[-1]): c.loops[-1] for c in
                 [a.context for a in kernel.accesses] + [s.context for s in kernel.arith] if c.loops}
        for loop in loops.values():
            out.append(trips.trip_count(loop, env, block.slots, active))
    return out


def _same(a, b):
    return [(type(x), repr(x)) for x in a] == [(type(y), repr(y)) for y in b]


@pytest.mark.parametrize("bindings", BINDINGS)
@pytest.mark.parametrize("threads", [256, 100, 1])
def test_uniform_trip_counts_match_the_numpy_path(monkeypatch, bindings, threads):
    kernels = parse_file(LOOPS, "loops.cu").kernels
    block = BlockShape(threads)
    fast = _counts(kernels, block, bindings)
    _general(monkeypatch)
    general = _counts(kernels, block, bindings)
    assert _same(fast, general)
    if bindings:
        assert any(isinstance(c, float) for c in general)


def test_uniform_trip_counts_match_on_the_benchmark_kernels(monkeypatch):
    kernels = parse_file(bench_analyze.realistic_source(50)[0], "distinct.cu").kernels
    shapes = [BlockShape(256), BlockShape(16, 16), BlockShape(96)]
    fast = [_counts(kernels, block, {"n": 4096, "N": 512, "K": 64}) for block in shapes]
    _general(monkeypatch)
    general = [_counts(kernels, block, {"n": 4096, "N": 512, "K": 64}) for block in shapes]
    assert all(_same(f, g) for f, g in zip(fast, general))
    assert sum(c is not None for c in general[0]) >= 20


@pytest.mark.parametrize("counts", [[0], [3, 3, 3], [1, 2, 3, 4, 5, 6, 7], list(range(1000)), [1 << 50] * 20,
                                    [0, 0, 0, 1]])
def test_mean_count_is_np_mean(counts):
    array = np.asarray(counts, dtype=np.int64)
    assert repr(trips._mean_count(array)) == repr(float(np.mean(array)))


@pytest.mark.parametrize("bindings", BINDINGS[:6])
def test_inner_loop_values_taken_once_answer_as_per_outer_value(monkeypatch, bindings):
    kernel = parse_file(LOOPS, "loops.cu").kernels[0]
    block = BlockShape(64)
    contexts = [a.weight_context for a in kernel.accesses]

    def executions():
        weights = ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block))
        return [weights.executions(c) for c in contexts]

    shortcut = executions()
    monkeypatch.setattr(trips, "_reads_any", lambda loop, names: True)
    assert _same(shortcut, executions())


def _values(kernels, block, bindings):
    env = thread_env(block, None, dict(bindings))
    out = []
    for kernel in kernels:
        for loop in kernel.loops:
            for outer in (0, 3, 100):       # an outer loop's variable set, as _sum_over_loop_values sets it
                out.append(trips._loop_values(loop, {**env, "i": outer}, block.slots, active_slots(block)))
            out.append(trips._loop_values(loop, env, block.slots, np.zeros(block.slots, dtype=bool)))
    return out


@pytest.mark.parametrize("bindings", BINDINGS)
def test_uniform_loop_values_match_the_numpy_path(monkeypatch, bindings):
    kernels = parse_file(LOOPS, "loops.cu").kernels + \
        parse_file(bench_analyze.realistic_source(50)[0], "distinct.cu").kernels
    block = BlockShape(128)
    fast = _values(kernels, block, bindings)
    _general(monkeypatch)
    assert fast == _values(kernels, block, bindings)
    assert any(values for values in fast)

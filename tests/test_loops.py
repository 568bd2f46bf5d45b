"""The loop simulator shared by trip counts and the sync executor (kernelscope.analyses.loops)."""

from __future__ import annotations

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses import loops, trips
from kernelscope.analyses.threads import thread_space
from kernelscope.frontend import parse_file


def loop_of(header: str, params: str = "float* out, int n"):
    source = f'extern "C" __global__ void k({params})\n{{\n    {header}\n        out[0] = 1.0f;\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0].loops[0]


def value_of(expr, env):
    try:
        value = expr.evaluate(env)
    except sx.Unevaluable:
        return None
    return value.astype(np.int64) if isinstance(value, np.ndarray) else int(value)


def execute(loop, block=(64, 1, 1), bindings=None, limit=loops.EXECUTED_LIMIT):
    space = thread_space(block)
    everyone = np.ones(space.size, dtype=bool)
    notes = []
    result = loops.executed_iterations(loop, {**(bindings or {}), **space.env}, value_of, everyone.copy(),
                                       everyone, notes.append, limit)
    return result, notes, space


def test_uniform_values_follow_a_halving_counter_down_to_one():
    assert loops.uniform_values(128, 0, 1, ">>", ">") == [128, 64, 32, 16, 8, 4, 2, 1]


def test_uniform_values_divide_truncating_towards_zero():
    assert loops.uniform_values(-9, -1, 2, "/", "<") == [-9, -4, -2]


def test_uniform_values_refuse_updates_that_make_no_progress():
    for operator, step in (("+", 0), ("*", 1), ("*", -1), ("/", 1), ("<<", 0), (">>", 63)):
        assert loops.uniform_values(1, 100, step, operator, "<") is None, (operator, step)


def test_uniform_values_of_a_loop_longer_than_the_limit_are_unknown():
    assert loops.uniform_values(0, 10, 1, "+", "<", limit=10) == list(range(10))
    assert loops.uniform_values(0, 11, 1, "+", "<", limit=10) is None


def test_trip_count_of_a_doubling_loop_is_its_simulated_length():
    loop = loop_of("for (int s = 1; s < n; s *= 2)")
    slots = 32
    active = np.ones(slots, dtype=bool)
    assert trips.trip_count(loop, {"n": 1000}, slots, active) == len([1, 2, 4, 8, 16, 32, 64, 128, 256, 512])


def test_executed_iterations_of_a_grid_stride_loop_drop_threads_as_they_finish():
    loop = loop_of("for (int i = threadIdx.x; i < n; i += 16)")
    (iterations, bounded), notes, space = execute(loop, bindings={"n": 40})
    assert bounded and not notes
    # thread t runs for t, t + 16, ... below 40: threads 0..7 three times, 8..23 twice, 24..39 once,
    # 40..63 never
    for trip, (value, active) in enumerate(iterations):
        expected = space.linear + 16 * trip < 40
        assert np.array_equal(active, expected)
        assert np.array_equal(value, space.linear + 16 * trip)
    assert len(iterations) == 3


def test_a_uniform_loop_hands_back_the_shared_all_true_mask():
    loop = loop_of("for (int k = 0; k < 4; k++)")
    space = thread_space((32, 1, 1))
    everyone = np.ones(space.size, dtype=bool)
    iterations, bounded = loops.executed_iterations(loop, dict(space.env), value_of, everyone.copy(), everyone,
                                                    lambda text: None)
    assert [value for value, _ in iterations] == [0, 1, 2, 3]
    assert all(active is everyone for _, active in iterations)


def test_an_unknown_bound_runs_a_few_iterations_and_says_so():
    loop = loop_of("for (int k = 0; k < n; k++)")
    (iterations, bounded), notes, _ = execute(loop)
    assert not bounded
    assert [value for value, _ in iterations] == list(range(loops.UNKNOWN_TRIPS))
    assert notes == [f"loop at line {loop.line}: bound unknown, {loops.UNKNOWN_TRIPS} iterations tried"]


def test_a_long_loop_is_cut_at_the_execution_limit():
    loop = loop_of("for (int k = 0; k < 1000; k++)")
    (iterations, bounded), notes, _ = execute(loop, limit=8)
    assert bounded and len(iterations) == 8
    assert notes == [f"loop at line {loop.line}: cut after 8 iterations"]


def test_the_counted_limit_is_larger_than_the_executed_one():
    # trip counts must be exact or absent; the executor stops once it has seen the pattern
    assert loops.COUNTED_LIMIT > loops.EXECUTED_LIMIT

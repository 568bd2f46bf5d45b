"""The sync executor skips work that cannot change its result (accesses to arrays nothing writes,
repeated accesses at an unknown address within one barrier interval, loops of inert events) and
evaluates the iterations of simple loops at once. These check that what does matter is still
found (the JSON snapshots only show that nothing changed on known files)."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from kernelscope.analyses.batched_trips import MIXED, NOWHERE, counter_column, values_for_trips
from kernelscope.analyses.loops import UNKNOWN
from kernelscope.frontend import parse_file


def kernel_of(body: str, params: str = "const float* x, float* y, int n"):
    source = f'extern "C" __global__ void k({params})\n{{\n{body}\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0]


def analyze(body: str, bindings=None, **kwargs):
    return sync.analyze(kernel_of(body, **kwargs), (64, 1, 1), bindings or {}, grid=(2, 1, 1))


def test_only_accesses_to_arrays_nothing_writes_are_read_only():
    kernel = kernel_of("""
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] = tile[63 - threadIdx.x] + x[threadIdx.x + 1];""")
    events = sync.program_order(kernel)
    sync.mark_read_only(events)
    read_only = {(e.record.array, e.record.op) for e in events if e.read_only}
    assert read_only == {("x", "load")}
    assert any(e.plain_access and e.record.array == "tile" and e.record.op == "load" for e in events)


def test_a_load_of_a_written_shared_array_in_a_loop_still_races():
    result = analyze("""
__shared__ float tile[64];
float s = 0.0f;
for (int k = 0; k < 4; k++) {
    tile[threadIdx.x] = x[k * 64 + threadIdx.x];
    s += tile[(threadIdx.x + k + 1) % 64];
}
y[threadIdx.x] = s;""")
    assert ("tile", "RAW") in {(r.array, r.kind) for r in result.shared_races}


def test_a_barrier_before_loads_of_a_written_array_is_still_needed():
    result = analyze("""
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
float s = 0.0f;
for (int k = 0; k < 8; k++)
    s += tile[(threadIdx.x + k) % 64];
y[threadIdx.x] = s;""")
    assert not result.redundant_barriers and not result.shared_races


def test_a_read_only_array_at_an_unknown_address_is_still_noted():
    result = analyze("""
float s = 0.0f;
for (int k = 0; k < 4; k++)
    s += x[k * m + threadIdx.x];
y[threadIdx.x] = s;""", params="const float* x, float* y, int m")
    assert any("address of x[" in note for note in result.notes)
    assert not result.exact


def test_an_unknown_store_address_repeated_in_a_loop_still_keeps_the_barrier():
    # every store after the barrier is at an unknown address: one of them is enough to keep it
    result = analyze("""
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 0; k < 4; k++)
    tile[(threadIdx.x * m + k) % 64] = 0.0f;""", params="const float* x, float* y, int m")
    assert not result.redundant_barriers
    assert sum("address of tile[" in note for note in result.notes) == 1


# -- iterations evaluated at once ------------------------------------------------------------------

BATCHED_BODIES = {
    "a shared tile read in a long loop": """
__shared__ float tile[64];
tile[threadIdx.x] = x[threadIdx.x];
__syncthreads();
float s = 0.0f;
for (int t = 0; t < 64; t++)
    s += tile[t];
y[threadIdx.x] = s;""",
    "a loop-carried race": """
__shared__ float tile[64];
for (int k = 0; k < 16; k++) {
    tile[(threadIdx.x + k) % 64] = x[k];
    y[k * 64 + threadIdx.x] = tile[(threadIdx.x + 2 * k) % 64];
}""",
    "conditions on the counter": """
__shared__ float tile[64];
for (int k = 0; k < 16; k++)
    if (threadIdx.x > k && threadIdx.x < 4 * k)
        tile[threadIdx.x - k] = x[k];""",
    "a division by zero in one iteration only": """
__shared__ float tile[64];
for (int k = 0; k < 16; k++)
    tile[(64 / (k - 5) + threadIdx.x) % 64] = x[k];
y[threadIdx.x] = tile[threadIdx.x];""",
    "an unbound size in the address": """
__shared__ float tile[64];
for (int k = 0; k < 16; k++)
    tile[(k * n + threadIdx.x) % 64] = x[k];
y[threadIdx.x] = tile[threadIdx.x];""",
    "a counter starting at an outer counter": """
__shared__ float tile[64];
for (int k = 2; k <= 8; k *= 2)
    for (int j = k; j < k + 16; j++)
        tile[(threadIdx.x + j) % 64] = x[j];
y[threadIdx.x] = tile[threadIdx.x];""",
    "a per-thread counter": """
__shared__ float tile[256];
for (int i = threadIdx.x; i < 256; i += 16)
    tile[i] = x[i];
for (int i = threadIdx.x; i < 256; i += 16)
    y[i] = tile[255 - i];""",
}


@pytest.mark.parametrize("name", sorted(BATCHED_BODIES))
def test_iterations_evaluated_at_once_find_what_one_by_one_finds(name, monkeypatch):
    kernel = kernel_of(BATCHED_BODIES[name])
    batched = sync.analyze(kernel, (64, 1, 1), {}, grid=(2, 1, 1)).to_json()
    monkeypatch.setattr(sync, "MIN_BATCH", 1 << 30)
    one_by_one = sync.analyze(kernel, (64, 1, 1), {}, grid=(2, 1, 1)).to_json()
    assert batched == one_by_one


def test_the_batched_loops_are_batched(monkeypatch):
    # the comparison above means something only if batches run and some of them give up
    outcomes = []
    real = sync.BlockRun.run_batched

    def watched(self, *args):
        outcomes.append(real(self, *args))
        return outcomes[-1]

    monkeypatch.setattr(sync.BlockRun, "run_batched", watched)
    for body in (BATCHED_BODIES["a shared tile read in a long loop"],
                 BATCHED_BODIES["a division by zero in one iteration only"]):
        sync.analyze(kernel_of(body), (64, 1, 1), {}, grid=(2, 1, 1))
    assert True in outcomes and False in outcomes


def test_values_for_trips_tells_failures_of_every_iteration_from_those_of_some():
    env = {"threadIdx.x": np.arange(4, dtype=np.int64), "k": np.arange(3, dtype=np.int64).reshape(3, 1)}
    tid, k = sx.Sym("threadIdx.x"), sx.Sym("k")
    values = values_for_trips(sx.binary("+", tid, sx.binary("*", k, 10)), env, (3, 4), frozenset(), {})
    assert np.array_equal(values, np.arange(4)[None, :] + 10 * np.arange(3)[:, None])
    assert values_for_trips(sx.binary("+", tid, sx.Sym("n")), env, (3, 4), frozenset(), {}) is NOWHERE
    assert values_for_trips(sx.binary("/", tid, k), env, (3, 4), frozenset(), {}) is MIXED     # k = 0 once
    assert values_for_trips(sx.binary("*", k, 1.5), env, (3, 4), frozenset(), {}) is MIXED
    carried = {**env, "s": UNKNOWN}
    assert values_for_trips(sx.binary("+", tid, sx.Sym("s")), carried, (3, 4), frozenset({"s"}), {}) is NOWHERE
    chosen = sx.Select(sx.binary("<", k, 1), sx.Sym("s"), tid)
    assert values_for_trips(chosen, carried, (3, 4), frozenset({"s"}), {}) is MIXED
    # a counter whose start reads a carried name: bound, its start is not evaluated
    started = sx.binary("+", tid, sx.Sym("k", default=sx.binary("*", sx.Sym("s"), 2)))
    assert np.array_equal(values_for_trips(started, carried, (3, 4), frozenset({"s"}), {}),
                          np.arange(4)[None, :] + np.arange(3)[:, None])
    unbound_counter = {name: value for name, value in carried.items() if name != "k"}
    assert values_for_trips(started, unbound_counter, (3, 4), frozenset({"s"}), {}) is NOWHERE


def test_a_counter_column_holds_plain_integers_only():
    assert counter_column([0, 1, 2], 8).shape == (3, 1)
    assert counter_column([np.arange(8, dtype=np.int64)] * 2, 8).shape == (2, 8)
    assert counter_column([0, 1 << 40], 8) is None
    assert counter_column([0.5, 1.5], 8) is None


# -- loops of inert events -------------------------------------------------------------------------

QUIET_LOOPS = """
__shared__ float tile[64];
float a = x[threadIdx.x];
for (int r = 0; r < 4; r++)
    for (int q = 0; q < n; q++)
        a = fmaf(a, sinf(a), 1.0f);
for (int q = 0; q < 8; q++)
    a = cosf(a);
tile[threadIdx.x] = a;
y[threadIdx.x] = tile[(threadIdx.x + 1) % 64];"""


@pytest.mark.parametrize("max_steps", [5, 13, 14, 15, 40, 20000])
def test_skimming_a_loop_of_inert_events_leaves_what_running_it_leaves(max_steps, monkeypatch):
    kernel = kernel_of(QUIET_LOOPS)
    monkeypatch.setattr(sync, "MAX_STEPS", max_steps)
    skimmed = sync.analyze(kernel, (64, 1, 1), {}, grid=(2, 1, 1)).to_json()
    monkeypatch.setattr(sync.BlockRun, "skim", lambda self, node, env: self.iterate(node, env, self.everyone, (), False))
    run = sync.analyze(kernel, (64, 1, 1), {}, grid=(2, 1, 1)).to_json()
    assert skimmed == run
    if max_steps == 20000:
        assert skimmed["shared_races"] and any("bound unknown" in note for note in skimmed["notes"])
    if max_steps < 20:
        assert any("trace cut" in note for note in skimmed["notes"])

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
from kernel_bodies import kernel_of


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
    "a barrier in each iteration": """
__shared__ float tile[64];
for (int k = 0; k < 16; k++) {
    tile[(threadIdx.x + k) % 64] = x[k];
    __syncthreads();
    y[k * 64 + threadIdx.x] = tile[(threadIdx.x + 2 * k) % 64];
}""",
    "a barrier some iterations skip": """
__shared__ float tile[64];
for (int k = 0; k < 16; k++) {
    tile[threadIdx.x] = x[k];
    if (threadIdx.x < 4 * k)
        __syncthreads();
    y[k] = tile[63 - threadIdx.x];
}""",
    "a barrier in a per-thread loop": """
__shared__ float tile[64];
for (int i = threadIdx.x; i < 200; i += 16) {
    tile[i % 64] = x[i];
    __syncthreads();
}""",
    "two barriers per iteration, one of them needed": """
__shared__ float tile[64];
float s = 0.0f;
for (int k = 0; k < 12; k++) {
    tile[threadIdx.x] = x[k * 64 + threadIdx.x];
    __syncthreads();
    s += tile[(threadIdx.x + k) % 64];
    __syncthreads();
    __syncthreads();
}
y[threadIdx.x] = s;""",
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
    for name in ("a barrier in each iteration", "a barrier some iterations skip", "a barrier in a per-thread loop"):
        outcomes.clear()
        sync.analyze(kernel_of(BATCHED_BODIES[name]), (64, 1, 1), {}, grid=(2, 1, 1))
        assert True in outcomes, name


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


# -- loops found again in the next block -----------------------------------------------------------

NEXT_BLOCK_BODIES = {
    "a reduction": """
__shared__ float s[64];
s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
__syncthreads();
for (int h = 32; h > 0; h >>= 1) {
    if (threadIdx.x < h)
        s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
}
if (threadIdx.x == 0) y[blockIdx.x] = s[0];""",
    "an unknown bound, noted": """
__shared__ float s[64];
for (int k = 0; k < n; k++) {
    s[(threadIdx.x + k) % 64] = x[k];
    __syncthreads();
}""",
    "a bound on blockIdx": """
__shared__ float s[64];
for (int k = 0; k < blockIdx.x + 2; k++) {
    s[threadIdx.x] = x[k];
    __syncthreads();
}""",
    "a return before the loop": """
__shared__ float s[64];
if (threadIdx.x >= 48 && blockIdx.x == 1) return;
for (int k = 0; k < 4; k++) {
    s[(threadIdx.x + k) % 64] = x[k];
    __syncthreads();
}""",
}


def _fresh_block_start(size: int) -> tuple:
    # what each block started from before the arrays were shared: nothing is found again
    return (np.ones(size, dtype=bool), np.zeros(size, dtype=np.int64), np.full(size, 32, dtype=np.int64))


@pytest.mark.parametrize("name", sorted(NEXT_BLOCK_BODIES))
def test_loops_found_again_in_the_next_block_find_what_computing_them_finds(name, monkeypatch):
    kernel = kernel_of(NEXT_BLOCK_BODIES[name])
    shared = sync.analyze(kernel, (64, 1, 1), {}, grid=(3, 1, 1)).to_json()
    monkeypatch.setattr(sync, "_block_start", _fresh_block_start)
    computed = sync.analyze(kernel, (64, 1, 1), {}, grid=(3, 1, 1)).to_json()
    assert shared == computed


def test_loops_are_found_again_in_the_next_block(monkeypatch):
    # the comparison above means something only if later blocks do find loops again
    calls = []
    real = sync.executed_iterations

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(sync, "executed_iterations", counted)
    kernel = kernel_of(NEXT_BLOCK_BODIES["a reduction"])
    sync.analyze(kernel, (64, 1, 1), {}, grid=(3, 1, 1))
    shared = len(calls)
    calls.clear()
    monkeypatch.setattr(sync, "_block_start", _fresh_block_start)
    sync.analyze(kernel, (64, 1, 1), {}, grid=(3, 1, 1))
    assert shared < len(calls)


# -- accesses at one address reduced to two threads ------------------------------------------------

BROADCAST_BODIES = {
    "a tile read by every thread": """
__shared__ float tile[64];
float s = 0.0f;
for (int base = 0; base < 256; base += 64) {
    tile[threadIdx.x] = x[base + threadIdx.x];
    __syncthreads();
    for (int t = 0; t < 64; t++)
        s += tile[t];
    __syncthreads();
}
y[threadIdx.x] = s;""",
    "one slot written by every thread": """
__shared__ float flag[4];
flag[1] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] = flag[1];""",
    "a wide element read by every thread": """
__shared__ float4 tile[64];
tile[threadIdx.x] = make_float4(x[threadIdx.x], 0.0f, 0.0f, 0.0f);
__syncthreads();
float s = 0.0f;
for (int t = 0; t < 64; t++)
    s += tile[t].x;
y[threadIdx.x] = s;""",
    "a read by every thread, then a write by one": """
__shared__ float tile[64];
float v = tile[5];
if (threadIdx.x == 3)
    tile[5] = v + 1.0f;
__syncthreads();
y[threadIdx.x] = v;""",
}


@pytest.mark.parametrize("name", sorted(BROADCAST_BODIES))
def test_accesses_at_one_address_reduced_find_what_all_their_threads_find(name, monkeypatch):
    kernel = kernel_of(BROADCAST_BODIES[name])
    reduced = sync.analyze(kernel, (64, 1, 1), {}, grid=(2, 1, 1)).to_json()
    monkeypatch.setattr(sync, "_touching", sync._footprints)
    every_thread = sync.analyze(kernel, (64, 1, 1), {}, grid=(2, 1, 1)).to_json()
    assert reduced == every_thread


def test_accesses_at_one_address_are_reduced(monkeypatch):
    # the comparison above means something only if some accesses do lose rows
    reduced = []
    real = sync._touching

    def watched(instances, granule):
        touching = real(instances, granule)
        full = sync._footprints(instances, granule)
        reduced.extend(t[0].size < f[0].size for t, f in zip(touching, full))
        return touching

    monkeypatch.setattr(sync, "_touching", watched)
    for body in BROADCAST_BODIES.values():
        sync.analyze(kernel_of(body), (64, 1, 1), {}, grid=(2, 1, 1))
    assert True in reduced and False in reduced

"""A batched loop's barrier intervals are screened for words two threads touch all at once
(`batched_intervals`); the race checks at its barriers then skip the arrays the screen clears.
These compare the findings with the screen on and off on kernels whose batched loops have
barriers, and check that a screen that clears too much is caught."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernelscope.analyses.batched_intervals import interval_numbers, intervals_sharing_a_word
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]


BODIES = {
    "an in-place scan (races in every interval)": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int off = 1; off < 256; off *= 2) {
    if (threadIdx.x >= off)
        t[threadIdx.x] += t[threadIdx.x - off];
    __syncthreads();
}
y[threadIdx.x] = t[threadIdx.x];""",
    "a reduction that races once the stride is below a warp": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
        t[threadIdx.x] += t[threadIdx.x + s];
    if (s > 16)
        __syncthreads();
}
y[0] = t[0];""",
    "a correct reduction": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
        t[threadIdx.x] += t[threadIdx.x + s];
    __syncthreads();
}
y[blockIdx.x] = t[0];""",
    "a store before and a load after the barrier, to global memory too": """
__shared__ short t[512];
for (int k = 0; k < 12; k++) {
    t[(threadIdx.x + k) % 512] = (short)k;
    y[k * 256 + threadIdx.x] = 1.0f;
    __syncthreads();
    y[k * 256 + (threadIdx.x + k) % 256] += t[(2 * threadIdx.x + k) % 512];
}""",
    "a store before the loop that only its first interval meets": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 10; k++) {
    y[k * 256 + threadIdx.x] = t[(threadIdx.x + 1) % 256];
    __syncthreads();
}""",
    "two element sizes on one array": """
__shared__ float t[512];
for (int k = 0; k < 10; k++) {
    ((float2 *)t)[threadIdx.x] = make_float2(1.0f, 2.0f);
    __syncthreads();
    y[threadIdx.x] = t[(threadIdx.x + k) % 512];
    __syncthreads();
}""",
}

CORPUS = ["corpus/bitonic_sort/shared_network.cu", "corpus/row_scan/hillis_steele.cu",
          "corpus/stream_compact/block_scan.cu", "examples/reduction.cu", "corpus/softmax/block_shared.cu"]


def _cases():
    for name, body in BODIES.items():
        yield name, kernel_of(body), {}
    for path in CORPUS:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            yield f"{path}:{kernel.name}", kernel, {"len": 1024, "n": 1 << 20, "cols": 1024, "rows": 8}


def _findings(kernel, bindings) -> dict:
    return sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 1, 1)).to_json()


def _same_without(switch: str, kernel, bindings, monkeypatch) -> None:
    """The findings with sync's `switch` on equal those with it off, and those with no loop batched."""
    expected = _findings(kernel, bindings)
    monkeypatch.setattr(sync, switch, False)
    assert expected == _findings(kernel, bindings)
    monkeypatch.setattr(sync, "MIN_BATCH", 1 << 30)
    assert expected == _findings(kernel, bindings)


@pytest.mark.parametrize("name,kernel,bindings", list(_cases()), ids=lambda case: case if isinstance(case, str) else "")
def test_screened_intervals_find_what_unscreened_ones_find(name, kernel, bindings, monkeypatch):
    _same_without("SCREEN_INTERVALS", kernel, bindings, monkeypatch)


def test_the_screen_runs_and_clears_intervals(monkeypatch):
    # (watched where an interval closes: one whose written arrays are all cleared does not call
    # races_within at all since syncfast12)
    cleared = []
    real = sync.BlockRun.close_interval

    def watched(run, barrier):
        cleared.append(bool(run.unshared))
        return real(run, barrier)

    monkeypatch.setattr(sync.BlockRun, "close_interval", watched)
    _findings(kernel_of(BODIES["a correct reduction"]), {})
    assert True in cleared


def test_a_screen_that_clears_every_interval_loses_races(monkeypatch):
    kernel = kernel_of(BODIES["an in-place scan (races in every interval)"])
    honest = sync.analyze(kernel, (256, 1, 1), {}, grid=(2, 1, 1))
    assert honest.shared_races
    monkeypatch.setattr(sync, "intervals_sharing_a_word", lambda intervals, words, threads, count:
                        np.zeros(count, dtype=bool))
    assert not sync.analyze(kernel, (256, 1, 1), {}, grid=(2, 1, 1)).shared_races


def test_interval_numbers_follow_execution_order():
    # body: access, barrier, access, barrier (the second barrier skipped in trip 1), three trips
    runs = [None, np.array([True, True, True]), None, np.array([True, False, True])]
    numbers, closed = interval_numbers(runs, [0, 2], 3)
    assert closed == 5
    assert numbers[0].tolist() == [0, 2, 3]
    assert numbers[1].tolist() == [1, 3, 4]
    # an access after the last barrier run is in an interval the batch leaves open
    numbers, closed = interval_numbers([np.array([True, True]), None], [1], 2)
    assert closed == 2 and numbers[0].tolist() == [1, -1]


@pytest.mark.parametrize("dense", [True, False])
def test_intervals_sharing_a_word_per_interval(dense, monkeypatch):
    if not dense:
        monkeypatch.setattr("kernelscope.analyses.batched_intervals.DENSE_SLOTS", 0)
    scale = 1 if dense else 1 << 40
    intervals = np.array([0, 0, 1, 1, 2, 2, 3])
    words = np.array([5, 5, 5, 6, 7, 7, 9]) * scale
    threads = np.array([1, 2, 3, 3, 4, 4, 5])
    # 0: two threads on word 5; 1: one thread, two words; 2: one thread twice; 3: alone; 4: empty
    assert intervals_sharing_a_word(intervals, words, threads, 5).tolist() == [True, False, False, False, False]


# -- loops of loops run as one batch ---------------------------------------------------------------

NESTS = {
    "a sorting network (the inner loop reads the outer counter)": """
__shared__ float v[256];
int i = threadIdx.x;
v[i] = x[i];
__syncthreads();
for (int k = 2; k <= 256; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) {
        int partner = i ^ j;
        if (partner > i) {
            bool up = (i & k) == 0;
            float a = v[i], b = v[partner];
            if ((a > b) == up) {
                v[i] = b;
                v[partner] = a;
            }
        }
        __syncthreads();
    }
y[i] = v[i];""",
    "a network with an unknown length": """
__shared__ float v[1024];
int i = threadIdx.x;
v[i] = x[i];
__syncthreads();
for (int k = 2; k <= n; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) {
        if ((i ^ j) > i && v[i] > v[i ^ j])
            v[i] = v[i ^ j];
        __syncthreads();
    }
y[i] = v[i];""",
    "an inner loop that does not read the outer counter, with stores around it": """
__shared__ float t[256];
float s = 0.0f;
for (int r = 0; r < 6; r++) {
    t[threadIdx.x] = x[r * 256 + threadIdx.x];
    for (int q = 0; q < 8; q++) {
        __syncthreads();
        s += t[(threadIdx.x + q) % 256];
    }
    for (int u = 0; u < 4; u++)
        s = s * 0.5f;
    y[r * 256 + threadIdx.x] = s;
}""",
    "an inner loop of unknown length": """
__shared__ float t[256];
for (int r = 0; r < 12; r++)
    for (int q = 0; q < n; q++) {
        t[(threadIdx.x + q + r) % 256] = 1.0f;
        __syncthreads();
    }
y[threadIdx.x] = t[threadIdx.x];""",
    "an inner loop whose length becomes unknown": """
__shared__ float t[256];
for (int r = 0; r < 12; r++)
    for (int q = 0; q < 16 / (r - 5); q++) {
        t[(threadIdx.x + q + r) % 256] = 1.0f;
        __syncthreads();
    }
y[threadIdx.x] = t[threadIdx.x];""",
    "a racing nest with a thread-dependent inner loop": """
__shared__ float t[256];
for (int r = 0; r < 8; r++)
    for (int q = threadIdx.x % 4; q < 12; q += 2) {
        t[(threadIdx.x + q + r) % 256] = 1.0f;
        if (q < 10)
            __syncthreads();
    }
y[threadIdx.x] = t[threadIdx.x];""",
}


def _nest_cases():
    for name, body in NESTS.items():
        yield name, kernel_of(body), {}
    for path in ("corpus/bitonic_sort/shared_network.cu", "corpus/bitonic_sort/shuffle_network.cu",
                 "corpus/bitonic_sort/global_network.cu"):
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            for bindings in ({}, {"len": 512, "rows": 4}):
                yield f"{path}:{kernel.name}:{bindings}", kernel, bindings


NEST_CASES = list(_nest_cases())


@pytest.mark.parametrize("name,kernel,bindings", NEST_CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_a_nest_run_as_one_batch_finds_what_the_walk_finds(name, kernel, bindings, monkeypatch):
    _same_without("NEST_BATCHES", kernel, bindings, monkeypatch)


def test_a_nest_batch_cut_short_by_the_trace_limit_is_walked(monkeypatch):
    kernel = kernel_of(NESTS["a sorting network (the inner loop reads the outer counter)"])
    monkeypatch.setattr(sync, "MAX_STEPS", 60)
    batched = _findings(kernel, {})
    assert any("trace cut" in note for note in batched["notes"])
    monkeypatch.setattr(sync, "NEST_BATCHES", False)
    assert batched == _findings(kernel, {})


def _outcomes(monkeypatch) -> list:
    outcomes = []
    real = sync.BlockRun.run_nest_batched

    def watched(self, *args):
        outcomes.append(real(self, *args))
        return outcomes[-1]

    monkeypatch.setattr(sync.BlockRun, "run_nest_batched", watched)
    return outcomes


def test_the_nests_are_batched(monkeypatch):
    outcomes = _outcomes(monkeypatch)
    for name in NESTS:
        outcomes.clear()
        _findings(kernel_of(NESTS[name]), {})
        assert True in outcomes, name


@pytest.mark.parametrize("broken", ["counter kept", "notes dropped", "rows reversed"])
def test_a_broken_nest_batch_is_caught(broken, monkeypatch):
    if broken == "counter kept":
        # the inner loop's later iterations see the outer counter, which the walk forgets there
        real = sync.BlockRun.inner_rows
        monkeypatch.setattr(sync.BlockRun, "inner_rows", lambda self, child, outer_var, *rest: real(
            self, dataclasses.replace(child, carried=child.carried - {outer_var}), outer_var, *rest))
    elif broken == "notes dropped":
        real = sync.BlockRun.prepare_nest

        def dropped(self, *args):
            prepared = real(self, *args)
            return prepared and ([item for item in prepared[0] if item[0] is not None], prepared[1])

        monkeypatch.setattr(sync.BlockRun, "prepare_nest", dropped)
    else:
        real = sync.BlockRun.prepare_nest
        monkeypatch.setattr(sync.BlockRun, "prepare_nest", lambda self, *args:
                            (lambda prepared: prepared and (prepared[0][::-1], prepared[1]))(real(self, *args)))
    differs = []
    for name, kernel, bindings in NEST_CASES:
        broken_findings = _findings(kernel, bindings)
        with monkeypatch.context() as unbroken:
            unbroken.setattr(sync, "NEST_BATCHES", False)
            differs.append(broken_findings != _findings(kernel, bindings))
    assert any(differs)


# -- what a batch shares between the events of one statement -----------------------------------------

def test_a_batch_plan_that_shares_addresses_too_widely_is_caught(monkeypatch):
    # the load and the store of `t[i] += t[i - off]` share one address array; the other load's
    # addresses differ: sharing by array would take them for the same
    kernel = kernel_of(BODIES["an in-place scan (races in every interval)"])
    expected = _findings(kernel, {})
    monkeypatch.setattr(sync, "_address_key", lambda event: event.record.array)
    assert _findings(kernel, {}) != expected


def test_a_screen_that_merges_different_rows_is_caught(monkeypatch):
    kernel = kernel_of(BODIES["an in-place scan (races in every interval)"])
    expected = _findings(kernel, {})
    assert expected["shared_races"]
    monkeypatch.setattr(sync, "_same_rows", lambda entry, other: True)
    assert _findings(kernel, {}) != expected


def test_events_of_one_statement_share_their_rows(monkeypatch):
    merged = []
    real = sync._same_rows

    def watched(entry, other):
        merged.append(real(entry, other))
        return merged[-1]

    monkeypatch.setattr(sync, "_same_rows", watched)
    _findings(kernel_of(BODIES["a correct reduction"]), {})
    assert True in merged

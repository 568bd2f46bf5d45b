"""A nest batch's look-ahead (`BlockRun.prepare_nest`) asks an inner loop whose bounds (and, for a
quiet loop, the bounds of every loop in it) do not read the outer counter once, in the first trip,
and takes that answer for the later trips (`REPEATED_TRIPS`, `_same_every_trip`): the iterations of
a batchable loop, or what skimming a quiet one leaves behind. These compare the findings with the
reuse on and off on nests where the two could differ: bounds that read the outer counter directly
or through a loop inside a quiet one, an inner loop that carries the outer counter (the register
tiles' `qs[t][ty * 4 + u]`), bounds on an unknown size (notes made per trip), a quiet loop that
forgets a value the rest of the body reads, a trace cut, and the corpus kernels it was made for."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]

NESTS = {
    "a register tile (inner loop carries the outer counter, quiet fma loops)": """
__shared__ float qs[16][68];
float acc[4][4] = {};
for (int e = threadIdx.x; e < 16 * 64; e += 256)
    qs[e / 64][e % 64] = x[e];
__syncthreads();
for (int t = 0; t < 16; t++) {
    float qv[4];
    for (int u = 0; u < 4; u++)
        qv[u] = qs[t][(threadIdx.x / 16) * 4 + u];
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            acc[a][b] = fmaf(qv[a], qv[b], acc[a][b]);
}
y[threadIdx.x] = acc[0][0];""",
    "inner bounds that read the outer counter": """
__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
for (int k = 1; k < 12; k++) {
    for (int j = 0; j < k % 4 + 1; j++)
        t[(threadIdx.x + k * j) % 512] += t[(threadIdx.x + j) % 512];
    for (int a = 0; a < k; a++)
        for (int b = 0; b < 2; b++)
            y[0] = fmaf(1.0f, 2.0f, 3.0f);
}
y[threadIdx.x] = t[threadIdx.x];""",
    "a quiet loop whose inner loop's bound reads the outer counter": """
__shared__ float t[512];
float acc = 0.0f;
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 12; k++) {
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < k; b++)
            acc = fmaf(acc, 2.0f, 3.0f);
    for (int j = 0; j < 3; j++)
        t[(threadIdx.x + 5 * j) % 512] += t[(threadIdx.x + j) % 512];
}
y[threadIdx.x] = t[threadIdx.x] + acc;""",
    "bounds on an unknown size (notes in every trip)": """
__shared__ float t[512];
float acc = 0.0f;
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 12; k++) {
    for (int j = 0; j < 3; j++)
        t[(threadIdx.x + k * j) % 512] += t[(threadIdx.x + j) % 512];
    for (int a = 0; a < n; a++)
        for (int b = 0; b < 2; b++)
            acc = fmaf(acc, 2.0f, 3.0f);
}
y[threadIdx.x] = t[threadIdx.x] + acc;""",
    "a quiet loop that forgets a value the body reads after it": """
__shared__ float t[512];
int s = 0;
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 12; k++) {
    for (int j = 0; j < 3; j++)
        t[(threadIdx.x + s + j) % 512] += t[(threadIdx.x + j) % 512];
    for (int a = 0; a < 2; a++)
        s += a;
    for (int j = 0; j < 3; j++)
        y[(threadIdx.x + s) % 512] = t[(threadIdx.x + j) % 512];
}""",
}

CORPUS = ("corpus/attention_scores/register_blocked.cu", "corpus/conv2d_image/register_coarsened.cu",
          "corpus/matmul/register_blocked.cu", "corpus/pairwise_dist/register_blocked.cu",
          "corpus/bitonic_sort/shared_network.cu", "corpus/conv2d/register_blocked.cu")


def _cases():
    for name, body in NESTS.items():
        for bindings in ({}, {"n": 3}):
            yield f"{name}:{bindings}", kernel_of(body), bindings
    for path in CORPUS:
        if not (ROOT / path).exists():
            continue
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            for bindings in ({}, {"m": 100, "n": 70, "d": 40, "seq": 80, "dim": 24, "h": 50, "w": 40, "len": 256}):
                yield f"{path}:{kernel.name}:{bindings}", kernel, bindings


CASES = list(_cases())


def _findings(kernel, bindings) -> dict:
    return sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 1, 1)).to_json()


@pytest.mark.parametrize("name,kernel,bindings", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_repeated_trips_find_what_asking_every_trip_finds(name, kernel, bindings, monkeypatch):
    expected = _findings(kernel, bindings)
    monkeypatch.setattr(sync, "REPEATED_TRIPS", False)
    assert expected == _findings(kernel, bindings)


@pytest.mark.parametrize("name,kernel,bindings", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_repeated_trips_find_what_the_walk_finds(name, kernel, bindings, monkeypatch):
    expected = _findings(kernel, bindings)
    monkeypatch.setattr(sync, "NEST_BATCHES", False)
    assert expected == _findings(kernel, bindings)


def _loops_entered_ahead(kernel, monkeypatch) -> int:
    """How many times the look-ahead entered or skimmed an inner loop."""
    count = [0]
    real_enter, real_skim = sync.BlockRun.enter_loop, sync.BlockRun.skim

    def entered(self, *args):
        count[0] += self.memo is self.ahead_memo
        return real_enter(self, *args)

    def skimmed(self, *args):
        count[0] += self.memo is self.ahead_memo
        return real_skim(self, *args)

    with monkeypatch.context() as watching:
        watching.setattr(sync.BlockRun, "enter_loop", entered)
        watching.setattr(sync.BlockRun, "skim", skimmed)
        _findings(kernel, {})
    return count[0]


def test_the_register_tile_asks_its_inner_loops_once():
    kernel = kernel_of(NESTS["a register tile (inner loop carries the outer counter, quiet fma loops)"])
    with pytest.MonkeyPatch.context() as monkeypatch:
        reused = _loops_entered_ahead(kernel, monkeypatch)
        monkeypatch.setattr(sync, "REPEATED_TRIPS", False)
        asked = _loops_entered_ahead(kernel, monkeypatch)
    assert 0 < reused < asked


def test_a_batchable_loop_whose_bounds_read_the_outer_counter_is_asked_every_trip(monkeypatch):
    # (the comparisons above can fail: taking the first trip's iterations for such a loop misses
    # the later trips' second iteration, where every thread stores to t[0])
    kernel = kernel_of("""
__shared__ float t[512];
for (int k = 0; k < 16; k++) {
    for (int j = 0; j < k / 6 + 1; j++)
        t[threadIdx.x * (1 - j)] = x[k];
    for (int a = 0; a < 2; a++)
        y[0] = fmaf(1.0f, 2.0f, 3.0f);
}""")
    expected = _findings(kernel, {})
    assert expected["shared_races"]
    monkeypatch.setattr(sync, "_same_every_trip", lambda child, outer_var: True)
    assert expected != _findings(kernel, {})


def test_a_quiet_loop_whose_inner_bound_reads_the_outer_counter_is_skimmed_every_trip(monkeypatch):
    # (the same for a skim: the first trip's steps are fewer, so a trace cut is missed)
    kernel = kernel_of(NESTS["a quiet loop whose inner loop's bound reads the outer counter"])
    differs = []
    for limit in range(40, 400, 20):
        monkeypatch.setattr(sync, "MAX_STEPS", limit)
        with monkeypatch.context() as forced:
            expected = _findings(kernel, {})
            forced.setattr(sync, "_same_every_trip", lambda child, outer_var: True)
            differs.append(expected != _findings(kernel, {}))
    assert any(differs)

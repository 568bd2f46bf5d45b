"""A loop nest with no barrier anywhere in it (the unrolled register-tile loops that read a shared
tile after it is loaded) runs as one nest batch (`BARRIER_FREE_NESTS`) instead of being walked
iteration by iteration. These compare the findings with the batch on and off (and with no loop
batched at all) on kernels where the two paths could differ: races and unknown addresses inside
the nest, conditions per inner iteration, inner bounds that read the outer counter, values an
inner loop carries, a trace cut inside the nest, and the corpus kernels the switch was made for."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]

NESTS = {
    "a register tile read from a shared tile": """
__shared__ float ps[16][68];
float acc[4] = {};
for (int e = threadIdx.x; e < 16 * 64; e += 256)
    ps[e / 64][e % 64] = x[e];
__syncthreads();
for (int k = 0; k < 16; k++) {
    float pv[4];
    for (int t = 0; t < 4; t++)
        pv[t] = ps[k][(threadIdx.x / 16) * 4 + t];
    for (int a = 0; a < 4; a++)
        acc[a] += pv[a];
}
y[threadIdx.x] = acc[0];""",
    "a race inside the nest (a store every thread makes to one word)": """
__shared__ float t[64];
for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 4; j++)
        t[k * 4 + j] = x[threadIdx.x];
    for (int j = 0; j < 4; j++)
        y[threadIdx.x] += t[(threadIdx.x + j) % 64];
}""",
    "an inner loop whose bound reads the outer counter, under a condition": """
__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
for (int k = 1; k < 9; k++) {
    for (int j = 0; j < k; j++)
        if (threadIdx.x % (j + 2) == 0)
            t[(threadIdx.x + k * j) % 512] += t[(threadIdx.x + j) % 512];
}
y[threadIdx.x] = t[threadIdx.x];""",
    "an address that no thread can compute, and one whose size is unknown": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 4; j++) {
        y[threadIdx.x] += t[(threadIdx.x + j * n) % 256];
        y[threadIdx.x] += t[(threadIdx.x + j + k) % 256];
    }
}""",
    "an inner loop that carries a value the next one reads": """
__shared__ float t[256];
int s = 0;
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 4; j++) {
        t[(threadIdx.x + s) % 256] = t[(threadIdx.x + j) % 256];
        s += j;
    }
    for (int j = 0; j < 4; j++)
        y[(threadIdx.x + s) % 256] = t[(threadIdx.x + j) % 256];
}""",
    "a nest that holds a warp barrier (walked as before)": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
for (int k = 0; k < 8; k++) {
    for (int j = 0; j < 8; j++)
        t[threadIdx.x] += t[(threadIdx.x + j) % 32 + (threadIdx.x / 32) * 32];
    __syncwarp();
}
y[threadIdx.x] = t[threadIdx.x];""",
}

CORPUS = ("corpus/pairwise_dist/register_blocked.cu", "corpus/attention_scores/register_blocked.cu",
          "corpus/conv2d_image/register_coarsened.cu", "corpus/matmul/register_blocked.cu")


def _cases():
    for name, body in NESTS.items():
        for bindings in ({}, {"n": 3}):
            yield f"{name}:{bindings}", kernel_of(body), bindings
    for path in CORPUS:
        if not (ROOT / path).exists():
            continue
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            for bindings in ({}, {"m": 100, "n": 70, "d": 40, "seq": 80, "dim": 24, "h": 50, "w": 40}):
                yield f"{path}:{kernel.name}:{bindings}", kernel, bindings


CASES = list(_cases())


def _findings(kernel, bindings) -> dict:
    return sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 1, 1)).to_json()


@pytest.mark.parametrize("name,kernel,bindings", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_a_barrier_free_nest_batch_finds_what_the_walk_finds(name, kernel, bindings, monkeypatch):
    expected = _findings(kernel, bindings)
    monkeypatch.setattr(sync, "BARRIER_FREE_NESTS", False)
    assert expected == _findings(kernel, bindings)
    monkeypatch.setattr(sync, "MIN_BATCH", 1 << 30)
    monkeypatch.setattr(sync, "NEST_BATCHES", False)
    assert expected == _findings(kernel, bindings)


def _batched_nests(kernel, monkeypatch) -> list:
    """What `run_nest_batched` answered for each nest it was asked to run."""
    outcomes: list = []
    real = sync.BlockRun.run_nest_batched

    def watched(self, *args):
        outcomes.append(real(self, *args))
        return outcomes[-1]

    with monkeypatch.context() as watching:
        watching.setattr(sync.BlockRun, "run_nest_batched", watched)
        _findings(kernel, {})
    return outcomes


@pytest.mark.parametrize("name", ["a register tile read from a shared tile",
                                  "a race inside the nest (a store every thread makes to one word)"])
def test_barrier_free_nests_are_batched(name, monkeypatch):
    assert True in _batched_nests(kernel_of(NESTS[name]), monkeypatch)
    monkeypatch.setattr(sync, "BARRIER_FREE_NESTS", False)
    assert not _batched_nests(kernel_of(NESTS[name]), monkeypatch)


def test_a_nest_with_a_barrier_in_its_own_body_is_still_walked(monkeypatch):
    # (a tile loop: its iterations' arrays are shared with the next block through the memo)
    kernel = kernel_of("""
__shared__ float t[256];
for (int k = 0; k < 8; k++) {
    t[threadIdx.x] = x[k * 256 + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < 8; j++)
        y[threadIdx.x] += t[(threadIdx.x + j) % 256];
    __syncthreads();
}""")
    assert not _batched_nests(kernel, monkeypatch)


def test_the_race_inside_a_batched_nest_is_found(monkeypatch):
    found = _findings(kernel_of(NESTS["a race inside the nest (a store every thread makes to one word)"]), {})
    assert found["shared_races"]


def test_a_barrier_free_nest_batch_that_drops_rows_is_caught(monkeypatch):
    # (the comparison above can fail: a batch that records only its first row finds less)
    real = sync.BlockRun.prepare_nest

    def first_row_only(self, *args):
        prepared = real(self, *args)
        return prepared and (prepared[0][:1], prepared[1])

    monkeypatch.setattr(sync.BlockRun, "prepare_nest", first_row_only)
    differs = []
    for _, kernel, bindings in CASES:
        broken = _findings(kernel, bindings)
        with monkeypatch.context() as unbroken:
            unbroken.setattr(sync, "BARRIER_FREE_NESTS", False)
            unbroken.setattr(sync, "NEST_BATCHES", False)
            differs.append(broken != _findings(kernel, bindings))
    assert any(differs)


def test_a_barrier_free_nest_cut_short_by_the_trace_limit_is_walked(monkeypatch):
    kernel = kernel_of(NESTS["a register tile read from a shared tile"])
    monkeypatch.setattr(sync, "MAX_STEPS", 50)
    batched = _findings(kernel, {})
    assert any("trace cut" in note for note in batched["notes"])
    monkeypatch.setattr(sync, "BARRIER_FREE_NESTS", False)
    assert batched == _findings(kernel, {})


def test_a_barrier_free_nest_whose_inner_loop_batches_alone_is_left_to_it(monkeypatch):
    # an inner loop of MIN_BATCH trips or more is run by `run_batched` in each outer trip already
    kernel = kernel_of("""
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 0; k < 8; k++)
    for (int j = 0; j < 16; j++)
        y[threadIdx.x] += t[(k * 16 + j) % 256];""")
    outcomes = _batched_nests(kernel, monkeypatch)
    assert outcomes and not any(outcomes)
    expected = _findings(kernel, {})
    monkeypatch.setattr(sync, "BARRIER_FREE_NESTS", False)
    assert expected == _findings(kernel, {})

"""Instances of one analysis with the same address array and the same threads share one footprint
(`sync.Footprints`): a load and a store of `t[i] += ...`, or an access of the next block whose
address does not read blockIdx. The check whether two threads touch one word counts a shared
footprint once, and asks a footprint met alone once. These compare the findings with the sharing
on and off, and check that a table that confuses two footprints is caught."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels

BODIES = {
    "one address array stored by more threads in each iteration": """
__shared__ float t[64];
for (int k = 1; k <= 2; k++) {
    if (threadIdx.x < 32 * k)
        t[threadIdx.x % 32] = x[threadIdx.x];
    __syncthreads();
}
y[threadIdx.x] = t[threadIdx.x % 32];""",
    "an accumulation in place, then a reduction": """
__shared__ float t[256];
t[threadIdx.x] = 0.0f;
for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * gridDim.x)
    t[threadIdx.x] += x[i];
for (int s = 128; s > 0; s >>= 1) {
    __syncthreads();
    if (threadIdx.x < s)
        t[threadIdx.x] += t[threadIdx.x + s];
}
if (threadIdx.x == 0)
    y[blockIdx.x] = t[0];""",
    "a neighbour read that races in every block": """
__shared__ float t[256];
t[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
y[blockIdx.x * 256 + threadIdx.x] = t[(threadIdx.x + 1) % 256];
__syncthreads();
t[threadIdx.x] += 1.0f;""",
    "a global store every block makes to one address": """
y[threadIdx.x % 4] = x[blockIdx.x];
__syncthreads();
y[threadIdx.x % 4] += 1.0f;""",
}

CORPUS = ["corpus/row_scan/hillis_steele.cu", "examples/reduction.cu", "corpus/softmax/block_shared.cu",
          "tests/kernels/realworld/babelstream.cu", "tests/kernels/realworld/samples_reduction.cu"]


def _cases():
    return named_kernels(BODIES, CORPUS)


def _findings(kernel) -> dict:
    return sync.analyze(kernel, (256, 1, 1), {"n": 1 << 12, "cols": 1024}, grid=(4, 1, 1)).to_json()


@pytest.mark.parametrize("name,kernel", list(_cases()), ids=lambda case: case if isinstance(case, str) else "")
def test_shared_footprints_find_what_separate_ones_find(name, kernel, monkeypatch):
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "SHARE_FOOTPRINTS", False)
    assert _findings(kernel) == expected


def test_footprints_are_shared(monkeypatch):
    found = []
    real = sync.Footprints.find

    def watched(self, *args):
        entry = real(self, *args)
        found.append(entry is not None)
        return entry

    monkeypatch.setattr(sync.Footprints, "find", watched)
    for body in BODIES.values():
        _findings(kernel_of(body))
    assert True in found and False in found


def test_a_table_that_ignores_the_threads_is_caught(monkeypatch):
    kernel = kernel_of(BODIES["one address array stored by more threads in each iteration"])
    expected = _findings(kernel)
    assert expected["shared_races"]

    def by_addresses_only(self, addresses, mask, full, granule, pieces):
        return next((entry for entry in self.entries.values() if entry.addresses is addresses), None)

    monkeypatch.setattr(sync.Footprints, "find", by_addresses_only)
    assert _findings(kernel) != expected


def _agree_with_concatenating(seed: int) -> None:
    """`_two_threads_among` (asked twice, the second time from what it kept) against the check on
    every row of every footprint, footprints repeated as instances repeat them."""
    rng = np.random.default_rng(seed)
    shared = sync.Footprints()
    outcomes = set()
    for _ in range(300):
        sizes = rng.integers(1, 5, 3)
        pairs = [(rng.integers(0, 6, size), rng.integers(0, 3, size)) for size in sizes]
        footprints = [pairs[k] for k in rng.integers(0, int(rng.integers(1, 4)), int(rng.integers(1, 5)))]
        expected = sync._two_threads_on_a_word(np.concatenate([w for w, _ in footprints]),
                                               np.concatenate([t for _, t in footprints]))
        assert sync._two_threads_among(footprints, shared) == expected
        assert sync._two_threads_among(footprints, shared) == expected
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_two_threads_among_footprints_agrees_with_concatenating_them():
    _agree_with_concatenating(1)


def test_an_alone_answer_kept_wrong_is_caught(monkeypatch):
    real = sync.Footprints.remember_alone
    monkeypatch.setattr(sync.Footprints, "remember_alone", lambda self, pair, answer: real(self, pair, not answer))
    with pytest.raises(AssertionError):
        _agree_with_concatenating(1)


# -- footprints whose words rise, in ranges apart ------------------------------------------------------

def _apart_agrees(seed: int) -> set:
    """`_two_threads_among` on footprints of rising words, some repeated by equal copies (a load and
    a store of one element in two statements), against the check on all their rows."""
    rng = np.random.default_rng(seed)
    outcomes = set()
    for _ in range(300):
        pairs = []
        for _ in range(int(rng.integers(2, 5))):
            low = int(rng.integers(0, 40))
            words = low + np.cumsum(rng.integers(1, 3, int(rng.integers(1, 5))))
            threads = rng.integers(0, 4, words.size) if rng.random() < 0.5 else np.arange(words.size)
            pairs.append((words, threads))
            if rng.random() < 0.4:
                pairs.append((words.copy(), threads.copy() if rng.random() < 0.8 else threads[::-1].copy()))
        expected = sync._two_threads_on_a_word(np.concatenate([w for w, _ in pairs]),
                                               np.concatenate([t for _, t in pairs]))
        assert sync._two_threads_among(pairs, sync.Footprints()) == expected
        assert sync._two_threads_among(pairs, None) == expected
        outcomes.add((expected, sync._apart(pairs, None)))
    return outcomes


def test_rising_footprints_apart_share_no_word():
    assert {(False, True), (False, False), (True, False)} <= _apart_agrees(2)


def test_copies_that_differ_in_threads_are_caught(monkeypatch):
    monkeypatch.setattr(sync, "_equal_pairs", lambda pair, other: True)
    with pytest.raises(AssertionError):
        _apart_agrees(2)


@pytest.mark.parametrize("name,kernel", list(_cases()), ids=lambda case: case if isinstance(case, str) else "")
def test_footprints_apart_find_what_their_rows_find(name, kernel, monkeypatch):
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "SPANS_APART", False)
    assert _findings(kernel) == expected

"""At every barrier executed, `BlockRun.divergence_reason` asks whether every live thread reaches
it; `sync._reaches_all` answers with one count while no thread has returned (the live threads
are then all of them) instead of `np.array_equal(reached & live, live)`. These compare the
findings with the comparison's and check that an answer which ignores the live threads, or the
threads reached, is caught."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels

BODIES = {
    "a barrier under a thread-dependent condition": """
__shared__ float t[128];
t[threadIdx.x] = x[threadIdx.x];
if (threadIdx.x < 64)
    __syncthreads();
y[threadIdx.x] = t[127 - threadIdx.x];""",
    "a return before a barrier": """
__shared__ float t[128];
if (threadIdx.x >= 100)
    return;
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] = t[99 - threadIdx.x];""",
    "a barrier after a return, reached by every live thread": """
__shared__ float t[128];
if (threadIdx.x >= 96)
    return;
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
if (threadIdx.x < 32)
    __syncthreads();
y[threadIdx.x] = t[95 - threadIdx.x];""",
}
FILES = ["tests/kernels/sync/divergent_barrier_half_block.cu", "tests/kernels/sync/divergent_barrier_thread_trip.cu",
         "tests/kernels/sync/ok_return_after_barrier.cu", "tests/kernels/sync/ok_guarded_uniform_barrier.cu",
         "examples/reduction.cu", "corpus/stream_compact/block_scan.cu"]


def _findings(kernel) -> dict:
    return sync.analyze(kernel, (128, 1, 1), {"n": 4096, "len": 1000}, grid=(2, 1, 1)).to_json()


def _compared(reached, live, everyone) -> bool:
    return np.array_equal(reached & live, live)


@pytest.mark.parametrize("name,kernel", list(named_kernels(BODIES, FILES)),
                         ids=lambda case: case if isinstance(case, str) else "")
def test_one_count_finds_what_the_comparison_finds(name, kernel, monkeypatch):
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "_reaches_all", _compared)
    assert _findings(kernel) == expected


@pytest.mark.parametrize("broken", [
    lambda reached, live, everyone: bool(np.count_nonzero(reached) == reached.size),   # live threads ignored
    lambda reached, live, everyone: True,                                              # threads reached ignored
])
def test_an_answer_that_ignores_one_side_is_caught(broken, monkeypatch):
    kernels = [kernel_of(BODIES["a barrier under a thread-dependent condition"]),
               kernel_of(BODIES["a barrier after a return, reached by every live thread"])]
    expected = [_findings(kernel) for kernel in kernels]
    monkeypatch.setattr(sync, "_reaches_all", broken)
    assert [_findings(kernel) for kernel in kernels] != expected


def test_the_answer_is_the_comparison():
    everyone = np.ones(8, dtype=bool)
    some = np.array([1, 1, 0, 1, 0, 1, 1, 1], dtype=bool)
    fewer = some & np.array([1, 0, 1, 1, 1, 1, 1, 1], dtype=bool)
    for reached in (everyone, some, fewer, everyone.copy()):
        for live in (everyone, some, fewer):
            assert sync._reaches_all(reached, live, everyone) == _compared(reached, live, everyone)

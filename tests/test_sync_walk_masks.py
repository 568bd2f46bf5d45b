"""`BlockRun.walk` finds the threads reaching the statements under one set of conditions once and
shares that mask between them until a return changes who is alive; a mask and-ed with the all-true
mask is the mask itself (`sync._both`), so that it keeps its identity. These compare the findings
with plain `&` and with the masks found statement by statement, and check that a mask shared too
widely, or and-ed with one side only, is caught."""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels

BODIES = {
    "a load by every thread, a return, then a store by those left": """
__shared__ float t[64];
float v = t[threadIdx.x % 32];
if (threadIdx.x >= 32)
    return;
t[threadIdx.x % 32] = v;""",
    "statements under one condition around a return": """
__shared__ float t[128];
if (threadIdx.x < 96)
    t[threadIdx.x] = x[threadIdx.x];
if (threadIdx.x % 3 == 0)
    return;
if (threadIdx.x < 96)
    t[threadIdx.x + 1] = 2.0f;
__syncthreads();
y[threadIdx.x] = t[threadIdx.x];""",
}
FILES = ["examples/reduction.cu", "corpus/softmax/block_shared.cu", "tests/kernels/realworld/samples_reduction.cu",
         "corpus/stream_compact/block_scan.cu", "tests/kernels/realworld/rodinia_pathfinder.cu"]


def _cases():
    return named_kernels(BODIES, FILES)


def _findings(kernel) -> dict:
    return sync.analyze(kernel, (128, 1, 1), {"n": 4096, "cols": 500, "rows": 4, "len": 1000}, grid=(3, 1, 1)).to_json()


@pytest.mark.parametrize("name,kernel", list(_cases()), ids=lambda case: case if isinstance(case, str) else "")
def test_shared_masks_find_what_masks_per_statement_find(name, kernel, monkeypatch):
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "_both", lambda a, b, everyone: a & b)
    assert _findings(kernel) == expected
    monkeypatch.setattr(sync, "_fresh", lambda entry, alive: False)     # found again for every statement
    assert _findings(kernel) == expected


def test_a_mask_shared_between_different_conditions_is_caught(monkeypatch):
    kernel = kernel_of(BODIES["statements under one condition around a return"])
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "_walk_key", lambda event: ())
    assert _findings(kernel) != expected


def test_a_mask_that_ignores_one_side_is_caught(monkeypatch):
    kernel = kernel_of(BODIES["statements under one condition around a return"])
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "_both", lambda a, b, everyone: a)
    assert _findings(kernel) != expected

"""A batched loop's rows of a certain global access, kept for comparing blocks, have their
footprints and distinct words found for all rows at once (BLOCK_ROWS, `BlockRun.rows_for_blocks`)
instead of a few numpy calls per row (`keep_for_blocks`). These compare what the blocks keep, the
footprint each instance is left with and the findings, with the batch path on and off, on loops
whose rows are every kind: coalesced (rising words), strided with repeats, falling, one word for
every thread, wide elements (several words each), rows some threads skip or nobody reaches, and
a block of one thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = ("tests/kernels/realworld/occupancy_smem_optin.cu", "tests/kernels/realworld/babelstream.cu")

BODIES = {
    "coalesced": """for (int k = 0; k < 16; ++k)
    y[blockIdx.x * 2048 + k * 128 + threadIdx.x] = x[k];""",
    "strided with repeats, and falling": """for (int k = 0; k < 12; ++k) {
    y[blockIdx.x * 512 + (threadIdx.x / 2) * 3 + k] = 1.0f;
    y[blockIdx.x * 512 + 600 - threadIdx.x - k] = 2.0f;
}""",
    "one word for every thread": """for (int k = 0; k < 10; ++k)
    y[blockIdx.x + k] = x[k];""",
    "wide elements": """for (int k = 0; k < 9; ++k)
    d[blockIdx.x * 1024 + k * 64 + threadIdx.x / 2] = 1.0;""",
    "rows some threads skip, and rows nobody reaches": """for (int k = 0; k < 12; ++k)
    if (threadIdx.x < k * 8 && k != 5) y[blockIdx.x * 4096 + k * 128 + threadIdx.x] = 1.0f;""",
    "a store with a barrier between rows": """__shared__ float t[128];
for (int k = 0; k < 8; ++k) {
    t[threadIdx.x] = x[k * 128 + threadIdx.x];
    __syncthreads();
    y[blockIdx.x * 1024 + k * 128 + threadIdx.x] = t[127 - threadIdx.x];
    __syncthreads();
}""",
}

_CLOSE_INTERVAL = sync.BlockRun.close_interval


def _kernels():
    for name, body in BODIES.items():
        yield name, kernel_of(body.replace("d[", "((double*)y)["))
    for path in FILES:
        if (ROOT / path).exists():
            for kernel in parse_file((ROOT / path).read_text(), path).kernels:
                yield f"{path}:{kernel.name}", kernel


KERNELS = list(_kernels())


def _kept(kernel, block: int, monkeypatch) -> tuple:
    """What each block keeps for comparing blocks, each instance's footprints, and the findings."""
    seen = []

    def watched(self, barrier):
        seen.append([(instance.access.line, sorted((granule, entry.pair[0].tolist(), entry.pair[1].tolist(),
                                                     entry.pieces, None if entry.distinct is None else
                                                     entry.distinct.tolist())
                                                    for granule, entry in (instance._footprints or {}).items()))
                     for instance in self.interval])
        seen.append(sorted((key, [(access.line, words.tolist()) for access, words in kept])
                           for key, kept in self.footprint.items()))
        return _CLOSE_INTERVAL(self, barrier)

    with monkeypatch.context() as watching:
        watching.setattr(sync.BlockRun, "close_interval", watched)
        findings = sync.analyze(kernel, (block, 1, 1), {"n": 1 << 16}, grid=(3, 1, 1)).to_json()
    return seen, findings


@pytest.mark.parametrize("block", [128, 1])
@pytest.mark.parametrize("name,kernel", KERNELS, ids=lambda case: case if isinstance(case, str) else "")
def test_rows_kept_at_once_are_what_each_row_keeps(name, kernel, block, monkeypatch):
    fast = _kept(kernel, block, monkeypatch)
    monkeypatch.setattr(sync, "BLOCK_ROWS", False)
    assert _kept(kernel, block, monkeypatch) == fast


def test_the_batch_path_runs_and_a_wrong_one_is_caught(monkeypatch):
    made = []
    real = sync.BlockRun.rows_for_blocks

    def counted(self, step):
        rows = real(self, step)
        made.append(sum(row is not None for row in rows))
        return rows

    monkeypatch.setattr(sync.BlockRun, "rows_for_blocks", counted)
    kernel = dict(KERNELS)["strided with repeats, and falling"]
    expected = _kept(kernel, 128, monkeypatch)
    assert sum(made)
    # (the comparison above can fail: a batch path that leaves the distinct words unsorted differs)
    def unsorted(self, step):
        return [row and (row[0], row[1], row[0], row[3]) for row in real(self, step)]

    monkeypatch.setattr(sync.BlockRun, "rows_for_blocks", unsorted)
    assert _kept(kernel, 128, monkeypatch) != expected

"""A batch screened again with equal rows, typically the same loop in a later block when nothing it
reads depends on blockIdx, takes the interval screens found before (REUSE_SCREENS,
`sync.ScreensSeen`) instead of screening again. These compare the screens each barrier of every
block is given, and the findings, with the reuse on and off, on batches whose rows differ between
blocks in each way they can: addresses that read blockIdx, conditions that read it, threads that
returned early in one block only, something before the batch in one block only (the first
interval then holds it), loops whose trip count reads it, and nests (`nest_screens`) as well as
innermost loops (`interval_screens`)."""

from __future__ import annotations


import numpy as np
import pytest

from kernelscope.analyses import sync
from kernel_bodies import named_kernels

FILES = ("corpus/bitonic_sort/shared_network.cu", "tests/kernels/realworld/babelstream.cu")

_REDUCTION = """for (int s = 1; s < 256; s *= 2) {{
    if ({condition}) t[{index}] += t[{index} + s];
    __syncthreads();
}}"""

BODIES = {
    "the same rows in every block": """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
""" + _REDUCTION.format(condition="threadIdx.x % (2 * s) == 0", index="threadIdx.x") + """
y[blockIdx.x] = t[0];""",
    "addresses reading blockIdx": """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
""" + _REDUCTION.format(condition="threadIdx.x % (2 * s) == 0",
                        index="(threadIdx.x * (blockIdx.x + 1)) % 256") + """
y[blockIdx.x] = t[0];""",
    "conditions reading blockIdx": """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
""" + _REDUCTION.format(condition="threadIdx.x % (2 * s) == 0 || blockIdx.x == 1", index="threadIdx.x") + """
y[blockIdx.x] = t[0];""",
    "threads returned in one block only": """__shared__ float t[512];
if (blockIdx.x == 2 && threadIdx.x >= 64) return;
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
""" + _REDUCTION.format(condition="threadIdx.x % (2 * s) == 0", index="threadIdx.x") + """
y[blockIdx.x] = t[0];""",
    "something before the batch in one block only": """__shared__ float t[512];
if (blockIdx.x == 1) t[threadIdx.x / 2] = x[threadIdx.x];
""" + _REDUCTION.format(condition="threadIdx.x % (2 * s) == 0", index="threadIdx.x") + """
y[blockIdx.x] = t[0];""",
    "a trip count reading blockIdx": """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int s = 1; s < (256 << blockIdx.x); s *= 2) {
    if (threadIdx.x % (2 * s) == 0) t[threadIdx.x] += t[(threadIdx.x + s) % 256];
    __syncthreads();
}
y[blockIdx.x] = t[0];""",
    "a nest with the same rows in every block": """__shared__ float t[128];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 2; k <= 128; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
        int p = threadIdx.x ^ j;
        if (p > threadIdx.x && ((threadIdx.x & k) == 0)) {
            float a = t[threadIdx.x];
            t[threadIdx.x] = t[p];
            t[p] = a;
        }
        __syncthreads();
    }
}
y[blockIdx.x * 128 + threadIdx.x] = t[threadIdx.x];""",
    "a nest whose rows read blockIdx": """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 2; k <= 128; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
        int p = (threadIdx.x ^ j) + (blockIdx.x % 2) * (j & 1);
        if (p > threadIdx.x && ((threadIdx.x & k) == 0)) {
            float a = t[threadIdx.x];
            t[threadIdx.x] = t[p];
            t[p] = a;
        }
        __syncthreads();
    }
}
y[blockIdx.x * 128 + threadIdx.x] = t[threadIdx.x];""",
}


def _kernels():
    return named_kernels(BODIES, FILES)


KERNELS = list(_kernels())
_BLOCK_BARRIER = sync.BlockRun.block_barrier


def _screened(kernel, block: int, monkeypatch) -> tuple:
    """The screens each block barrier of every block is given (in order), and the findings."""
    given = []

    def watched(self, step, record):
        given.append((self.block, record.line, sorted(self.unshared)))
        return _BLOCK_BARRIER(self, step, record)

    with monkeypatch.context() as watching:
        watching.setattr(sync.BlockRun, "block_barrier", watched)
        findings = sync.analyze(kernel, (block, 1, 1), {"n": 1 << 16}, grid=(4, 1, 1)).to_json()
    return given, findings


@pytest.mark.parametrize("block", [128, 256])
@pytest.mark.parametrize("name,kernel", KERNELS, ids=lambda case: case if isinstance(case, str) else "")
def test_reused_screens_are_what_screening_again_finds(name, kernel, block, monkeypatch):
    fast = _screened(kernel, block, monkeypatch)
    monkeypatch.setattr(sync, "REUSE_SCREENS", False)
    assert _screened(kernel, block, monkeypatch) == fast


def _reuses(kernel, monkeypatch) -> tuple:
    """(batches screened, batches that took earlier screens) over the blocks of `kernel`."""
    counts = [0, 0]
    screened, find = sync.BlockRun.screens_for, sync.ScreensSeen.find

    def counted_screening(self, numbered, closed):
        counts[0] += 1
        return screened(self, numbered, closed)

    def counted_finding(self, key, rows):
        found = find(self, key, rows)
        counts[1] += found is not None
        return found

    with monkeypatch.context() as watching:
        watching.setattr(sync.BlockRun, "screens_for", counted_screening)
        watching.setattr(sync.ScreensSeen, "find", counted_finding)
        sync.analyze(kernel, (256, 1, 1), {"n": 1 << 16}, grid=(4, 1, 1))
    return tuple(counts)


def test_later_blocks_take_the_screens_only_where_their_rows_are_equal(monkeypatch):
    kernels = dict(KERNELS)
    # the same rows in all 4 blocks: screened once, taken 3 times (innermost loop and nest alike)
    assert _reuses(kernels["the same rows in every block"], monkeypatch) == (1, 3)
    assert _reuses(kernels["a nest with the same rows in every block"], monkeypatch) == (1, 3)
    # each block's addresses differ from the block's before (only the last screens are kept)
    assert _reuses(kernels["a nest whose rows read blockIdx"], monkeypatch) == (4, 0)
    assert _reuses(kernels["addresses reading blockIdx"], monkeypatch) == (4, 0)
    # block 1 differs from blocks 0, 2 and 3: block 3 takes block 2's
    assert _reuses(kernels["conditions reading blockIdx"], monkeypatch) == (3, 1)
    # blocks 0 and 1 alike, block 2 has threads fewer, block 3 differs from it again
    assert _reuses(kernels["threads returned in one block only"], monkeypatch) == (3, 1)
    # equal rows, but only block 1 did something before the batch: it screens its own, and blocks
    # 2 and 3 take block 0's
    assert _reuses(kernels["something before the batch in one block only"], monkeypatch) == (2, 2)
    # a batch of other trips is another key
    assert _reuses(kernels["a trip count reading blockIdx"], monkeypatch) == (4, 0)


def test_the_comparison_of_rows_tells_content_not_identity():
    seen = sync.ScreensSeen()
    addresses = np.arange(512, dtype=np.int64).reshape(2, 256)
    reached = np.ones((2, 256), dtype=bool)
    number = np.array([0, 1])
    seen.keep(("events", 2), [(addresses, reached, number)], [{("shared", "t")}, set()])
    assert seen.find(("events", 2), [(addresses.copy(), reached.copy(), number.copy())]) == [{("shared", "t")}, set()]
    assert seen.find(("events", 3), [(addresses, reached, number)]) is None
    moved = addresses.copy()
    moved[1, 255] += 1
    assert seen.find(("events", 2), [(moved, reached, number)]) is None
    fewer = reached.copy()
    fewer[0, 0] = False
    assert seen.find(("events", 2), [(addresses, fewer, number)]) is None
    assert seen.find(("events", 2), [(addresses, reached, np.array([0, -1]))]) is None
    # (a row of another shape is not equal, whatever numpy's broadcasting would say)
    assert seen.find(("events", 2), [(addresses[:1], reached, number)]) is None


def test_a_reuse_that_ignored_the_rows_would_be_caught(monkeypatch):
    # (the comparison above can fail: screens taken by key alone differ where addresses or
    # conditions read blockIdx)
    kernels = dict(KERNELS)
    expected = {name: _screened(kernels[name], 256, monkeypatch)
                for name in ("addresses reading blockIdx", "conditions reading blockIdx")}

    def by_key_alone(self, key, rows):
        known = self.get(key)
        return None if known is None else known[1]

    monkeypatch.setattr(sync.ScreensSeen, "find", by_key_alone)
    for name, screens in expected.items():
        assert _screened(kernels[name], 256, monkeypatch) != screens

"""A later block's barrier interval that is the first block's moved by whole words (each array's
addresses by one multiple of its word sizes, the same threads, epochs and certainty) skips its
race checks, and the redundant-barrier check across a barrier between two such intervals moved
alike (TRANSLATED_INTERVALS, `BlockRun.translation`, `sync._translation`). These compare the
findings with the skip on and off on kernels whose later blocks differ from the first in each way
that must not be skipped (addresses that do not move by one amount, arrays moved by different
amounts, one array's accesses moved by different amounts, conditions and returns reading blockIdx,
a barrier needed in a later block only) and on real programs with grids in one and two
dimensions; and `_translation` alone on the inputs where a careless comparison would answer
wrongly."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernel_bodies import named_kernels

BODIES = {
    "every block moved by its width": """__shared__ float t[256];
t[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = t[255 - threadIdx.x] + t[threadIdx.x];""",
    "a global race moved along": """y[blockIdx.x * 256 + threadIdx.x / 2] = x[threadIdx.x];
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = 1.0f;""",
    "a global race in later blocks only (addresses not moved by one amount)": """
y[(threadIdx.x * (blockIdx.x + 1)) % 256] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] += 1.0f;""",
    "a barrier needed in later blocks only (a load moved, the store not)": """__shared__ float t[512];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = t[threadIdx.x + blockIdx.x];""",
    "a barrier needed in later blocks only (wrapping around)": """__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = t[(threadIdx.x + blockIdx.x) % 256];""",
    "two arrays moved by different amounts": """__shared__ float t[1024];
__shared__ float u[1024];
t[threadIdx.x + blockIdx.x] = x[threadIdx.x];
u[threadIdx.x + 2 * blockIdx.x] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] = t[threadIdx.x + blockIdx.x + 1] + u[threadIdx.x];
__syncthreads();
u[threadIdx.x + 2 * blockIdx.x] = t[threadIdx.x + blockIdx.x];""",
    "a condition reading blockIdx": """__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
if (blockIdx.x == 2 || threadIdx.x % 2 == 0) t[threadIdx.x ^ 1] = 0.0f;
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = t[threadIdx.x];""",
    "threads returned in one block only": """__shared__ float t[256];
if (blockIdx.x == 1 && threadIdx.x >= 64) return;
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = t[(threadIdx.x + 1) % 64];""",
    "a loop of barriers moved along": """__shared__ float t[512];
for (int s = 1; s < 256; s *= 2) {
    t[threadIdx.x + blockIdx.x * 4] = x[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    y[blockIdx.x * 256 + threadIdx.x] = t[threadIdx.x + blockIdx.x * 4 + (threadIdx.x % s == 0)];
    __syncthreads();
}""",
}
FILES = ["tests/kernels/realworld/babelstream.cu", "tests/kernels/realworld/rodinia_hotspot.cu",
         "tests/kernels/realworld/samples_transpose.cu", "tests/kernels/realworld/samples_matrixmul.cu",
         "tests/kernels/realworld/parboil_stencil.cu", "tests/kernels/realworld/hecbench_conv1d.cu",
         "tests/kernels/realworld/samples_reduction.cu", "corpus/bitonic_sort/shared_network.cu"]
KERNELS = named_kernels(BODIES, FILES)
GRIDS = [(4, 1, 1), (2, 3, 1), None]


def _findings(kernel, grid, block: int = 256) -> dict:
    return sync.analyze(kernel, (block, 1, 1), {"n": 1 << 16, "N": 1024, "width": 64, "height": 64},
                        grid=grid).to_json()


@pytest.mark.parametrize("grid", GRIDS, ids=str)
@pytest.mark.parametrize("name,kernel", KERNELS, ids=lambda case: case if isinstance(case, str) else "")
def test_skipping_translated_intervals_finds_what_checking_them_finds(name, kernel, grid, monkeypatch):
    fast = _findings(kernel, grid)
    monkeypatch.setattr(sync, "TRANSLATED_INTERVALS", False)
    assert _findings(kernel, grid) == fast


def _skips(kernel, monkeypatch, grid=(4, 1, 1)) -> tuple:
    """(later intervals skipped, later intervals checked)."""
    counts = [0, 0]
    translation = sync.BlockRun.translation

    def counted(self, current, barrier):
        offsets = translation(self, current, barrier)
        if not self.found.matching.first_run:
            counts[offsets is None] += 1
        return offsets

    with monkeypatch.context() as watching:
        watching.setattr(sync.BlockRun, "translation", counted)
        _findings(kernel, grid)
    return tuple(counts)


def test_later_blocks_skip_only_the_intervals_moved_alike(monkeypatch):
    kernels = dict(KERNELS)
    # 2 intervals in each of 3 later blocks: all moved by whole blocks
    assert _skips(kernels["every block moved by its width"], monkeypatch) == (6, 0)
    assert _skips(kernels["a global race moved along"], monkeypatch) == (6, 0)
    # the barrier in a loop: 2 * 8 + 1 intervals a block
    assert _skips(kernels["a loop of barriers moved along"], monkeypatch) == (51, 0)
    # later blocks' first stores are not the first block's moved by one amount; the second
    # intervals are equal
    assert _skips(kernels["a global race in later blocks only (addresses not moved by one amount)"],
                  monkeypatch) == (3, 3)
    assert _skips(kernels["a barrier needed in later blocks only (wrapping around)"], monkeypatch) == (3, 3)
    # each interval is moved alike in itself, but the array is not moved alike across the barrier:
    # the hazard is checked (the findings test above tells whether it was)
    assert _skips(kernels["a barrier needed in later blocks only (a load moved, the store not)"],
                  monkeypatch) == (6, 0)
    assert _skips(kernels["two arrays moved by different amounts"], monkeypatch) == (9, 0)
    # only block 2's first interval differs (its mask); block 1's returns change both of its intervals
    assert _skips(kernels["a condition reading blockIdx"], monkeypatch) == (5, 1)
    assert _skips(kernels["threads returned in one block only"], monkeypatch) == (4, 2)

def test_a_skip_that_ignored_how_addresses_moved_would_be_caught(monkeypatch):
    # (the comparison above can fail: intervals skipped for listing the same accesses alone
    # lose a race or a needed barrier that only later blocks have)
    kernels = dict(KERNELS)
    names = ("a global race in later blocks only (addresses not moved by one amount)",
             "a barrier needed in later blocks only (a load moved, the store not)",
             "a barrier needed in later blocks only (wrapping around)",
             "two arrays moved by different amounts")
    expected = {name: _findings(kernels[name], (4, 1, 1)) for name in names}

    def same_accesses(first, later):
        if [i.access for i in first] != [i.access for i in later]:
            return None
        return {i.access.array: 0 for i in later}

    monkeypatch.setattr(sync, "_translation", same_accesses)
    wrong = [name for name in names if _findings(kernels[name], (4, 1, 1)) != expected[name]]
    assert len(wrong) >= 3, wrong


class _Access:
    def __init__(self, array: str, elem_bytes: int | None = 4, op: str = "store", space: str = "shared"):
        self.array, self.elem_bytes, self.op, self.space = array, elem_bytes, op, space


def _instance(access, addresses, mask=None, epochs=None, certain=True):
    size = 8
    mask = np.ones(size, dtype=bool) if mask is None else mask
    epochs = np.zeros(size, dtype=np.int64) if epochs is None else epochs
    addresses = None if addresses is None else np.asarray(addresses, dtype=np.int64)
    return sync.Instance(access, addresses, mask, epochs, certain)


def test_translation_of_intervals():
    t, u, c = _Access("t"), _Access("u", op="load"), _Access("c", elem_bytes=1)
    base = np.arange(8, dtype=np.int64) * 4
    first = [_instance(t, base), _instance(u, base), _instance(t, base + 32)]
    assert sync._translation(first, first) == {"t": 0, "u": 0}
    # each array by its own amount, the rows of one array alike
    moved = [_instance(t, base + 64), _instance(u, base - 8), _instance(t, base + 96)]
    assert sync._translation(first, moved) == {"t": 64, "u": -8}
    # one array's instances moved by different amounts
    assert sync._translation(first, [_instance(t, base + 64), _instance(u, base), _instance(t, base + 32)]) is None
    # an address array that is the same object counts as moved by 0
    same = first[0].addresses
    assert sync._translation([_instance(t, same), _instance(t, base + 4)],
                             [_instance(t, same), _instance(t, base + 8)]) is None
    # not one amount for every thread
    bent = base.copy()
    bent[7] += 4
    assert sync._translation(first[:1], [_instance(t, bent)]) is None
    # not whole words: 2 bytes for a 4-byte element, any byte for a 1-byte one
    assert sync._translation(first[:1], [_instance(t, base + 2)]) is None
    assert sync._translation([_instance(c, base)], [_instance(c, base + 3)]) == {"c": 3}
    assert sync._translation([_instance(_Access("s", elem_bytes=2), base)],
                             [_instance(_Access("s", elem_bytes=2), base + 2)]) is None  # (another access)
    short = _Access("s", elem_bytes=2)
    assert sync._translation([_instance(short, base)], [_instance(short, base + 2)]) == {"s": 2}
    assert sync._translation([_instance(short, base)], [_instance(short, base + 1)]) is None
    # other threads, epochs, certainty, accesses, counts, unknown addresses
    fewer = np.ones(8, dtype=bool)
    fewer[3] = False
    assert sync._translation(first[:1], [_instance(t, base, mask=fewer)]) is None
    assert sync._translation(first[:1], [_instance(t, base, epochs=np.arange(8))]) is None
    assert sync._translation(first[:1], [_instance(t, base, certain=False)]) is None
    assert sync._translation(first[:1], [_instance(_Access("t"), base)]) is None
    assert sync._translation(first, first[:2]) is None
    assert sync._translation([_instance(t, None)], [_instance(t, None)]) == {"t": 0}
    assert sync._translation([_instance(t, None)], [_instance(t, base)]) is None
    # rows of other lengths and 0-d arrays (uniform addresses) alike
    assert sync._one_offset([base, base[:3]], [base + 12, base[:3] + 12]) == 12
    assert sync._one_offset([base, base[:3]], [base + 12, base[:3] + 8]) is None
    assert sync._one_offset([np.array(5), base], [np.array(9), base + 4]) == 4
    assert sync._one_offset([np.array(5), base], [np.array(9), base + 8]) is None
    assert sync._one_offset([base[:0]], [base[:0]]) == 0
    # the fields' comparison: the same objects, equal rows compared at once or one by one
    rows = [np.arange(4), np.ones(4, dtype=bool)]
    assert sync._same_values(rows, rows)
    assert sync._same_values(rows, [rows[0].copy(), rows[1].copy()])
    assert sync._same_values([rows[0], None], [rows[0].copy(), None])
    assert not sync._same_values([rows[0], rows[1]], [rows[0], ~rows[1]])
    assert not sync._same_values([rows[0], rows[1]], [rows[0] + 1, rows[1].copy()])
    assert not sync._same_values([rows[0]], [None])
    assert not sync._same_values([rows[0], rows[1]], [rows[0][:3], rows[1].copy()])
    assert sync._same_values([np.array(3), rows[0]], [np.array(3), rows[0].copy()])
    assert not sync._same_values([np.array(3), rows[0]], [np.array(4), rows[0].copy()])


def test_hazards_are_skipped_only_between_intervals_moved_alike():
    assert sync._same_translation({"t": 4, "u": 0}, {"t": 4, "v": 8})
    assert not sync._same_translation({"t": 4}, {"t": 8})
    assert not sync._same_translation(None, {"t": 4})
    assert not sync._same_translation({"t": 4}, None)


def test_a_block_run_keeps_to_the_attributes_cpython_shares(monkeypatch):
    # (CPython 3.11 shares the keys of about 30 instance attributes at most; more made every
    # attribute read of the executor slower: sync distinct 164.6 -> 168.7 M instructions with 5 more)
    sizes = []
    run = sync.BlockRun.run

    def measured(self):
        run(self)
        sizes.append(len(vars(self)))

    monkeypatch.setattr(sync.BlockRun, "run", measured)
    for _, kernel in KERNELS:
        _findings(kernel, (4, 1, 1))
    assert sizes and max(sizes) <= 29

"""Block pairs whose accesses' word ranges do not meet are told so by one reduction before the rows
and columns holding candidates are found (NO_MEETING_FIRST, `sync._block_pair_races`). These
compare the races between blocks, and the whole sync result, with that shortcut on and off, on
kernels whose blocks keep to their own ranges, overlap by a few words, overlap entirely, write
several arrays, and meet only past the cap of compared pairs (caps that cut before the race and
one that does not)."""

from __future__ import annotations


import pytest

from kernelscope.analyses import sync
from kernel_bodies import named_kernels

FILES = ("tests/kernels/realworld/samples_transpose.cu", "tests/kernels/realworld/rodinia_hotspot.cu",
         "tests/kernels/realworld/polybench_stencils.cu", "tests/kernels/realworld/hecbench_conv1d.cu")

BODIES = {
    "own ranges": "y[blockIdx.x * blockDim.x + threadIdx.x] = x[threadIdx.x];",
    "overlapping by a few words": "y[blockIdx.x * (blockDim.x - 2) + threadIdx.x] = x[threadIdx.x];",
    "overlapping entirely": "y[threadIdx.x] = x[blockIdx.x];",
    "several arrays, one with a few shared words": """y[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
y[n + blockIdx.x * 8 + threadIdx.x % 16] = 2.0f;
((float*)x)[blockIdx.x * blockDim.x + threadIdx.x] = 3.0f;""",
    "meeting in a loop": """for (int k = 0; k < 12; ++k)
    y[(blockIdx.x + k) * 64 + threadIdx.x % 64] += x[k];""",
}


def _kernels():
    return named_kernels(BODIES, FILES)


KERNELS = list(_kernels())


def _analysed(kernel, grid) -> dict:
    return sync.analyze(kernel, (128, 1, 1), {"n": 1 << 12}, grid=grid).to_json()


@pytest.mark.parametrize("grid", [(2, 1, 1), (40, 1, 1), (3, 2, 1)])
@pytest.mark.parametrize("name,kernel", KERNELS, ids=lambda case: case if isinstance(case, str) else "")
def test_the_shortcut_finds_what_the_rows_and_columns_find(name, kernel, grid, monkeypatch):
    fast = _analysed(kernel, grid)
    monkeypatch.setattr(sync, "NO_MEETING_FIRST", False)
    assert _analysed(kernel, grid) == fast


def _pair_races(kernel, grid, pairs_cap: int, monkeypatch) -> list:
    """The races `_block_pair_races` finds between the blocks of `kernel`, with `pairs_cap`."""
    kept = []
    real = sync._block_pair_races

    def capped(footprints, blocks, cap=4096):
        races = real(footprints, blocks, pairs_cap)
        kept.append(races)
        return races

    with monkeypatch.context() as watching:
        watching.setattr(sync, "_block_pair_races", capped)
        sync.analyze(kernel, (128, 1, 1), {"n": 1 << 12}, grid=grid)
    return kept


@pytest.mark.parametrize("cap", [1, 3, 7, 4096])
def test_the_cap_on_compared_pairs_is_kept(cap, monkeypatch):
    kernel = dict(KERNELS)["meeting in a loop"]
    fast = _pair_races(kernel, (6, 1, 1), cap, monkeypatch)
    monkeypatch.setattr(sync, "NO_MEETING_FIRST", False)
    assert _pair_races(kernel, (6, 1, 1), cap, monkeypatch) == fast


def test_races_between_blocks_are_found_only_where_ranges_meet(monkeypatch):
    kernels = dict(KERNELS)
    assert _analysed(kernels["overlapping by a few words"], (4, 1, 1))["global_races"]
    assert not _analysed(kernels["own ranges"], (4, 1, 1))["global_races"]
    assert [len(races) for races in _pair_races(kernels["meeting in a loop"], (6, 1, 1), 7, monkeypatch)] == [0]
    assert [len(races) for races in _pair_races(kernels["meeting in a loop"], (6, 1, 1), 4096, monkeypatch)] == [1]
    # (the comparisons above can fail: taking every block pair for one whose ranges do not meet,
    # as a wrong shortcut would, finds no race between blocks)
    monkeypatch.setattr(sync, "_spans_meet", lambda *spans: sync.np.zeros((len(spans[0]), len(spans[2])), bool))
    assert not _analysed(kernels["overlapping by a few words"], (4, 1, 1))["global_races"]

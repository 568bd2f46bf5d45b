"""Which block pairs have accesses whose word ranges meet, found for every pair of blocks of an array
at once (PAIRS_AT_ONCE, `sync._meeting_blocks`), against asking pair by pair (the flag off) and
against comparing every access pair one by one; on footprints where all blocks ran the same
accesses (the table is used), where some ran others (it is not), with empty word sets, and with
caps on the compared pairs that cut before, at and after the races; and the whole sync result of
real kernels over several grids with the table on and off."""

from __future__ import annotations


import numpy as np
import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels
from test_sync_vectorised import block_pair_races   # the pair-by-pair reference


class Access:
    """What the comparison of blocks reads of an access record."""

    def __init__(self, op, line, column, seq, array="g"):
        self.op, self.line, self.column, self.seq, self.array = op, line, column, seq, array
        self.stored = None


ACCESSES = [Access("store", 3, 5, 0), Access("load", 3, 9, 1), Access("store", 4, 2, 2),
            Access("atomic", 5, 1, 3), Access("load", 7, 3, 5), Access("store", 8, 1, 6)]


def _footprints(rng, blocks: int, same: bool) -> list:
    """Per block {(interval, array): [(access, sorted distinct words)]}: the same accesses in every
    block when `same` (else each block its own draw), words in short ranges at random offsets
    (often apart, sometimes overlapping), now and then none."""
    shared_draw = {key: rng.choice(len(ACCESSES), size=int(rng.integers(1, 6))) for key in ((0, "g"), (1, "g"))}
    footprints = []
    for _ in range(blocks):
        footprint = {}
        for key, drawn in shared_draw.items():
            executed = drawn if same else rng.choice(len(ACCESSES), size=int(rng.integers(1, 6)))
            entries = []
            for k in executed:
                if rng.random() < 0.1:
                    words = np.zeros(0, dtype=np.int64)
                else:
                    low = int(rng.integers(0, 12)) * 4
                    words = np.unique(np.concatenate([[low, low + 3], low + rng.integers(0, 4, 2)]))
                entries.append((ACCESSES[k], words))
            footprint[key] = entries
        footprints.append(footprint)
    return footprints


def _races(footprints, blocks, cap, at_once: bool, monkeypatch) -> list:
    with monkeypatch.context() as patched:
        patched.setattr(sync, "PAIRS_AT_ONCE", at_once)
        return sync._block_pair_races(footprints, blocks, cap)


@pytest.mark.parametrize("same", [True, False])
@pytest.mark.parametrize("cap", [1, 5, 30, 4096])
def test_all_pairs_at_once_finds_what_pair_by_pair_finds(same, cap, monkeypatch):
    rng = np.random.default_rng(cap + same)
    blocks = [(k, 0, 0) for k in range(5)]
    outcomes = set()
    tables = []
    real = sync._meeting_blocks

    def watched(*args):
        table = real(*args)
        tables.append(table)
        return table

    monkeypatch.setattr(sync, "_meeting_blocks", watched)
    for _ in range(60):
        footprints = _footprints(rng, len(blocks), same)
        fast = _races(footprints, blocks, cap, True, monkeypatch)
        assert fast == _races(footprints, blocks, cap, False, monkeypatch)      # the same races, in order
        assert {(r.array, r.first_line, r.second_line): r for r in fast} == block_pair_races(footprints, blocks, cap)
        outcomes.add(len(fast))
    assert len(outcomes) > 1 or cap == 1
    # (the table was built, and told some pairs apart, where the blocks ran the same accesses)
    if same and cap > 1:
        assert any(t is not None and not all(map(all, t[1])) for t in tables)
    if not same:
        assert all(t is None for t in tables)


def test_a_wrong_table_is_noticed(monkeypatch):
    # (the comparison above can fail: a table that says no pair meets loses races)
    blocks = [(k, 0, 0) for k in range(4)]
    footprints = [{(0, "g"): [(ACCESSES[0], np.arange(4) + 2 * b), (ACCESSES[4], np.arange(4))]} for b in range(4)]
    assert _races(footprints, blocks, 4096, True, monkeypatch)
    monkeypatch.setattr(sync, "_meeting_blocks",
                        lambda key, sides, compared: ({b: b for b in range(4)}, [[False] * 4] * 4))
    assert not _races(footprints, blocks, 4096, True, monkeypatch)


def test_a_table_too_large_is_not_built(monkeypatch):
    footprints = [{(0, "g"): [(ACCESSES[0], np.arange(4) + 100 * b)] * 8} for b in range(3)]
    monkeypatch.setattr(sync, "MAX_PAIRS_TABLE", 3 * 3 * 8 * 8 - 1)
    sides = sync._BlockSides(footprints)
    kind = sides.of(0, (0, "g"))[0]
    compared = {(kind, kind): (np.ones((8, 8), bool), 64)}
    assert sync._meeting_blocks((0, "g"), sides, compared) is None
    monkeypatch.setattr(sync, "MAX_PAIRS_TABLE", 3 * 3 * 8 * 8)
    assert sync._meeting_blocks((0, "g"), sides, compared) is not None


FILES = ("tests/kernels/realworld/samples_transpose.cu", "tests/kernels/realworld/rodinia_hotspot.cu",
         "tests/kernels/realworld/polybench_stencils.cu", "tests/kernels/realworld/hecbench_conv1d.cu")
BODIES = {
    "own ranges": "y[blockIdx.x * blockDim.x + threadIdx.x] = x[threadIdx.x];",
    "overlapping by a few words": "y[blockIdx.x * (blockDim.x - 2) + threadIdx.x] = x[threadIdx.x];",
    "overlapping entirely": "y[threadIdx.x] = x[blockIdx.x];",
    "meeting in a loop": """for (int k = 0; k < 12; ++k)
    y[(blockIdx.x + k) * 64 + threadIdx.x % 64] += x[k];""",
    "each block a different number of stores": """for (int k = 0; k < blockIdx.x; ++k)
    y[k * 128 + threadIdx.x] = 1.0f;""",
}


def _kernels():
    return named_kernels(BODIES, FILES)


@pytest.mark.parametrize("grid", [(3, 1, 1), (40, 1, 1), (3, 2, 1)])
@pytest.mark.parametrize("name,kernel", list(_kernels()), ids=lambda case: case if isinstance(case, str) else "")
def test_whole_results_are_the_same_with_the_table_on_and_off(name, kernel, grid, monkeypatch):
    def analysed():
        return sync.analyze(kernel, (128, 1, 1), {"n": 1 << 12}, grid=grid).to_json()

    fast = analysed()
    monkeypatch.setattr(sync, "PAIRS_AT_ONCE", False)
    assert analysed() == fast


def test_real_kernels_build_the_table(monkeypatch):
    tables = []
    real = sync._meeting_blocks
    monkeypatch.setattr(sync, "_meeting_blocks", lambda *args: tables.append(real(*args)) or tables[-1])
    for name in ("overlapping by a few words", "overlapping entirely"):
        sync.analyze(kernel_of(BODIES[name]), (128, 1, 1), {"n": 1 << 12}, grid=(40, 1, 1))
    assert any(table is not None for table in tables)

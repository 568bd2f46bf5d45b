"""`run_nest_batched` asks `nest_screens` for a nest's interval screens only when a barrier is in it
(`_holds_a_barrier`): a barrier-free nest (the register tiles' unrolled loops) closes no interval,
and `nest_screens` would go through its whole execution order to return None. These check, on the
corpus kernels whose nests are batched, that `nest_screens` of every barrier-free nest's order is
None indeed, and that the check can tell: for the nests with barriers it is not."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file

ROOT = Path(__file__).resolve().parents[1]

CORPUS = ("corpus/attention_scores/register_blocked.cu", "corpus/conv2d_image/register_coarsened.cu",
          "corpus/matmul/register_blocked.cu", "corpus/pairwise_dist/register_blocked.cu",
          "corpus/bitonic_sort/shared_network.cu", "corpus/bitonic_sort/shuffle_network.cu")


def _nest_screens_by_barriers(monkeypatch) -> list:
    """(whether the nest holds a barrier, what `nest_screens` answers for its order) for every nest
    batch the corpus kernels run."""
    seen: list = []
    real = sync.BlockRun.prepare_nest

    def prepared(self, node, *args):
        answer = real(self, node, *args)
        if answer is not None:
            seen.append((sync._holds_a_barrier(node.children), self.nest_screens(answer[0])))
        return answer

    monkeypatch.setattr(sync.BlockRun, "prepare_nest", prepared)
    for path in CORPUS:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            for bindings in ({}, {"m": 100, "n": 70, "d": 40, "seq": 80, "dim": 24, "h": 50, "w": 40, "len": 256}):
                sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 1, 1))
    return seen


def test_a_barrier_free_nest_has_no_screens(monkeypatch):
    seen = _nest_screens_by_barriers(monkeypatch)
    assert any(not barrier for barrier, _ in seen)
    assert all(screens is None for barrier, screens in seen if not barrier)


def test_a_nest_with_barriers_has_screens(monkeypatch):
    # (the check above can fail: skipping the screens of the nests with barriers would drop these)
    seen = _nest_screens_by_barriers(monkeypatch)
    assert any(screens is not None for barrier, screens in seen if barrier)


def test_the_findings_do_not_depend_on_the_screens(monkeypatch):
    kernels = [kernel for path in CORPUS for kernel in parse_file((ROOT / path).read_text(), path).kernels]
    expected = [sync.analyze(k, (256, 1, 1), {}, grid=(2, 1, 1)).to_json() for k in kernels]
    monkeypatch.setattr(sync, "SCREEN_INTERVALS", False)
    assert expected == [sync.analyze(k, (256, 1, 1), {}, grid=(2, 1, 1)).to_json() for k in kernels]


def _numbered_the_old_way(order: list) -> tuple:
    """What `nest_screens` passed to `reused_screens` before it kept its rows in Python lists:
    ([(entry, interval per row)], intervals closed), or None when it closed none."""
    closed = 0
    numbers: dict = {}
    for entry, row, _ in order:
        if entry is None:
            continue
        if entry[0].block_barrier:
            closed += entry[4][row]
        elif sync._screenable(entry):
            known = numbers.get(id(entry))
            if known is None:
                known = numbers[id(entry)] = (entry, np.full(len(entry[4]), -1, dtype=np.int64))
            known[1][row] = closed
    if not closed:
        return None
    for _, number in numbers.values():
        number[number >= closed] = -1
    return list(numbers.values()), closed


def test_nest_screens_number_the_rows_as_before(monkeypatch):
    compared = []
    real = sync.BlockRun.prepare_nest

    def prepared(self, node, *args):
        answer = real(self, node, *args)
        if answer is not None:
            asked = []
            with monkeypatch.context() as watching:
                watching.setattr(sync.BlockRun, "reused_screens", lambda run, numbered, closed: asked.append(
                    (numbered, closed)))
                self.nest_screens(answer[0])
            expected = _numbered_the_old_way(answer[0])
            assert (expected is None) == (not asked)
            if asked:
                (numbered, closed), = asked
                assert closed == expected[1] and type(closed) is int
                assert len(numbered) == len(expected[0])
                for (entry, number), (old_entry, old_number) in zip(numbered, expected[0]):
                    assert entry is old_entry and number.dtype == old_number.dtype
                    assert np.array_equal(number, old_number)
                compared.append(closed)
        return answer

    monkeypatch.setattr(sync.BlockRun, "prepare_nest", prepared)
    for path in CORPUS:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            for bindings in ({}, {"len": 256}, {"len": 64}):
                sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 1, 1))
    assert compared

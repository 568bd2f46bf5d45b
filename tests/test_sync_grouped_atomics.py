"""An atomic's slots (`atomicAdd` handing each thread its own) and its lanes on one address are
found for all addresses at once (`sync.GROUPED_ATOMICS`) instead of one address, or one warp, at a
time. These compare the two on kernels with atomics and on generated addresses, and check that
broken variants are caught."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernelscope.analyses.threads import thread_space
from kernelscope.frontend import parse_file

ROOT = Path(__file__).resolve().parents[1]
FILES = ["tests/kernels/memory/atomics.cu", "corpus/row_histogram/shared_atomics.cu",
         "corpus/row_histogram/warp_private.cu", "tests/kernels/races/gl_atomic_slot_neighbor_read.cu",
         "tests/kernels/races/gl_atomic_counter_plain_read.cu", "corpus/stream_compact/block_scan.cu"]


def _kernels():
    for path in FILES:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            yield f"{path}:{kernel.name}", kernel


@pytest.mark.parametrize("name,kernel", list(_kernels()), ids=lambda case: case if isinstance(case, str) else "")
def test_grouped_atomics_find_what_one_address_at_a_time_finds(name, kernel, monkeypatch):
    bindings = {"n": 1 << 12, "cols": 300, "rows": 4, "bins": 64, "len": 1000}
    expected = sync.analyze(kernel, (128, 1, 1), bindings, grid=(3, 1, 1)).to_json()
    monkeypatch.setattr(sync, "GROUPED_ATOMICS", False)
    assert sync.analyze(kernel, (128, 1, 1), bindings, grid=(3, 1, 1)).to_json() == expected


def hand_out_one_by_one(addresses, amounts, active, totals):
    results = np.full(addresses.size, -1, dtype=np.int64)
    for thread in active.tolist():      # in thread order
        key = ("a", int(addresses[thread]))
        results[thread] = totals.get(key, 0)
        totals[key] = totals.get(key, 0) + int(amounts[thread])
    return results


def _slots_agree(seed: int) -> None:
    hand_out = sync._hand_out_slots
    rng = np.random.default_rng(seed)
    for _ in range(200):
        size = int(rng.integers(1, 70))
        addresses = rng.integers(0, int(rng.choice([1, 3, 40])), size).astype(np.int64) * 4
        amounts = rng.integers(-3, 9, size).astype(np.int64)
        active = np.flatnonzero(rng.random(size) < rng.choice([1.0, 0.5, 0.0]))
        start = {("a", int(a)): int(rng.integers(0, 50)) for a in addresses[:2]}
        expected_totals, totals = dict(start), dict(start)
        expected = hand_out_one_by_one(addresses, amounts, active, expected_totals)
        results = np.full(size, -1, dtype=np.int64)
        hand_out("a", addresses, amounts, active, results, totals)
        assert np.array_equal(results, expected) and totals == expected_totals


def test_slots_handed_out_at_once_follow_thread_order_per_address():
    _slots_agree(4)


@pytest.mark.parametrize("broken", ["threads in reverse order", "earlier totals ignored"])
def test_slots_handed_out_wrongly_are_caught(broken, monkeypatch):
    real = sync._hand_out_slots
    if broken == "threads in reverse order":
        wrong = lambda array, addresses, amounts, active, results, totals: \
            real(array, addresses, amounts, active[::-1], results, totals)
    else:
        wrong = lambda array, addresses, amounts, active, results, totals: \
            real(array, addresses, amounts, active, results, {})
    monkeypatch.setattr(sync, "_hand_out_slots", wrong)
    with pytest.raises(AssertionError):
        _slots_agree(4)


def most_lanes_per_warp(addresses, mask, space):
    worst = 0
    for warp in range(space.warps):
        lanes = [int(addresses[t]) for t in range(space.size) if mask[t] and space.warp[t] == warp]
        if len(lanes) >= 2:
            worst = max(worst, max(lanes.count(a) for a in lanes))
    return worst


def _lanes_agree(seed: int, space_seen=None) -> set:
    """`_most_lanes_on_one_address` against a count per warp; the function is handed `space_seen`
    (the thread space, unless a test breaks it)."""
    rng = np.random.default_rng(seed)
    space = thread_space((80, 1, 1))      # a last warp of 16 lanes
    found = set()
    for _ in range(150):
        addresses = rng.integers(0, int(rng.choice([1, 4, 500])), space.size).astype(np.int64)
        mask = rng.random(space.size) < rng.choice([1.0, 0.3, 0.02])
        expected = most_lanes_per_warp(addresses, mask, space)
        assert sync._most_lanes_on_one_address(addresses, mask, space_seen or space) == expected
        found.add(min(expected, 3))
    return found


def test_lanes_on_one_address_counted_at_once_agree_with_each_warp():
    assert _lanes_agree(8) == {0, 1, 2, 3}


def test_lanes_counted_across_warps_are_caught():
    one_warp = types.SimpleNamespace(warp=np.zeros(80, dtype=np.int64), warps=1)
    with pytest.raises(AssertionError):
        _lanes_agree(8, one_warp)

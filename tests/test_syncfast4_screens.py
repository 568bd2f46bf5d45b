"""`BlockRun.screens_for` finds the (trip, thread) cells of a batch's accesses by a flat gather
(not a 2-d one by (trip, thread) pairs). These compare its screens with ones found by brute force,
one set of (word, thread) touches per interval, on random batches: broadcast and plain addresses,
rows outside every interval, elements of several words, several arrays."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from kernelscope.analyses import sync


def _entry(space: str, array: str, elem_bytes: int, addresses, reached):
    record = SimpleNamespace(space=space, array=array, elem_bytes=elem_bytes)
    return (SimpleNamespace(record=record), addresses, reached, (), reached.any(axis=1))


def _brute_screens(numbered: list, closed: int) -> list:
    """Per interval, the (space, array) keys no word of which two different threads touch."""
    touches: dict = {}    # (key, interval) -> {word: {threads}}
    granules: dict = {}
    for (event, _, _, _, _), _ in numbered:
        key = (event.record.space, event.record.array)
        granules.setdefault(key, set()).add(min(4, event.record.elem_bytes))
    for (event, addresses, reached, _, _), number in numbered:
        key = (event.record.space, event.record.array)
        if len(granules[key]) > 1:
            continue
        granule = min(granules[key])
        pieces = max(1, event.record.elem_bytes // granule)
        trips, threads = reached.shape
        for trip in range(trips):
            if number[trip] < 0:
                continue
            for thread in range(threads):
                if not reached[trip, thread]:
                    continue
                first = int(addresses[trip, thread]) // granule
                for piece in range(pieces):
                    touches.setdefault((key, int(number[trip])), {}).setdefault(first + piece, set()).add(thread)
    screens = []
    for interval in range(closed):
        cleared = set()
        for key, sizes in granules.items():
            if len(sizes) > 1:
                continue
            words = touches.get((key, interval), {})
            if all(len(threads) < 2 for threads in words.values()):
                cleared.add(key)
        screens.append(cleared)
    return screens


def _random_batch(rng, trips: int, threads: int, closed: int) -> list:
    numbered = []
    for k in range(int(rng.integers(1, 5))):
        array = "ab"[int(rng.integers(0, 2))]
        space = "shared" if rng.random() < 0.7 else "global"
        elem_bytes = {"a": 4, "b": int(rng.choice([4, 8]))}[array] if space == "shared" else 4
        if rng.random() < 0.4:     # one address per thread in every trip (a stride-0 view, as batches make)
            addresses = np.broadcast_to(rng.integers(0, 64, threads) * 4, (trips, threads))
        else:
            spread = int(rng.choice([4, 64, 4096]))
            addresses = rng.integers(0, spread, (trips, threads)) * 4
        reached = rng.random((trips, threads)) < rng.choice([0.05, 0.5, 1.0])
        number = np.sort(rng.integers(-1, closed, trips))
        numbered.append((_entry(space, array, elem_bytes, addresses, reached), number))
    return numbered


@pytest.mark.parametrize("seed", range(40))
def test_screens_match_brute_force(seed):
    rng = np.random.default_rng(seed)
    trips, threads, closed = int(rng.integers(1, 7)), int(rng.choice([1, 3, 32, 64])), int(rng.integers(1, 5))
    numbered = _random_batch(rng, trips, threads, closed)
    run = SimpleNamespace(interval=[])
    found = sync.BlockRun.screens_for(run, numbered, closed)
    assert [set(screen) for screen in found] == _brute_screens(numbered, closed)


def test_an_interval_after_work_before_the_loop_is_never_cleared():
    rng = np.random.default_rng(7)
    numbered = _random_batch(rng, 4, 32, 3)
    run = SimpleNamespace(interval=["something recorded before the loop"])
    found = sync.BlockRun.screens_for(run, numbered, 3)
    assert found[0] == set()

"""syncfast12: cheaper interval screens and barrier closes in the sync executor's batches.

- `screens_for` finds its (trip, thread) cells with a shift where the block is 2**k threads wide,
  gathers addresses that are the same in every trip from their one row, divides by a power-of-two
  word size with a shift (`_touched_cells`, `_cells_of`, `_floor_divided`): compared here with
  the plain numpy expressions they replace, on random tables.
- `_same_rows` takes two entries with one address array and equal threads (by content, not only
  identity) for the same rows: screens compared with brute force on batches built to have such
  pairs, and an over-eager merge is caught.
- `close_interval` skips the race checks of a memory whose written arrays the screen all cleared:
  findings compared with the close it replaced on kernels with batched barrier loops.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from kernelscope.analyses import sync
from test_syncfast4_screens import _brute_screens, _entry
from test_sync_batched_intervals import _cases, _findings


# -- the cells and words of a screen -------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_touched_cells_are_the_masked_nonzero_cells(seed):
    rng = np.random.default_rng(seed)
    trips, size = int(rng.integers(1, 9)), int(rng.choice([1, 2, 3, 32, 48, 64, 256]))
    reached = rng.random((trips, size)) < rng.choice([0.0, 0.3, 1.0])
    number = rng.integers(-1 if rng.random() < 0.5 else 0, 4, trips)
    touch, trip, thread = sync._touched_cells(reached, number)
    expected = (reached & (number >= 0)[:, None]).ravel().nonzero()[0]
    assert touch.tolist() == expected.tolist()
    assert trip.tolist() == (expected // size).tolist()
    assert thread.tolist() == (expected % size).tolist()


@pytest.mark.parametrize("seed", range(30))
def test_cells_of_gathers_what_the_flat_table_holds(seed):
    rng = np.random.default_rng(seed)
    trips, size = int(rng.integers(1, 7)), int(rng.choice([1, 3, 32, 64]))
    if rng.random() < 0.5:      # the same addresses in every trip: a stride-0 view, as batches make
        addresses = np.broadcast_to(rng.integers(-64, 64, size) * 4, (trips, size))
    else:
        addresses = rng.integers(-4096, 4096, (trips, size))
    reached = rng.random((trips, size)) < 0.5
    touch, _, thread = sync._touched_cells(reached, np.zeros(trips, dtype=np.int64))
    found = sync._cells_of(addresses, touch, thread)
    assert found.dtype == np.int64
    assert found.tolist() == np.asarray(addresses, dtype=np.int64).ravel()[touch].tolist()


@pytest.mark.parametrize("divisor", [1, 2, 3, 4, 6, 8, 16])
def test_floor_divided_floors_as_floor_division_does(divisor):
    values = np.arange(-70, 71, dtype=np.int64)
    assert sync._floor_divided(values, divisor).tolist() == (values // divisor).tolist()


# -- entries whose rows are the same -------------------------------------------------------------------

def _pair_batch(rng, same_threads: bool) -> list:
    """A load and a store of one address array with masks found apart (equal by content when
    `same_threads`), and another access of the array."""
    trips, threads, closed = 4, 32, 3
    addresses = np.broadcast_to(rng.integers(0, 16, threads) * 4, (trips, threads))
    reached = rng.random((trips, threads)) < 0.5
    other = reached.copy() if same_threads else ~reached
    number = np.sort(rng.integers(0, closed, trips))
    load = _entry("shared", "a", 4, addresses, reached)
    store = _entry("shared", "a", 4, addresses, other)
    third = _entry("shared", "a", 4, rng.integers(0, 64, (trips, threads)) * 4, rng.random((trips, threads)) < 0.1)
    return [(load, number), (store, number.copy()), (third, number)], closed


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("same_threads", [True, False])
def test_screens_with_equal_masks_merged_match_brute_force(seed, same_threads):
    numbered, closed = _pair_batch(np.random.default_rng(seed), same_threads)
    found = sync.BlockRun.screens_for(SimpleNamespace(interval=[]), numbered, closed)
    assert [set(screen) for screen in found] == _brute_screens(numbered, closed)


def test_equal_masks_found_apart_are_the_same_rows():
    rows = np.arange(8).reshape(2, 4)
    mask = np.array([[True, False, True, True], [False, False, True, True]])
    number = np.array([0, 1])
    assert sync._same_rows((rows, mask, number, 1), (rows, mask.copy(), number.copy(), 1))
    assert not sync._same_rows((rows, mask, number, 1), (rows, ~mask, number, 1))
    assert not sync._same_rows((rows, mask, number, 1), (rows.copy(), mask, number, 1))
    assert not sync._same_rows((rows, mask, number, 1), (rows, mask, number, 2))


def test_a_merge_that_ignores_the_threads_is_caught(monkeypatch):
    # a store by some threads, a load of the same words by the others: they share words only together
    trips, threads = 2, 8
    addresses = np.broadcast_to(np.arange(threads) // 2 * 4, (trips, threads))
    reached = np.broadcast_to(np.arange(threads) % 2 == 0, (trips, threads))
    number = np.array([0, 1])
    numbered = [(_entry("shared", "a", 4, addresses, reached), number),
                (_entry("shared", "a", 4, addresses, ~reached), number)]
    expected = _brute_screens(numbered, 2)
    assert [set(s) for s in sync.BlockRun.screens_for(SimpleNamespace(interval=[]), numbered, 2)] == expected
    monkeypatch.setattr(sync, "_same_rows", lambda entry, other: entry[0] is other[0])
    assert [set(s) for s in sync.BlockRun.screens_for(SimpleNamespace(interval=[]), numbered, 2)] != expected


# -- closing an interval ---------------------------------------------------------------------------------

def _close_before_syncfast12(run, barrier) -> None:
    """`BlockRun.close_interval` as it was: races_within asked for every memory written."""
    current = run.interval
    written = {i.access.space for i in current if i.writes}
    for memory, races in (("shared", run.found.races), ("global", run.found.global_races)):
        if memory in written:
            unshared = frozenset(array for space, array in run.unshared if space == memory) \
                if run.unshared else sync._NOTHING
            for race in sync.races_within(current, run.space, memory, races, unshared):
                races.setdefault((race.array, race.first_line, race.second_line), race)
    if run.previous is not None:
        before, between = run.previous
        key = (between.line, between.column)
        if not run.found.barrier_needed.get(key, False):
            run.found.barrier_needed[key] = between.kind in sync.VALUE_BARRIERS or \
                sync._hazard_across(before, current, run.space)
    run.previous = (current, barrier) if barrier is not None else None
    run.unshared = sync._NOTHING
    run.interval = []
    run.unknown_in_interval = set()


@pytest.mark.parametrize("name,kernel,bindings", list(_cases()), ids=lambda case: case if isinstance(case, str) else "")
def test_close_interval_finds_what_the_old_close_found(name, kernel, bindings, monkeypatch):
    found = _findings(kernel, bindings)
    monkeypatch.setattr(sync.BlockRun, "close_interval", _close_before_syncfast12)
    assert found == _findings(kernel, bindings)


def test_an_interval_whose_writes_are_all_cleared_asks_no_race_check(monkeypatch):
    from kernel_bodies import kernel_of
    from test_sync_batched_intervals import BODIES

    asked = []
    real = sync.races_within

    def watched(*args, **kwargs):
        asked.append(args[2] if len(args) > 2 else kwargs.get("memory", "shared"))
        return real(*args, **kwargs)

    monkeypatch.setattr(sync, "races_within", watched)
    _findings(kernel_of(BODIES["a correct reduction"]), {})
    skipped = len(asked)
    monkeypatch.setattr(sync.BlockRun, "close_interval", _close_before_syncfast12)
    asked.clear()
    _findings(kernel_of(BODIES["a correct reduction"]), {})
    assert skipped < len(asked)

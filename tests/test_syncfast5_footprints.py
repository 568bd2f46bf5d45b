"""The footprints of an interval (syncfast5): `_entries` reads the known entries off the instances
in one pass and divides the missing full-block ones at once, their addresses joined by one
concatenation (np.stack did Python work per row) and each access's words per element asked once.
These compare it with each instance's footprint computed alone, on random intervals."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from kernelscope.analyses import sync

THREADS = 32


def _random_interval(rng) -> list:
    """Instances as a batched loop and a walk make them: rows of one 2-d batch of addresses, the
    same address array shared by a load and a store, partial masks, wide elements, some entries
    already known."""
    shared = sync.Footprints() if rng.random() < 0.7 else None
    batch = rng.integers(0, 1 << 12, (6, THREADS)).astype(np.int64) * 4
    accesses = [SimpleNamespace(array="a", op=op, elem_bytes=int(rng.choice([1, 2, 4, 8, 16])), space="shared")
                for op in ("load", "store", "store")]
    instances = []
    for _ in range(int(rng.integers(0, 14))):
        access = accesses[int(rng.integers(0, len(accesses)))]
        kind = int(rng.integers(0, 3))
        if kind == 0:
            addresses = batch[int(rng.integers(0, batch.shape[0]))]      # a row view, as a batch records
        elif kind == 1 and instances:
            addresses = instances[-1].addresses                          # `t[i] += ...`: one array
        else:
            addresses = rng.integers(0, 256, THREADS).astype(np.int64) * 2
        mask = np.ones(THREADS, dtype=bool) if rng.random() < 0.7 else rng.random(THREADS) < 0.5
        instance = sync.Instance(access, addresses, mask, np.zeros(THREADS, dtype=np.int64), shared=shared)
        if rng.random() < 0.2:
            instance.entry(int(rng.choice([1, 2, 4])))     # known before, perhaps in another word size
        instances.append(instance)
    return instances


def _reference_pairs(instances: list, granule: int) -> list:
    """Each instance's footprint computed alone (`_footprint`, no stacking, no sharing)."""
    pairs = []
    for instance in instances:
        full = sync._count_nonzero(instance.mask) == instance.mask.size
        pairs.append(sync._footprint(instance.addresses, instance.mask, full, granule,
                                     sync._pieces(instance.access, granule)))
    return pairs


@pytest.mark.parametrize("seed", range(300))
def test_entries_match_one_footprint_per_instance(seed):
    rng = np.random.default_rng(seed)
    instances = _random_interval(rng)
    granule = int(rng.choice([1, 2, 4]))
    expected = _reference_pairs(instances, granule)
    entries = sync._entries(instances, granule)
    assert len(entries) == len(instances)
    for instance, entry, (words, threads) in zip(instances, entries, expected):
        assert entry is instance.entry(granule)     # what the instance keeps, asked again
        assert np.array_equal(entry.pair[0], words) and np.array_equal(entry.pair[1], threads)
        assert entry.pair[0].dtype == words.dtype
    # asked again, every entry is the one already given
    assert all(a is b for a, b in zip(sync._entries(instances, granule), entries))


def test_entries_share_one_entry_per_address_array():
    access = SimpleNamespace(array="a", op="store", elem_bytes=4, space="shared")
    addresses = np.arange(THREADS, dtype=np.int64) * 4
    everyone = np.ones(THREADS, dtype=bool)
    no_syncs = np.zeros(THREADS, dtype=np.int64)
    load, store = (sync.Instance(access, addresses, everyone, no_syncs) for _ in range(2))
    other = sync.Instance(access, addresses + 4 * THREADS, everyone, no_syncs)
    first, second, third = sync._entries([load, store, other], 4)
    assert first is second and first is not third
    assert np.array_equal(third.pair[0], np.arange(THREADS, 2 * THREADS))


@pytest.mark.parametrize("seed", range(100))
def test_stacked_rows_are_np_stack(seed):
    """`_stacked` (one concatenation seen as rows) against np.stack, on the rows the executor stacks:
    the shared all-true mask, read-only broadcast rows, strided row views, fresh arrays."""
    rng = np.random.default_rng(7000 + seed)
    size = int(rng.integers(1, 40))
    dtype = bool if rng.random() < 0.5 else np.int64
    everyone = np.ones(size, dtype=dtype)
    batch = rng.integers(0, 3, (5, size * 2)).astype(dtype)
    rows = []
    for _ in range(int(rng.integers(1, 9))):
        kind = int(rng.integers(0, 4))
        if kind == 0:
            rows.append(everyone)
        elif kind == 1:
            rows.append(np.broadcast_to(np.array(rng.integers(0, 2), dtype=dtype), (size,)))
        elif kind == 2:
            rows.append(batch[int(rng.integers(0, 5)), ::2])
        else:
            rows.append(rng.integers(0, 2, size).astype(dtype))
    stacked, expected = sync._stacked(rows), np.stack(rows)
    assert stacked.shape == expected.shape and stacked.dtype == expected.dtype
    assert np.array_equal(stacked, expected)


def _former_compared_groups(instances: list, memory: str) -> list:
    """What `races_within` compared before `_compared_groups`: a filter, a grouping by array, and a
    look for a write in each group."""
    chosen = [i for i in instances if i.access.space == memory and i.addresses is not None
              and (memory == "shared" or i.certain)]
    groups: dict = {}
    for instance in chosen:
        groups.setdefault(instance.access.array, []).append(instance)
    return [(array, group, sync._any_writes(group)) for array, group in groups.items()]


@pytest.mark.parametrize("seed", range(200))
def test_compared_groups_match_the_filter_and_grouping(seed):
    rng = np.random.default_rng(3000 + seed)
    accesses = [SimpleNamespace(array=str(rng.choice(list("abc"))), op=str(rng.choice(["load", "store", "atomic"])),
                                elem_bytes=4, space=str(rng.choice(["shared", "global", "local"])))
                for _ in range(5)]
    instances = []
    for _ in range(int(rng.integers(0, 16))):
        addresses = None if rng.random() < 0.15 else np.arange(THREADS, dtype=np.int64) * 4
        instances.append(sync.Instance(accesses[int(rng.integers(0, 5))], addresses, np.ones(THREADS, dtype=bool),
                                       np.zeros(THREADS, dtype=np.int64), certain=bool(rng.random() < 0.8)))
    for memory in ("shared", "global"):
        groups, written = sync._compared_groups(instances, memory)
        found = [(array, group, array in written) for array, group in groups.items()]
        expected = _former_compared_groups(instances, memory)
        assert [(a, [id(i) for i in g], w) for a, g, w in found] == [(a, [id(i) for i in g], w) for a, g, w in expected]

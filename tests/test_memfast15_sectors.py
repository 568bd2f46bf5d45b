"""memory._sectors counts sectors with few numpy calls (masks' lane counts from _warp_requests, a
remainder test for sector crossings, no masking when every slot is active, counts summed over all
warps): compared here with the general count it replaced, written out below, on address vectors and
masks where the shortcuts could differ (all or some slots active, idle warps, crossing and aligned
elements, addresses below 0, element sizes from 0 to 64 bytes)."""

import zlib

import numpy as np
import pytest

from kernelscope.analyses import memory
from kernelscope.analyses.threads import WARP_SIZE


def _mean(values):
    return float(values.sum()) / values.size if values.size else 0.0


def reference_sectors(addresses, active, elem):
    """The general count (memory._sectors before memfast15)."""
    SECTOR = memory.SECTOR
    masks = active.reshape(-1, WARP_SIZE)
    issuing = masks.any(axis=1)
    if not issuing.any():
        return None, None
    lowest = int(addresses[active].min())
    if lowest < 0:
        addresses = addresses + (-lowest // 128 + 1) * 128
    first = (addresses // SECTOR).reshape(-1, WARP_SIZE)
    span = max(1, -(-elem // SECTOR) + (1 if elem % SECTOR else 0))
    last = ((addresses + elem - 1) // SECTOR).reshape(-1, WARP_SIZE)
    if np.array_equal(first, last):
        touched = np.where(masks, first, -1)
    else:
        touched = np.minimum(first[:, :, None] + np.arange(span)[None, None, :], last[:, :, None])
        touched = np.where(masks[:, :, None], touched, -1).reshape(len(masks), -1)
    touched = np.sort(touched, axis=1)
    distinct = (touched[:, 1:] != touched[:, :-1]) & (touched[:, 1:] >= 0)
    counts = distinct.sum(axis=1) + (touched[:, 0] >= 0)
    ideals = -(-masks.sum(axis=1) * elem // SECTOR)
    return _mean(counts[issuing]), _mean(ideals[issuing])


def _addresses(rng, slots, elem, kind):
    lane = np.arange(slots, dtype=np.int64)
    if kind == "contiguous":
        return lane * elem
    if kind == "strided":
        return lane * int(rng.integers(1, 300)) + int(rng.integers(-500, 500))
    if kind == "misaligned":
        return lane * elem + int(rng.integers(1, 32))
    if kind == "negative":
        return lane * elem - int(rng.integers(1, 5000))
    if kind == "rows":      # a 16-wide block: two rows of a matrix per warp
        return (lane // 16) * 4096 + (lane % 16) * elem
    if kind == "broadcast":
        return np.full(slots, int(rng.integers(-100, 100000)), dtype=np.int64)
    return rng.integers(-10000, 10000, size=slots).astype(np.int64)   # random


def _mask(rng, slots, kind):
    if kind == "all":
        return np.ones(slots, dtype=bool)
    if kind == "none":
        return np.zeros(slots, dtype=bool)
    if kind == "idle warps":
        mask = np.ones(slots, dtype=bool)
        mask[WARP_SIZE:2 * WARP_SIZE] = False
        return mask
    if kind == "partial":
        return np.arange(slots) < int(rng.integers(1, slots))
    return rng.random(slots) < 0.6     # scattered


KINDS = ("contiguous", "strided", "misaligned", "negative", "rows", "broadcast", "random")
MASKS = ("all", "none", "idle warps", "partial", "scattered")


@pytest.mark.parametrize("elem", [0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("mask_kind", MASKS)
def test_sectors_equal_the_general_count(elem, kind, mask_kind):
    rng = np.random.default_rng(zlib.crc32(repr((elem, kind, mask_kind)).encode()))
    for slots in (WARP_SIZE, 4 * WARP_SIZE, 8 * WARP_SIZE):
        for _ in range(3):
            addresses = _addresses(rng, slots, elem, kind)
            active = _mask(rng, slots, mask_kind)
            expected = reference_sectors(addresses, active, elem)
            got = memory._sectors(addresses, active, elem, active.tobytes())
            assert got == expected, (slots, kind, mask_kind, elem)
            assert [type(v) for v in got] == [type(v) for v in expected]


def test_sectors_leave_their_inputs_alone():
    addresses = np.arange(64, dtype=np.int64)[::-1] * 4 - 100
    addresses.setflags(write=False)
    active = np.ones(64, dtype=bool)
    before = addresses.copy()
    assert memory._sectors(addresses, active, 4, active.tobytes()) == reference_sectors(addresses, active, 4)
    assert np.array_equal(addresses, before)


def test_layout_through_the_cache_matches_the_reference():
    """_layout (global space) gives the reference's cost and ideal for a crossing, masked case."""
    memory._layout.cache_clear()
    addresses = np.arange(128, dtype=np.int64) * 12 + 20
    active = np.arange(128) % 3 != 0
    _, _, cost, ideal = memory._layout(addresses.tobytes(), active.tobytes(), 12, False, None)
    assert (cost, ideal) == reference_sectors(addresses, active, 12)


def reference_shared_wavefronts(addresses, active, elem):
    """The general count (memory._shared_wavefronts before memfast15)."""
    BANKS, BANK_WIDTH = memory.BANKS, memory.BANK_WIDTH
    group = {8: 16, 16: 8}.get(elem, WARP_SIZE)
    words_per_lane = max(1, elem // BANK_WIDTH)
    masks = active.reshape(-1, WARP_SIZE // group, group)
    words = (addresses // BANK_WIDTH).reshape(-1, WARP_SIZE // group, group)
    words = words[..., None] + np.arange(words_per_lane)
    words = np.where(masks[..., None], words, -1).reshape(masks.shape[0], masks.shape[1], -1)
    words = np.sort(words, axis=2)
    first_of_kind = np.ones(words.shape, dtype=bool)
    first_of_kind[..., 1:] = words[..., 1:] != words[..., :-1]
    distinct = first_of_kind & (words >= 0)
    banks = np.where(distinct, words % BANKS, BANKS)
    cells = banks.shape[0] * banks.shape[1]
    flat = np.arange(cells).reshape(banks.shape[:2] + (1,)) * (BANKS + 1) + banks
    per_bank = np.bincount(flat.ravel(), minlength=cells * (BANKS + 1)).reshape(banks.shape[:2] + (BANKS + 1,))
    group_wavefronts = per_bank[..., :BANKS].max(axis=2)
    group_active = masks.any(axis=2)
    issuing = group_active.any(axis=1)
    if not issuing.any():
        return None, None
    wavefronts = group_wavefronts.sum(axis=1)
    ideals = group_active.sum(axis=1)
    return _mean(wavefronts[issuing]), _mean(ideals[issuing])


@pytest.mark.parametrize("elem", [1, 2, 4, 8, 12, 16, 32])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("mask_kind", MASKS)
def test_shared_wavefronts_equal_the_general_count(elem, kind, mask_kind):
    rng = np.random.default_rng(zlib.crc32(repr((elem, kind, mask_kind, "shared")).encode()))
    for slots in (WARP_SIZE, 4 * WARP_SIZE, 8 * WARP_SIZE):
        for _ in range(3):
            addresses = _addresses(rng, slots, elem, kind)
            active = _mask(rng, slots, mask_kind)
            expected = reference_shared_wavefronts(addresses, active, elem)
            got = memory._shared_wavefronts(addresses, active, elem, active.tobytes())
            assert got == expected, (slots, kind, mask_kind, elem)
            assert [type(v) for v in got] == [type(v) for v in expected]


@pytest.mark.parametrize("dtype", [bool, np.int64, np.float64])
def test_mean_is_the_sum_over_the_size(dtype):
    rng = np.random.default_rng(7)
    for size in (0, 1, 5, 32, 257):
        values = (rng.random(size) * 100).astype(dtype)
        expected = float(values.sum()) / values.size if values.size else 0.0
        got = memory._mean(values)
        assert got == expected and type(got) is float

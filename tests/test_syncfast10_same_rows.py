"""The barrier hazard check tells sides that are the same rows, slots and threads, with slots rising
strictly apart at once (SAME_ROWS_APART, `sync._same_rising_rows`): a tile read back by the threads
that wrote it. These compare `_owners_meet` with the shortcut on and off and with a brute-force
answer on such sides and on near misses (one slot repeated, one thread or slot changed, a side
one row shorter), and the whole sync result of kernels with the shortcut on and off."""

from __future__ import annotations


import numpy as np
import pytest

from kernelscope.analyses import sync
from kernel_bodies import named_kernels


def brute(slots_x, threads_x, slots_y, threads_y) -> bool:
    return any(len({t for s, t in zip(slots_x, threads_x) if s == w} | {t for s, t in zip(slots_y, threads_y)
                                                                         if s == w}) > 1
               for w in set(slots_x.tolist()) & set(slots_y.tolist()))


def _sides(rng):
    """Same rising rows on both sides, or a near miss of them."""
    size = int(rng.integers(1, 20))
    slots = np.sort(rng.choice(64, size, replace=False)).astype(np.int64)
    threads = rng.integers(0, 6, size).astype(np.int64)
    slots_y, threads_y = slots.copy(), threads.copy()
    change = int(rng.integers(0, 5))
    if change == 1 and size > 1:
        slots[1] = slots[0]                     # x touches one slot twice (not rising)
        slots_y = slots.copy()
    elif change == 2:
        threads_y[int(rng.integers(0, size))] += 1      # one thread differs
    elif change == 3:
        slots_y[int(rng.integers(0, size))] += 64       # one slot differs
    elif change == 4 and size > 1:
        slots_y, threads_y = slots_y[:-1], threads_y[:-1]   # y one row shorter
    return slots, threads, slots_y, threads_y


def test_owners_meet_with_the_shortcut_matches_brute_force(monkeypatch):
    rng = np.random.default_rng(10)
    taken = answers = 0
    seen = set()
    for _ in range(600):
        slots_x, threads_x, slots_y, threads_y = _sides(rng)
        expected = brute(slots_x, threads_x, slots_y, threads_y)
        assert sync._owners_meet(slots_x, threads_x, slots_y, threads_y, 128) == expected
        with monkeypatch.context() as off:
            off.setattr(sync, "SAME_ROWS_APART", False)
            assert sync._owners_meet(slots_x, threads_x, slots_y, threads_y, 128) == expected
        same = sync._same_rising_rows(slots_x, threads_x, slots_y, threads_y)
        taken += same
        assert not (same and expected)
        seen.add(expected)
        answers += 1
    assert taken and taken < answers and seen == {True, False}


def test_a_shortcut_that_ignores_the_threads_is_caught(monkeypatch):
    slots = np.arange(8, dtype=np.int64)
    threads_x, threads_y = np.arange(8, dtype=np.int64), np.arange(8, dtype=np.int64)[::-1].copy()
    assert sync._owners_meet(slots, threads_x, slots, threads_y, 8)
    monkeypatch.setattr(sync, "_same_rising_rows", lambda sx_, tx, sy, ty: sync._equal(sx_, sy))
    assert not sync._owners_meet(slots, threads_x, slots, threads_y, 8)


BODIES = {
    "tile written and read back": """__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
t[threadIdx.x] += 1.0f;
__syncthreads();
y[threadIdx.x] = t[threadIdx.x];""",
    "tile read by a neighbour": """__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
y[threadIdx.x] = t[(threadIdx.x + 1) % 256];""",
    "tile in a loop": """__shared__ float t[1024];
for (int k = 0; k < 4; ++k) {
    t[k * 256 + threadIdx.x] = x[k];
    __syncthreads();
    t[k * 256 + threadIdx.x] *= 2.0f;
    __syncthreads();
}
y[threadIdx.x] = t[threadIdx.x];""",
}
FILES = ("tests/kernels/realworld/samples_transpose.cu", "tests/kernels/realworld/rodinia_hotspot.cu",
         "tests/kernels/realworld/polybench_stencils.cu")


def _kernels():
    return named_kernels(BODIES, FILES)


@pytest.mark.parametrize("name,kernel", list(_kernels()), ids=lambda case: case if isinstance(case, str) else "")
def test_whole_results_are_the_same_with_the_shortcut_on_and_off(name, kernel, monkeypatch):
    def analysed():
        return sync.analyze(kernel, (256, 1, 1), {"n": 1 << 12}, grid=(2, 1, 1)).to_json()

    fast = analysed()
    monkeypatch.setattr(sync, "SAME_ROWS_APART", False)
    assert analysed() == fast

"""`_mask_problem` answers with `_left_out_problem` when every thread of the block calls (the usual
case): no lane can then be waited for, so only a lane its own mask leaves out is looked for, without
the per-warp tables and the gathers by the calling lanes. Compared here with CUDA's rule checked
lane by lane and with the general path, on blocks where every thread calls (full and partial last
warps), with and without lanes left out of their masks."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernelscope.analyses.threads import thread_space


def first_left_out(masks, space):
    """(lane, warp, mask) of the first thread (in thread order) its own mask leaves out, or None."""
    for thread in range(space.size):
        lane, mask = int(space.lane[thread]), int(masks[thread])
        if not (mask >> lane) & 1:
            return lane, int(space.warp[thread]), mask
    return None


@pytest.mark.parametrize("block", [(256, 1, 1), (80, 1, 1), (32, 4, 1)])
def test_every_thread_calling_matches_the_rule_lane_by_lane(block):
    space = thread_space(block)
    rng = np.random.default_rng(20)
    active = np.ones(space.size, dtype=bool)
    found_problem = found_none = False
    for trial in range(60):
        alive = active.copy()
        masks = np.full(space.size, 0xFFFFFFFF, dtype=np.int64)
        if trial % 2:
            picked = rng.random(space.size) < 0.02
            masks[picked] = rng.integers(0, 1 << 32, int(picked.sum()))
        found = sync._mask_problem(masks, active, alive, space)
        expected = first_left_out(masks, space)
        if expected is None:
            assert found is None
            found_none = True
        else:
            lane, warp, mask = expected
            assert found == f"lane {lane} of warp {warp} calls it with mask 0x{mask:08x}, which leaves it out"
            found_problem = True
    assert found_problem and found_none


def test_every_thread_calling_matches_the_gathered_path():
    """The same answers as the general path: there `active.nonzero()` hands back calling lanes whose
    size never equals active's, so the shortcut's condition is never true."""
    space = thread_space((96, 1, 1))
    rng = np.random.default_rng(7)
    cases = []
    for _ in range(80):
        active = np.ones(space.size, dtype=bool)
        alive = active.copy()
        masks = np.where(rng.random(space.size) < 0.97, 0xFFFFFFFF,
                         rng.integers(0, 1 << 32, space.size)).astype(np.int64)
        cases.append((masks, active, alive))
    fast = [sync._mask_problem(m, a, l, space) for m, a, l in cases]

    real_nonzero = np.ndarray.nonzero

    class Calling(np.ndarray):
        """active.nonzero()[0] whose size never equals active's: forces the gathered path."""
        @property
        def size(self):
            return -1

    class _ActiveWithOddNonzero(np.ndarray):
        def __new__(cls, array):
            return np.asarray(array).view(cls)

        def nonzero(self):
            (calling,) = real_nonzero(np.asarray(self))
            return (calling.view(Calling),)

    slow = [sync._mask_problem(m, _ActiveWithOddNonzero(a), l, space) for m, a, l in cases]
    assert fast == slow
    assert any(answer is not None for answer in fast) and any(answer is None for answer in fast)

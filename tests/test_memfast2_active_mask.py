"""Lanes.active_mask's shortcut (a block that fills its warps takes the guards' mask as it is, without
ANDing it with all-True active slots) answers as the general path, `active & mask(conditions)`, for
every guard list of the project's kernels, in blocks that fill their warps and blocks that do not."""

from pathlib import Path

import numpy as np
import pytest

from kernelscope.analyses.threads import BlockShape, Lanes, active_slots, thread_env
from kernelscope.frontend.parse import parse_file

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*ROOT.glob("examples/*.cu"), *ROOT.glob("tests/kernels/*/*.cu")])[:60]
BLOCKS = [BlockShape(256), BlockShape(16, 16), BlockShape(48), BlockShape(100)]


def _guard_lists(kernel):
    return [site.context.conditions for site in (*kernel.accesses, *kernel.branches)]


def _general(lanes: Lanes, conditions) -> np.ndarray:
    return lanes.active & lanes.mask(conditions)


def _kernels():
    for path in FILES:
        yield from parse_file(path.read_text(), str(path)).kernels


def test_the_files_have_guards():
    assert len(FILES) > 20
    assert sum(1 for kernel in _kernels() for conditions in _guard_lists(kernel) if conditions) > 50


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_active_mask_is_active_slots_and_the_guards(block):
    partial_differs = False
    for kernel in _kernels():
        env = thread_env(block, None, {})
        lanes = Lanes(env, block.slots, active_slots(block))
        for conditions in _guard_lists(kernel):
            expected = _general(lanes, conditions)
            got = lanes.active_mask(conditions)
            assert got.dtype == bool and np.array_equal(got, expected), (kernel.name, block)
            # what skipping the AND always would give: wrong wherever padding lanes pass the guards
            partial_differs |= not np.array_equal(lanes.mask(conditions), expected)
    assert lanes._fills_warps() == (block.threads == block.slots)
    # a shortcut taken for partial blocks too would be caught above
    assert partial_differs == (block.threads != block.slots)

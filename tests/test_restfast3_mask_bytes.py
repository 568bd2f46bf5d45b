"""memory._MaskBytes knows a statement's active slots by its Context object first (the statements of
one block share it) before building the guard list's key: for every access and branch of the project's
kernels, asked in the memory analysis' order, it answers as the general path does, the mask of
`Lanes.active_mask(context.conditions)` and its bytes."""

import numpy as np
import pytest

from kernelscope.analyses import memory
from kernelscope.analyses.threads import BlockShape, Lanes, active_slots, thread_env
from project_sources import PROJECT_CUDA_FILES, project_kernels

FILES = PROJECT_CUDA_FILES
BLOCKS = [BlockShape(256), BlockShape(16, 16), BlockShape(100)]


_kernels = project_kernels


def _sites(kernel):
    return [*kernel.accesses, *kernel.branches]


def test_the_kernels_share_contexts_and_differ_in_guards():
    shared = differing = 0
    for kernel in _kernels():
        contexts = [site.context for site in _sites(kernel)]
        shared += len(contexts) - len({id(c) for c in contexts})
        differing += len({tuple(map(id, c.conditions)) for c in contexts}) > 1
    assert shared > 100 and differing > 50


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_masks_by_context_are_the_guards_masks(block):
    for kernel in _kernels():
        env = thread_env(block, None, {})
        masks = memory._MaskBytes(Lanes(env, block.slots, active_slots(block)))
        general = Lanes(env, block.slots, active_slots(block))
        for site in _sites(kernel):
            mask, as_bytes = masks.of(site.context)
            expected = general.active_mask(site.context.conditions)
            assert np.array_equal(mask, expected) and as_bytes == expected.tobytes(), (kernel.name, site.line)

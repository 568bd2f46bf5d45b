"""memory._access keeps the layout answer of an address (stride, pattern, sectors or wavefronts, note)
per environment, by the address' structure, the mask's bytes, the element size and the space
(KEEP_ADDRESS_LAYOUTS): for every access of the project's kernels, in block shapes that fill their
warps or not, with and without bound sizes, every field of every AccessResult is what the general
path, which works each access out again, gives."""

import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import memory
from kernelscope.analyses.threads import BlockShape
from project_sources import PROJECT_CUDA_FILES, project_kernels

FILES = PROJECT_CUDA_FILES
CASES = [(BlockShape(256), {}), (BlockShape(16, 16), {}), (BlockShape(100), {}),
         (BlockShape(128), {"n": 4096, "N": 4096, "width": 1024, "stride": 3})]


_kernels = project_kernels


def _fields(result):
    return [vars(access) for access in result.accesses]


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_kept_layouts_are_the_general_answers(monkeypatch, block, bindings):
    for kernel in _kernels():
        monkeypatch.setattr(memory, "KEEP_ADDRESS_LAYOUTS", False)
        general = _fields(memory.analyze(kernel, block, bindings))
        monkeypatch.setattr(memory, "KEEP_ADDRESS_LAYOUTS", True)
        kept = _fields(memory.analyze(kernel, block, bindings))
        assert kept == general, kernel.name


def test_the_kernels_have_accesses_alike_of_every_kind():
    """The answers kept are worth keeping (accesses share them), and cover each kind of answer."""
    keys, accesses, kinds = set(), 0, set()
    for kernel in _kernels():
        result = memory.analyze(kernel, BlockShape(256), {})
        for access, found in zip(kernel.accesses, result.accesses):
            accesses += 1
            keys.add((sx.structure_key(access.address), access.elem_bytes, access.space, id(access.context)))
            kinds.add("indirect" if found.pattern == "indirect" else
                      "not evaluable" if (found.note or "").startswith("address not evaluable") else
                      "warp-uniform" if found.note and "per warp" in found.note else found.space)
    assert accesses - len(keys) > 100
    assert {"indirect", "warp-uniform", "global", "shared"} <= kinds

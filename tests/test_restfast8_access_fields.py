"""memory.analyze's fast path (KEEP_ACCESS_FIELDS: _kept_access) keeps the fields an address' layout
decides per environment, by the keys the layout is kept by, and asks each context's weights once per
kernel: for every access of the project's kernels, in block shapes that fill their warps or not, with
and without bound sizes (so with numeric and symbolic weights, hoisted loads, indirect, warp-uniform
and unevaluable addresses), every field of every AccessResult is what the general path (_access)
gives, with the same types."""

import pytest

from kernelscope.analyses import memory
from kernelscope.analyses.threads import BlockShape
from project_sources import PROJECT_CUDA_FILES, project_kernels

FILES = PROJECT_CUDA_FILES
CASES = [(BlockShape(256), {}), (BlockShape(16, 16), {}), (BlockShape(100), {}),
         (BlockShape(128), {"n": 4096, "N": 4096, "width": 1024, "stride": 3})]


_kernels = project_kernels


def _fields(result):
    # (types too: 1 and 1.0 are equal but would not encode alike)
    return [[(name, type(value), value) for name, value in vars(access).items()] for access in result.accesses]


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_kept_fields_are_the_general_answers(monkeypatch, block, bindings):
    for kernel in _kernels():
        monkeypatch.setattr(memory, "KEEP_ACCESS_FIELDS", False)
        general = _fields(memory.analyze(kernel, block, bindings))
        monkeypatch.setattr(memory, "KEEP_ACCESS_FIELDS", True)
        kept = _fields(memory.analyze(kernel, block, bindings))
        assert kept == general, kernel.name
        again = _fields(memory.analyze(kernel, block, bindings))     # the kept answers, found again
        assert again == general, kernel.name


def test_the_kernels_cover_what_the_fast_path_keeps():
    """Hoisted loads, symbolic weights, and accesses that share a context are all met."""
    hoisted = symbolic = shared = 0
    for kernel in _kernels():
        result = memory.analyze(kernel, BlockShape(256), {})
        contexts = [id(access.context) for access in kernel.accesses]
        shared += len(contexts) - len(set(contexts))
        hoisted += sum(1 for access in kernel.accesses if access.hoisted_loops)
        symbolic += sum(1 for found in result.accesses if isinstance(found.exec_weight, str))
    assert hoisted > 10 and symbolic > 10 and shared > 100


def test_a_changed_field_is_caught(monkeypatch):
    """The comparison above can fail: a fast path that drops the note differs from the general one."""
    kernel = next(k for k in _kernels() if any(a.space == "global" for a in k.accesses))
    monkeypatch.setattr(memory, "KEEP_ACCESS_FIELDS", False)
    general = _fields(memory.analyze(kernel, BlockShape(97), {}))
    monkeypatch.setattr(memory, "KEEP_ACCESS_FIELDS", True)
    real = memory._layout_fields
    monkeypatch.setattr(memory, "_layout_fields", lambda *args: real(*args)[:-2] + (-1.0, "changed"))
    assert _fields(memory.analyze(kernel, BlockShape(97), {})) != general

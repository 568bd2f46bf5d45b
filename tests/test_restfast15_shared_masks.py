"""restfast15: memory's _MaskBytes keeps a guard list's active slots and their bytes with the
environment's values by the guards' structures, where each guard has at most one name the
environment lacks. Compared with the general path (SHARE_MASK_BYTES off) on every kernel of the project, in block shapes that fill their warps or
not, with and without bound sizes; on copies whose weights are symbolic (they name their loops'
lines, so they are never shared); and on guards over two unbound names."""
import pytest

from kernelscope.analyses import memory
from kernelscope.analyses.threads import BlockShape
from kernelscope.frontend.parse import parse_file
from kernelscope.symbolic import free_names
from project_sources import project_kernels
from test_restfast15_kept_counts import CASES, weights_for


def _results(kernels, block, bindings, shared: bool):
    """Each kernel's access results; `shared`: on one signed environment (as analyze does), else
    each on its own unsigned one (nothing kept is shared between kernels)."""
    results = []
    for kernel in kernels:
        weights = weights_for(block, bindings, shared)
        result = memory.analyze(kernel, block, bindings, None, weights)
        results.append((result.accesses, result.branches))
    return results


def _general(monkeypatch):
    monkeypatch.setattr(memory, "SHARE_MASK_BYTES", False)


def _shared_masks(monkeypatch) -> list:
    """The guard lists whose active slots _MaskBytes took from a kept answer (not computed)."""
    hits = []
    computing = [0]
    entry, shared = memory._MaskBytes._entry, memory._MaskBytes._shared

    def counting(self, conditions):
        computing[0] += 1
        return entry(self, conditions)

    def watching(self, conditions):
        before = computing[0]
        answer = shared(self, conditions)
        if answer is not None and computing[0] == before:
            hits.append(conditions)
        return answer
    monkeypatch.setattr(memory._MaskBytes, "_entry", counting)
    monkeypatch.setattr(memory._MaskBytes, "_shared", watching)
    return hits


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_kept_masks_are_the_general_paths(monkeypatch, block, bindings):
    kernels = list(project_kernels())
    _general(monkeypatch)
    general = _results(kernels, block, bindings, shared=False)
    monkeypatch.setattr(memory, "SHARE_MASK_BYTES", True)
    masks = _shared_masks(monkeypatch)
    # twice: the second pass is answered from what the first kept
    assert _results(kernels, block, bindings, shared=True) == general
    assert _results(kernels, block, bindings, shared=True) == general
    assert len(masks) > 200        # kept masks were really used


SYMBOLIC = r"""
__global__ void rows(float* out, const float* in, int ny) {
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < ny; ++j) { acc += in[j * 256 + t]; }
    out[t] = acc;
}
"""

TWO_UNBOUND = r"""
__global__ void two(float* out, const float* in, int n, int m) {
    int t = threadIdx.x;
    if (t < n && t < m) { out[t] = in[t]; }
    if (t < n) { out[t + 1] = in[t + 1]; }
}
"""


@pytest.mark.parametrize("source,names", [(SYMBOLIC, ("rows", "rows_again")), (TWO_UNBOUND, ("two", "two_again"))],
                         ids=["symbolic-weights", "two-unbound"])
def test_copies_share_only_what_holds_for_both(monkeypatch, source, names):
    # the copy lies on other lines: a symbolic weight names them
    text = source + "\n\n" + source.replace(names[0] + "(", names[1] + "(")
    kernels = parse_file(text, "copies.cu").kernels
    block = BlockShape(256)
    _general(monkeypatch)
    general = _results(kernels, block, {}, shared=False)
    monkeypatch.setattr(memory, "SHARE_MASK_BYTES", True)
    masks = _shared_masks(monkeypatch)
    assert _results(kernels, block, {}, shared=True) == general
    assert [a.exec_weight for a in general[0][0]] != [a.exec_weight for a in general[1][0]] or names[0] == "two"
    # never a guard over n and m
    assert not [g for conditions in masks for g in conditions if {"n", "m"} <= free_names(g.expr)]

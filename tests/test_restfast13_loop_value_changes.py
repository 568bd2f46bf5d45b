"""restfast13: ExecWeights._sum_over_loop_values passes the loop variables it has set down the
recursion (`changed`, one small dict a level) instead of building {name: env[name] for name in
names} at every combination of loop values. Compared with the old recursion (written out here) on
the counts of every statement context of the project's kernels, in block shapes that fill their
warps or not, with and without bound sizes, and on nested loops (one shadowing the other's name)."""
import numpy as np
import pytest

from kernelscope.analyses import trips
from kernelscope.analyses.threads import BlockShape, active_slots, thread_env
from kernelscope.analyses.trips import ExecWeights, _loop_values, _reads_any
from project_sources import project_kernels

CASES = [(BlockShape(256), {}), (BlockShape(100), {}), (BlockShape(128), {"n": 4096, "N": 4096, "steps": 8})]


def _old_sum(self, loops, env, conditions, budget, names, changed=None):
    """The recursion before restfast13 (`changed` ignored: the leaf builds it from names)."""
    if not loops:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        return self._active_share(self.lanes.mask_in(conditions, env, {name: env[name] for name in names}))
    if env is self.env or not _reads_any(loops[0], names):
        key = id(loops[0])
        if key not in self._values:
            self._values[key] = self._in_env(_loop_values, loops[0])
        values = self._values[key]
    else:
        values = _loop_values(loops[0], env, self.slots, self.active)
    if values is None:
        return None
    total = 0.0
    for value in values:
        part = _old_sum(self, loops[1:], {**env, loops[0].var: value}, conditions, budget, names)
        if part is None:
            return None
        total += part
    return total


def _counts(kernels, block, bindings):
    # fresh ExecWeights for each kernel and path: nothing one kept can answer for the other
    counts = []
    for kernel in kernels:
        weights = ExecWeights(thread_env(block, None, dict(bindings)), block.slots, active_slots(block))
        contexts = [site.context for site in kernel.arith] + [a.weight_context for a in kernel.accesses]
        counts.append([weights.executions(context) for context in contexts])
    return counts


def _leaves(monkeypatch, kernels, block, bindings) -> int:
    seen = [0]
    inner = ExecWeights._sum_over_loop_values

    def counting(self, loops, *rest):
        seen[0] += not loops
        return inner(self, loops, *rest)
    monkeypatch.setattr(ExecWeights, "_sum_over_loop_values", counting)
    _counts(kernels, block, bindings)
    monkeypatch.undo()
    return seen[0]


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_counts_are_those_of_the_old_recursion(monkeypatch, block, bindings):
    kernels = list(project_kernels())
    # (every sum computed here, none answered from one kept by restfast15's KEEP_COUNTS, and by the
    # recursion: intens27's COLUMN_VALUES off)
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    monkeypatch.setattr(trips, "COLUMN_VALUES", False)
    new = _counts(kernels, block, bindings)
    monkeypatch.setattr(ExecWeights, "_sum_over_loop_values", _old_sum)
    assert _counts(kernels, block, bindings) == new
    monkeypatch.undo()
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    monkeypatch.setattr(trips, "COLUMN_VALUES", False)
    assert _leaves(monkeypatch, kernels, block, bindings) > 100   # the recursion is really compared


NESTED = r"""
__global__ void nested(float* out, const float* in) {
    int t = threadIdx.x;
    float s = 0.0f;
    for (int i = 1; i < 64; i *= 2) {
        for (int j = 0; j < 4; ++j) {
            if (t % (2 * i) == 0 && t + i + j < 64) { s += in[t + i + j]; }
        }
        for (int i = 0; i < 3; ++i) {
            if (t < 8 * i + 4) { s += in[t * i]; }
        }
    }
    out[t] = s;
}
"""


@pytest.mark.parametrize("block", [BlockShape(64), BlockShape(40)], ids=str)
def test_nested_and_shadowing_loops(monkeypatch, block):
    from kernelscope.frontend.parse import parse_file

    kernels = parse_file(NESTED, "nested.cu").kernels
    monkeypatch.setattr(trips, "KEEP_COUNTS", False)
    new = _counts(kernels, block, {})
    monkeypatch.setattr(ExecWeights, "_sum_over_loop_values", _old_sum)
    old = _counts(kernels, block, {})
    assert old == new
    assert any(count is not None and not float(count).is_integer() for count in np.ravel(new[0]))

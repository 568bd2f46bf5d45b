"""Lanes.condition finds the names its environment lacks as a frozenset difference (in C) instead of a
list comprehension, sorting them only when there are several: for every branch and guard condition of
the project's kernels, in block shapes that fill their warps or not, with and without bound sizes, its
truth is condition_values' (the general path), including conditions over several unbound scalars,
whose judgement depends on the names' sorted order."""

import numpy as np
import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import threads
from kernelscope.analyses.threads import BlockShape
from kernelscope.frontend.parse import parse_file
from project_sources import PROJECT_CUDA_FILES

FILES = PROJECT_CUDA_FILES
CASES = [(BlockShape(256), {}), (BlockShape(100), {"n": 4096, "N": 4096, "width": 1024})]


def _conditions():
    for path in FILES:
        for kernel in parse_file(path.read_text(), str(path)).kernels:
            exprs = [branch.condition for branch in kernel.branches]
            exprs += [c.expr for access in kernel.accesses for c in access.context.conditions]
            yield kernel, exprs


@pytest.mark.parametrize("block,bindings", CASES, ids=[f"{b}-{len(v)}" for b, v in CASES])
def test_condition_is_condition_values(block, bindings):
    several = 0
    for kernel, exprs in _conditions():
        env = threads.thread_env(block, None, bindings)
        lanes = threads.Lanes(env, block.slots, threads.active_slots(block), None)    # (nothing shared)
        for expr in exprs:
            got = lanes.condition(expr)
            want = threads.condition_values(expr, env, block.slots)
            assert (got is None and want is None) or np.array_equal(got, want), (kernel.name, expr)
            several += len([n for n in sx.free_names(expr) if n not in env]) > 1
    assert several > 5          # conditions over several unbound scalars were met


def test_several_unbound_names_are_judged_in_sorted_order(monkeypatch):
    """The comparison can fail: the names reach the judgement sorted, as condition_values has them."""
    seen = []
    monkeypatch.setattr(threads.Lanes, "_first_judgement", lambda self, expr, unbound: seen.append(unbound))
    expr = sx.binary(">=", sx.Sym("threadIdx.x"), sx.binary("-", sx.Sym("zeta"), sx.Sym("alpha")))
    block = BlockShape(64)
    threads.Lanes(threads.thread_env(block), block.slots, threads.active_slots(block), None).condition(expr)
    assert seen == [["alpha", "zeta"]]

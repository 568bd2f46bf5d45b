"""The sync executor's blocks share what failed to evaluate (`UnboundFailures`, `Memo.hopeless`): every
block has the same names bound, so an expression that failed for want of some names in one block
fails in the next as well. These compare the results with each block finding its own failures,
the way it did before, and check that the later blocks do ask the shared record. The loops that
replaced any() over generators are compared with any()."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels

# conditions, loop bounds and addresses on names nothing binds (n, w), read in every block run
BODIES = {
    "unbound condition around a barrier": """
__shared__ float tile[256];
int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < n) tile[threadIdx.x] = x[i];
__syncthreads();
if (threadIdx.x < n) y[i] = tile[(threadIdx.x + 1) % 256];""",
    "unbound address in a loop": """
__shared__ float tile[256];
for (int k = 0; k < 4; k++) {
    tile[threadIdx.x] = x[k * n + blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    y[blockIdx.x * n + k] = tile[(threadIdx.x * w) % 256];
    __syncthreads();
}""",
    "unbound loop bound and carried value": """
__shared__ float tile[256];
int j = threadIdx.x;
for (int k = 0; k < n; k++) {
    tile[j % 256] = x[blockIdx.x * 256 + k];
    j += w;
}
__syncthreads();
y[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x];""",
}
FILES = ["tests/kernels/races/gb_2d_disjoint_tiles.cu", "tests/kernels/races/gb_block_owned_inplace_smooth.cu"]


def _failures_per_block(monkeypatch):
    """BlockRun as before: each block keeps its own record of what failed."""
    init = sync.BlockRun.__init__

    def own_records(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.unbound, self.hopeless = sync.UnboundFailures(), {}

    monkeypatch.setattr(sync.BlockRun, "__init__", own_records)


def _results(cases, grid):
    return {name: sync.analyze(kernel, (256, 1, 1), {}, grid=grid).to_json() for name, kernel in cases}


@pytest.mark.parametrize("grid", [None, (3, 1, 1)])
def test_shared_failures_give_what_each_block_finding_its_own_gives(monkeypatch, grid):
    cases = named_kernels(BODIES, FILES)
    shared = _results(cases, grid)
    _failures_per_block(monkeypatch)
    assert _results(cases, grid) == shared


def unbound_raised(monkeypatch, kernels, grid=(3, 1, 1)) -> list:
    """How many evaluations `BlockRun.evaluate` started raised Unbound (raising is what sharing
    saves), for each kernel analysed in turn, one fresh record of failures shared by them all."""
    counts = []
    evaluate = sx.Expr.evaluate

    def counted(expr, env):
        try:
            return evaluate(expr, env)
        except sx.Unbound:
            counts[-1] += 1
            raise

    with monkeypatch.context() as patch:
        patch.setattr(sx.Expr, "evaluate", counted)
        patch.setattr(sync, "UNBOUND_FAILURES", sync.UnboundFailures())    # (what earlier tests found aside)
        for kernel in kernels:
            counts.append(0)
            sync.analyze(kernel, (256, 1, 1), {}, grid=grid)
    return counts


def test_later_blocks_ask_the_failures_the_first_one_found(monkeypatch):
    kernel = kernel_of(BODIES["unbound condition around a barrier"])
    [shared] = unbound_raised(monkeypatch, [kernel])
    _failures_per_block(monkeypatch)
    # three blocks run: each found the same failures again before they were shared
    assert 0 < shared < unbound_raised(monkeypatch, [kernel])[0]


def _conditions(loads):
    return tuple(SimpleNamespace(expr=sx.Load("a", sx.Sym("i")) if load else sx.Sym("c")) for load in loads)


def test_the_loops_answer_as_any_does():
    chooser = random.Random(7)
    for _ in range(200):
        flags = [chooser.random() < 0.3 for _ in range(chooser.randrange(5))]
        assert sync._certain(_conditions(flags)) == (not any(flags))
        instances = [SimpleNamespace(writes=flag, addresses=None if flag else 0) for flag in flags]
        assert sync._any_writes(instances) == any(flags)
        assert sync._any_unknown_address(instances) == any(flags)

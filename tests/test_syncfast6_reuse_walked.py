"""A nest's look-ahead (`prepare_nest`) takes the iteration lists that the walk computed already
from the walk's memo instead of computing them again in its own (REUSE_WALKED): the outer loop's
first trip, walked when the loop carries a value, enters the inner loops with the values the
look-ahead then asks about. These compare the findings, notes and their order included, with the
reuse on and off and with no nest batch tried at all, on nests that give up in each way after
computing iterations (an inner loop long enough to batch alone, too few rows, an unknown
thread-dependent bound, inner loops whose iterations make notes) and on nests that batch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = ("tests/kernels/realworld/samples_scalarprod.cu", "corpus/bitonic_sort/shared_network.cu",
         "corpus/pairwise_dist/register_blocked.cu")

GIVE_UPS = {
    "an inner loop long enough to batch alone": """
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 0; k < 8; k++)
    for (int j = 0; j < 16; j++)
        y[threadIdx.x] += t[(k * 16 + j) % 256];""",
    "too few rows (a barrier in the inner loop)": """
__shared__ float t[256];
for (int k = 0; k < 3; k++)
    for (int j = 0; j < 2; j++) {
        t[(threadIdx.x + j) % 256] = x[k];
        __syncthreads();
    }""",
    "an unknown bound per thread, after a carried value": """
__shared__ float t[1024];
for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
    float s = 0;
    for (int p = i; p < n; p += 1024)
        s += x[p];
    t[i] = s;
}""",
    "inner loops whose iterations make notes": """
__shared__ float t[256];
for (int k = 0; k < 4; k++) {
    for (int j = 0; j < m; j++)
        t[(threadIdx.x + j) % 256] = x[k];
    for (int j = k; j < k * q; j *= 2)
        t[(threadIdx.x + j) % 256] += 1.0f;
    __syncthreads();
}""",
}


def _cases():
    for name, body in GIVE_UPS.items():
        for bindings in ({}, {"n": 3000, "m": 5, "q": 3}):
            yield f"{name}:{bindings}", kernel_of(body), bindings
    for path in FILES:
        if (ROOT / path).exists():
            for kernel in parse_file((ROOT / path).read_text(), path).kernels:
                for bindings in ({}, {"vectorN": 4, "elementN": 3000, "n": 96, "m": 40, "d": 16}):
                    yield f"{path}:{kernel.name}:{bindings}", kernel, bindings


CASES = list(_cases())


def _findings(kernel, bindings) -> dict:
    return sync.analyze(kernel, (256, 1, 1), bindings, grid=(2, 1, 1)).to_json()


@pytest.mark.parametrize("name,kernel,bindings", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_iterations_taken_from_the_walk_find_what_computed_ones_find(name, kernel, bindings, monkeypatch):
    expected = _findings(kernel, bindings)
    monkeypatch.setattr(sync, "REUSE_WALKED", False)
    assert expected == _findings(kernel, bindings)
    monkeypatch.setattr(sync, "NEST_BATCHES", False)
    assert expected == _findings(kernel, bindings)


def _reuses(kernel, bindings, monkeypatch) -> dict:
    """How many iteration lists each side took from the other's memo: {asking method: count}."""
    taken: dict = {}
    real = sync.Memo.known

    def counted(self, *args):
        found = real(self, *args)
        if found is not None:
            asking = sys._getframe(1).f_code.co_name
            taken[asking] = taken.get(asking, 0) + 1
        return found

    with monkeypatch.context() as watching:
        watching.setattr(sync.Memo, "known", counted)
        _findings(kernel, bindings)
    return taken


def test_the_look_ahead_takes_the_walk_s_iterations(monkeypatch):
    # (the outer loop's first trip is walked before the look-ahead sees its second: `s` is carried)
    kernel = kernel_of(GIVE_UPS["an inner loop long enough to batch alone"])
    assert _reuses(kernel, {}, monkeypatch).get("iterations")
    monkeypatch.setattr(sync, "REUSE_WALKED", False)
    assert not _reuses(kernel, {}, monkeypatch).get("iterations")


def test_known_finds_what_recall_stored_and_nothing_else():
    from kernelscope import symbolic as sx
    memo = sync.Memo(frozenset({"k", "threadIdx.x"}))
    expr = sx.Sym("k") + sx.Sym("threadIdx.x")
    alive, other = object(), object()
    env = {"k": 3, "threadIdx.x": 5, "n": 7}
    assert memo.known(expr, env, (0, 0, 0), alive) is None     # never asked
    stored = memo.recall(expr, env, (0, 0, 0), lambda: ["computed"], also=alive)
    assert memo.known(expr, dict(env), (0, 0, 0), alive) is stored
    assert memo.known(expr, {**env, "n": 8}, (0, 0, 0), alive) is stored      # (n is not read)
    assert memo.known(expr, {**env, "k": 1000}, (0, 0, 0), alive) is None
    assert memo.known(expr, env, (0, 0, 0), other) is None
    assert memo.known(sx.Sym("k") * sx.Sym("threadIdx.x"), env, (0, 0, 0), alive) is None   # another expression

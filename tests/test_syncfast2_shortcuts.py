"""The sync executor's shortcuts answer as its general paths do. `UnboundFailures`, the record of
expressions that failed for want of names, kept by structure and shared by every analysis, gives
the reports that evaluating every expression afresh gives, whatever ran before it (a kernel built
alike, the same kernel with the names bound); a record that forgot which names were missing would
not."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(p.relative_to(ROOT)) for pattern in ("examples/*.cu", "tests/kernels/races/*.cu",
                                                         "tests/kernels/sync/*.cu")
               for p in ROOT.glob(pattern))
# sizes nothing binds (n, w) in conditions, bounds and addresses, and a loop whose start reads one
UNBOUND = """
__shared__ float tile[256];
int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < n) tile[threadIdx.x] = x[i];
__syncthreads();
for (int k = n; k < 4 * n; k += w) {
    tile[(threadIdx.x + k) % 256] += x[k * n + i];
    __syncthreads();
}
if (threadIdx.x < n) y[i] = tile[(threadIdx.x + 1) % 256];"""
# (bindings, grid) that the same kernels are analysed under, one after the other
SETTINGS = [({}, None), ({"n": 300, "w": 32}, None), ({}, (3, 1, 1)), ({"n": 7}, (2, 1, 1))]


def _kernels() -> list:
    kernels = [kernel_of(UNBOUND, "const float* x, float* y, int n, int w")]
    for path in FILES:
        kernels.extend(parse_file((ROOT / path).read_text(), path).kernels)
    return kernels


class _NoRecord(sync.UnboundFailures):
    """The general path: nothing is remembered, every expression is evaluated (and raises) again."""

    def add(self, key, missing):
        pass


class _NamesForgotten(sync.UnboundFailures):
    """A broken record: an expression that failed once fails whatever names are bound."""

    def get(self, key, default=None):
        found = super().get(key, default)
        return None if found is None else _Everything()


class _Everything(set):
    def __contains__(self, item):
        return True


def _reports(monkeypatch, record) -> list:
    monkeypatch.setattr(sync, "UNBOUND_FAILURES", record)
    return [sync.analyze(kernel, (256, 1, 1), bindings, grid=grid).to_json()
            for bindings, grid in SETTINGS for kernel in _kernels()]


def test_the_inputs_fail_for_want_of_names(monkeypatch):
    record = sync.UnboundFailures()
    _reports(monkeypatch, record)
    assert len(record) > 20


def test_failures_by_structure_give_the_reports_of_evaluating_afresh(monkeypatch):
    general = _reports(monkeypatch, _NoRecord())
    shared = sync.UnboundFailures()
    assert _reports(monkeypatch, shared) == general
    # again, every expression of every kernel already in the record
    assert _reports(monkeypatch, shared) == general


def test_a_record_that_forgets_the_missing_names_is_caught(monkeypatch):
    general = _reports(monkeypatch, _NoRecord())
    assert _reports(monkeypatch, _NamesForgotten()) != general


def test_the_record_spares_the_raises(monkeypatch):
    kernel = kernel_of(UNBOUND, "const float* x, float* y, int n, int w")
    raised = [0]
    evaluate = sx.Expr.evaluate

    def counted(expr, env):
        try:
            return evaluate(expr, env)
        except sx.Unbound:
            raised[0] += 1
            raise

    monkeypatch.setattr(sx.Expr, "evaluate", counted)
    monkeypatch.setattr(sync, "UNBOUND_FAILURES", sync.UnboundFailures())
    sync.analyze(kernel, (256, 1, 1), {})
    first = raised[0]
    raised[0] = 0
    sync.analyze(kernel_of(UNBOUND, "const float* x, float* y, int n, int w"), (256, 1, 1), {})
    # a kernel built alike asks the record instead (loop bounds are evaluated elsewhere)
    assert raised[0] < first / 2


@pytest.mark.parametrize("limit", [1, 3])
def test_a_full_record_lets_the_oldest_go(monkeypatch, limit):
    monkeypatch.setattr(sync.UnboundFailures, "LIMIT", limit)
    record = sync.UnboundFailures()
    for key in range(10):
        record.add(key, frozenset({"n"}))
        record.add(key, frozenset({"n", "w"}))
    assert list(record) == list(range(10 - limit, 10))
    assert record[9] == {frozenset({"n"}), frozenset({"n", "w"})}

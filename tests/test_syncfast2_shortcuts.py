"""The sync executor's shortcuts answer as its general paths do. `UnboundFailures`, the record of
expressions that failed for want of names, kept by structure and shared by every analysis, gives
the reports that evaluating every expression afresh gives, whatever ran before it (a kernel built
alike, the same kernel with the names bound); a record that forgot which names were missing would
not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of
from test_syncfast_failures import unbound_raised

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
    first, second = unbound_raised(monkeypatch, [kernel_of(UNBOUND, "const float* x, float* y, int n, int w")
                                                 for _ in range(2)], grid=None)
    # a kernel built alike asks the record instead (loop bounds are evaluated elsewhere)
    assert second < first / 2


@pytest.mark.parametrize("limit", [1, 3])
def test_a_full_record_lets_the_oldest_go(monkeypatch, limit):
    monkeypatch.setattr(sync.UnboundFailures, "LIMIT", limit)
    record = sync.UnboundFailures()
    for key in range(10):
        record.add(key, frozenset({"n"}))
        record.add(key, frozenset({"n", "w"}))
    assert list(record) == list(range(10 - limit, 10))
    assert record[9] == {frozenset({"n"}), frozenset({"n", "w"})}


# ---- _unique: np.unique without its Python layers (and without importing numpy.ma)

def _arrays():
    rng = np.random.default_rng(22)
    yield np.array([], dtype=np.int64)
    yield np.array([5], dtype=np.int64)
    yield np.full(64, 7, dtype=np.int64)
    yield np.arange(100, dtype=np.int64)[::-1]
    for size in (2, 3, 31, 256, 1000):
        for high in (2, 40, 1 << 40):
            yield rng.integers(-high, high, size=size, dtype=np.int64)
    yield np.nonzero(rng.random((20, 20)) < 0.2)[0]     # (intp, as _compared_pairs passes)


def _broken_unique(values):
    """A broken variant: distinct values in the order they first occur."""
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


@pytest.mark.parametrize("unique", [sync._unique, pytest.param(_broken_unique, marks=pytest.mark.xfail(strict=True))])
def test_unique_is_np_unique(unique):
    for values in _arrays():
        kept = values.copy()
        found = unique(values)
        expected = np.unique(values)
        assert found.dtype == expected.dtype and np.array_equal(found, expected)
        assert np.array_equal(values, kept)      # (the input is not sorted in place)


def test_unique_answers_as_np_unique_on_the_analyses_arrays(monkeypatch):
    asked = []
    unique = sync._unique

    def compared(values):
        found = unique(values)
        expected = np.unique(values)
        asked.append(found.dtype == expected.dtype and np.array_equal(found, expected))
        return found

    monkeypatch.setattr(sync, "_unique", compared)
    for bindings, grid in SETTINGS:
        for kernel in _kernels():
            sync.analyze(kernel, (256, 1, 1), bindings, grid=grid)
    assert len(asked) > 50 and all(asked)


def test_the_sync_analysis_imports_no_numpy_ma():
    """(numpy 2 imports numpy.ma at np.unique's first call: about 47 M instructions of a fresh process)"""
    script = f"""
import sys
from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
for path in {FILES!r}:
    for kernel in parse_file(open(path).read(), path).kernels:
        for grid in (None, (3, 1, 1)):
            sync.analyze(kernel, (256, 1, 1), {{}}, grid=grid)
print("numpy.ma" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "False"


# ---- the blockIdx axes a kernel reads are asked only where blocks are compared

def test_block_axes_are_asked_only_where_blocks_are_compared(monkeypatch):
    asked = []
    axes_read = sync._block_axes_read

    def counted(kernel):
        asked.append(kernel)
        return axes_read(kernel)

    monkeypatch.setattr(sync, "_block_axes_read", counted)
    runs = []
    run = sync.BlockRun.run

    def noted(self):
        runs.append(self.block)
        return run(self)

    monkeypatch.setattr(sync.BlockRun, "run", noted)
    for kernel in _kernels():
        if not sync._has_synchronization(kernel):
            continue
        for grid, assumed in ((None, True), (None, False), ((3, 2, 1), False)):
            del asked[:], runs[:]
            sync.analyze(kernel, (256, 1, 1), {}, grid=grid, block_assumed=assumed)
            assert len(asked) == (0 if assumed else 1)
            if grid is None:
                # block 0, and its neighbours along the axes read where blocks are compared
                assert runs == ([(0, 0, 0)] if assumed else sync._blocks_without_grid(axes_read(kernel)))


def test_program_order_sorts_by_walk_position():
    for kernel in _kernels():
        events = sync.program_order(kernel)
        expected = sorted(events, key=lambda e: sync._walk_position(e.record))
        assert [id(e.record) for e in events] == [id(e.record) for e in expected]
        assert [sync._EVENT_POSITION(e) for e in events] == [sync._walk_position(e.record) for e in events]

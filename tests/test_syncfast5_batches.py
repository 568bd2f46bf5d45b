"""Batched loops' values (syncfast5): `batched_trips.repeated` views an array of the batch's shape,
or one contiguous row of integers or truths for every row, without `np.broadcast_to`'s Python
checks, and `counter_column` tells the usual lists of counter values (plain integers, rows of
int64) with C loops. These compare them with np.broadcast_to and with the value-by-value path, on
the values a batch meets and on the odd ones."""

from __future__ import annotations

import numpy as np
import pytest

from kernelscope.analyses.batched_trips import repeated


def _value(rng, shape: tuple):
    rows, size = shape
    kind = int(rng.integers(0, 9))
    dtype = [np.int64, bool, np.int32, np.float64, np.uint8][int(rng.integers(0, 5))]
    if kind == 0:
        value = rng.integers(0, 9, shape).astype(dtype)                 # already the batch's shape
    elif kind == 1:
        value = rng.integers(0, 9, size).astype(dtype)                  # one row for every row
    elif kind == 2:
        value = rng.integers(0, 9, (rows, 1)).astype(dtype)             # a column (the counter)
    elif kind == 3:
        value = rng.integers(0, 9, 2 * size).astype(dtype)[::2]         # a strided row
    elif kind == 4:
        value = np.broadcast_to(np.array(3, dtype=dtype), (size,))      # a row of stride 0
    elif kind == 5:
        value = np.array(int(rng.integers(0, 9)), dtype=dtype)          # 0-d
    elif kind == 6:
        value = int(rng.integers(0, 9))                                 # a plain scalar
    elif kind == 7:
        value = np.array([object()] * size, dtype=object)               # nothing numeric
    else:
        value = rng.integers(0, 9, size + 1).astype(dtype)              # does not fit
    if isinstance(value, np.ndarray) and value.flags.writeable and rng.random() < 0.3:
        value.flags.writeable = False
    return value


@pytest.mark.parametrize("seed", range(400))
def test_repeated_is_broadcast_to(seed):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 6)), int(rng.integers(1, 9)))
    value = _value(rng, shape)
    try:
        expected = np.broadcast_to(np.asarray(value), shape)
    except ValueError:
        with pytest.raises(ValueError):
            repeated(value, shape)
        return
    found = repeated(value, shape)
    assert type(found) is np.ndarray and found.shape == expected.shape and found.dtype == expected.dtype
    # the same memory layout (an axis of length 1 is never stepped along: its stride means nothing)
    assert [stride for stride, length in zip(found.strides, shape) if length > 1] == \
        [stride for stride, length in zip(expected.strides, shape) if length > 1]
    assert not found.flags.writeable
    assert np.array_equal(found, expected) if found.dtype != object else (found == expected).all()
    if isinstance(value, np.ndarray) and value.ndim and value.flags.writeable:
        value.reshape(-1)[0] = value.reshape(-1)[-1]      # a view: a change to the value shows in it
        assert np.array_equal(found, np.broadcast_to(value, shape)) if found.dtype != object else True


class _Row(np.ndarray):
    """An array subclass: the value-by-value path takes it, as it always did."""


def _counter_values(rng, size: int) -> list:
    count = int(rng.integers(0, 6))
    kind = int(rng.integers(0, 5))
    if kind == 0:
        limit = int(rng.choice([10, 1 << 31, 1 << 40]))
        return [int(v) for v in rng.integers(-limit, limit, count)]
    if kind == 1:
        batch = rng.integers(-50, 50, (count, size)).astype(np.int64)
        return list(batch)                                          # rows of one batch, as loops give them
    if kind == 2:
        return [rng.integers(0, 9, int(rng.choice([size, size + 1]))).astype(rng.choice([np.int64, np.int32]))
                for _ in range(count)]
    if kind == 3:
        return [int(rng.integers(0, 9)) if rng.random() < 0.5 else bool(rng.random() < 0.5) for _ in range(count)]
    return [np.arange(size, dtype=np.int64).view(_Row) if rng.random() < 0.5 else np.arange(size, dtype=np.int64)
            for _ in range(count)]


@pytest.mark.parametrize("seed", range(400))
def test_counter_column_matches_the_value_by_value_path(seed):
    from kernelscope.analyses import batched_trips

    rng = np.random.default_rng(2000 + seed)
    size = int(rng.integers(1, 6))
    values = _counter_values(rng, size)
    found, expected = batched_trips.counter_column(values, size), batched_trips._any_counter_column(values, size)
    if expected is None:
        assert found is None
    else:
        assert found.shape == expected.shape and found.dtype == expected.dtype and np.array_equal(found, expected)


# -- a batch's rows recorded without a `record_access` call each (RECORD_ROWS), their footprints out of
# the shared table (UNSHARED_ROWS) ----------------------------------------------------------------

from pathlib import Path  # noqa: E402

from kernelscope.analyses import sync  # noqa: E402
from kernelscope.frontend import parse_file  # noqa: E402
from kernel_bodies import kernel_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(p.relative_to(ROOT)) for pattern in ("examples/*.cu", "tests/kernels/sync/*.cu",
                                                         "tests/kernels/races/*.cu", "tests/kernels/realworld/*.cu")
               for p in ROOT.glob(pattern))


_CLOSE_INTERVAL = sync.BlockRun.close_interval


def _intervals_and_findings(monkeypatch) -> tuple:
    """Every interval each kernel's blocks close, as what its instances hold, and the findings
    (with a grid, so that global footprints are kept for comparing blocks)."""
    closed = []
    close = _CLOSE_INTERVAL

    def watched(self, barrier):
        closed.append([(instance.access.line, instance.access.column, instance.addresses.tolist()
                        if instance.addresses is not None else None, instance.mask.tolist(), instance.certain,
                        instance.epochs.tolist())
                       for instance in self.interval])
        closed.append(sorted((key, [(access.line, words.tolist()) for access, words in kept])
                             for key, kept in self.footprint.items()))
        return close(self, barrier)

    monkeypatch.setattr(sync.BlockRun, "close_interval", watched)
    findings = []
    kernels = [kernel_of(body) for body in BODIES]
    for path in FILES:
        kernels += parse_file((ROOT / path).read_text(), path).kernels
    for kernel in kernels:
        findings.append(sync.analyze(kernel, (128, 1, 1), {}, grid=(3, 1, 1)).to_json())
    return closed, findings


# loops whose accesses are recorded in every way: under a condition that loads (not certain; such a
# loop is walked, not batched), in global memory (kept for comparing blocks), shared, with a barrier,
# wide elements
BODIES = [
    """for (int k = 0; k < 16; ++k)
    if (x[k] > 0.0f) y[k * 128 + threadIdx.x] = 1.0f;""",
    """for (int k = 0; k < 16; ++k)
    y[blockIdx.x * 2048 + k * 128 + threadIdx.x] = x[k];""",
    """__shared__ double t[2048];
for (int k = 0; k < 16; ++k) {
    t[k * 128 + threadIdx.x] = x[k];
    __syncthreads();
    y[k] = t[(k * 128 + threadIdx.x + 1) % 2048];
}""",
    """for (int k = 0; k < 12; ++k)
    if (threadIdx.x < k * 8) y[(k & 3) * 128 + threadIdx.x / 2] += 1.0f;""",
]


def test_rows_recorded_directly_are_what_record_access_records(monkeypatch):
    recorded = []
    real = sync.BlockRun.row_recorder

    def counted(self, entry):
        recorder = real(self, entry)
        recorded.append(recorder is not None)
        return recorder

    monkeypatch.setattr(sync.BlockRun, "row_recorder", counted)
    fast = _intervals_and_findings(monkeypatch)
    assert any(recorded) and any(kept for kept in fast[0][1::2])      # the direct path ran, footprints kept
    monkeypatch.setattr(sync, "UNSHARED_ROWS", False)
    assert _intervals_and_findings(monkeypatch) == fast
    monkeypatch.setattr(sync, "RECORD_ROWS", False)
    assert _intervals_and_findings(monkeypatch) == fast

"""Two shortcuts of the sync executor against the general expressions they stand for, on the
project's kernels: an access under no unknown condition is certain without asking `_certain`, and an
interval closed with nothing screened (`BlockRun.unshared` empty) hands `races_within` the empty set
without building one per memory space."""

from __future__ import annotations

from pathlib import Path

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(p.relative_to(ROOT)) for pattern in ("examples/*.cu", "tests/kernels/races/*.cu",
                                                         "tests/kernels/sync/*.cu", "corpus/bitonic_sort/*.cu")
               for p in ROOT.glob(pattern))
# global accesses under an unbound size (unknown, certain) and under a loaded flag (unknown, not
# certain: a flag or a ticket may order them)
GUARDED = """
int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < n) y[i] = x[i];
if (x[0] > 0.0f) y[i + 1] = x[i];
__syncthreads();
if (i < n) y[i] = y[i + 1];"""
SETTINGS = [({}, None), ({"n": 300}, (2, 1, 1))]


def _kernels() -> list:
    kernels = [kernel_of(GUARDED)]
    for path in FILES:
        kernels.extend(parse_file((ROOT / path).read_text(), path).kernels)
    return kernels


def _analyse_all() -> None:
    for bindings, grid in SETTINGS:
        for kernel in _kernels():
            sync.analyze(kernel, (256, 1, 1), bindings, grid=grid)


def test_an_access_is_certain_as_certain_says(monkeypatch):
    """Every instance recorded is as certain as `_certain` of its unknown conditions."""
    seen = []
    record_access = sync.BlockRun.record_access
    instance = sync.Instance

    def recording(self, event, mask, unknown, addresses):
        seen.append([unknown, None])
        record_access(self, event, mask, unknown, addresses)

    def made(access, addresses, mask, epochs, certain=True, *args, **kwargs):
        seen[-1][1] = certain
        return instance(access, addresses, mask, epochs, certain, *args, **kwargs)

    monkeypatch.setattr(sync.BlockRun, "record_access", recording)
    monkeypatch.setattr(sync, "Instance", made)
    _analyse_all()
    checked = [(unknown, certain) for unknown, certain in seen if certain is not None]
    assert all(certain == sync._certain(unknown) for unknown, certain in checked)
    # (the kernels reach all three cases: no unknown condition, unknown ones that load nothing, a loaded flag)
    assert any(not unknown for unknown, _ in checked)
    assert any(unknown and certain for unknown, certain in checked)
    assert any(not certain for _, certain in checked)


def test_races_within_gets_the_screened_arrays_of_its_memory(monkeypatch):
    """`races_within` is asked with the arrays of its memory that the screen of the interval named
    (the general expression over `BlockRun.unshared`), whether or not the screen named any."""
    screened = []
    asked = []
    close_interval = sync.BlockRun.close_interval
    races_within = sync.races_within

    def closing(self, barrier):
        screened.append(self.unshared)
        close_interval(self, barrier)

    def asking(instances, space, memory="shared", recorded=(), unshared=frozenset()):
        asked.append((unshared, frozenset(array for where, array in screened[-1] if where == memory)))
        return races_within(instances, space, memory, recorded, unshared)

    monkeypatch.setattr(sync.BlockRun, "close_interval", closing)
    monkeypatch.setattr(sync, "races_within", asking)
    _analyse_all()
    assert all(given == expected for given, expected in asked)
    # (since syncfast12 an interval whose written arrays the screen all named asks no race check at
    # all: tests/test_syncfast12_screens.py compares that with the old close)
    assert any(screened) and any(not expected for _, expected in asked)

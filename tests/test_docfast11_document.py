"""The document's records skip the comprehensions of empty fields and remember their rounding
(kernelscope.analyses.rounding): each is compared here with the code it replaced, kept below, on the
project's kernels and on records made to have every field empty and every field filled. Equal means
the same keys in the same order and values of the same types, all the way down."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from kernelscope.analyses import intensity, memory, rounding
from kernelscope.analyses.sync import (AtomicContention, DivergentBarrier, MaskMismatch, ReturnBeforeBarrier,
                                       SharedRace, Site, SyncResult)
from kernelscope.analyze import _occupancy_json, analyze_path, analyze_source

ROOT = Path(__file__).parent.parent
FILES = sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("tests/kernels/*/*.cu"))


# ----------------------------------------------------------------------- the code that was replaced

def old_memory_round(value):
    if type(value) is float:
        return int(value) if value == int(value) else round(value, 4)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    value = float(value)
    return int(value) if value == int(value) else round(value, 4)


def old_intensity_round(value):
    if type(value) is float:
        if value == math.inf:
            return None
        return int(value) if value == int(value) else round(value, 4)
    if value is None:
        return None
    if value == math.inf:
        return None
    value = float(value)
    return int(value) if value == int(value) else round(value, 4)


def old_sync_json(self) -> dict:
    return {
        "barriers": self.barriers,
        "divergent_barriers": [d.to_json() for d in self.divergent_barriers],
        "shared_races": [r.to_json() for r in self.shared_races],
        "global_races": [r.to_json() for r in self.global_races],
        "returns_before_barrier": [r.to_json() for r in self.returns_before_barrier],
        "redundant_barriers": [s.to_json() for s in self.redundant_barriers],
        "mask_mismatches": [m.to_json() for m in self.mask_mismatches],
        "atomics": self.atomic_count,
        "atomic_details": {"in_loops": self.atomics_in_loops,
                           "same_address_contention": len(self.contention),
                           "contended": [c.to_json() for c in self.contention]},
        "threadfences": [s.to_json() for s in self.fences],
        "exact": self.exact,
        "notes": list(self.notes),
    }


def old_kernel_json(self) -> dict:
    k = self.kernel
    return {
        "name": k.name,
        "line": k.line,
        "column": k.column,
        "block": self.block.as_list(),
        "block_source": self.block_source,
        "grid": list(self.grid) if self.grid else None,
        "template_params": list(k.template_params),
        "template_instantiations": [list(t) for t in k.template_instantiations],
        "template_types": {name: {"type": bound, "source": source}
                           for name, (bound, source) in k.template_types.items()},
        "launch_bounds": list(k.launch_bounds),
        "extern_c": k.extern_c,
        "params": [{"name": p.name, "type": p.type_name, "pointer": p.is_pointer, "const": p.is_const,
                    "restrict": p.is_restrict, "elem_bytes": p.elem_bytes} for p in k.params],
        "accesses": [a.to_json() for a in self.memory.accesses],
        "occupancy": _occupancy_json(self.occupancy) if self.occupancy is not None else None,
        "intensity": self.intensity.to_json() if self.intensity is not None else None,
        "sync": old_sync_json(self.sync) if self.sync is not None else None,
        "divergence": {"divergent_branches": [b.to_json() for b in self.memory.branches
                                              if b.divergent is not False],
                       "branches": len(self.memory.branches)},
        "resources": self.resources.to_json() if self.resources is not None else None,
        "loops": [{"line": loop.line, "kind": loop.kind, "var": loop.var, "depth": loop.depth,
                   "unroll": loop.unrolled, "thread_dependent": loop.thread_dependent} for loop in k.loops],
        "shared_arrays": [{"name": s.name, "elem_bytes": s.elem_bytes, "dims": list(s.dims),
                           "dynamic": s.dynamic, "bytes": s.static_bytes} for s in k.shared_arrays],
        "launches": [launch.to_json() for launch in self.launches],
        **({"plan": self.plan} if self.plan is not None else {}),
    }


# --------------------------------------------------------------------------------------- comparing

def same(a, b) -> bool:
    """Equal, with the same types and (for dicts) the same key order, all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def test_same_tells_types_and_order_apart():
    assert not same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not same({"a": 1}, {"a": 1.0})
    assert not same([], {})
    assert same({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})


# a kernel launched with two block shapes: its report lists both (KernelResult.launches)
TWO_LAUNCHES = """
__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
void host(float *x, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, n);
    scale<<<(n + 127) / 128, 128>>>(x, n);
}
"""


@pytest.fixture(scope="module")
def kernels():
    found = [k for path in FILES for k in analyze_path(path, registers="estimate").kernels]
    found += analyze_source(TWO_LAUNCHES, "two_launches.cu", registers="estimate").kernels
    assert len(found) > 100
    return found


def test_the_projects_kernels_give_the_documents_they_gave(kernels, monkeypatch):
    documents = [kernel.to_json() for kernel in kernels]
    # the accesses', branches' and intensity's to_json changed only in their rounding: the old
    # document is theirs with the old rounding
    monkeypatch.setattr(memory, "_round", old_memory_round)
    monkeypatch.setattr(intensity, "_round", old_intensity_round)
    for kernel, document in zip(kernels, documents):
        assert same(document, old_kernel_json(kernel)), kernel.kernel.name


def test_the_projects_kernels_fill_the_fields_whose_comprehensions_are_skipped(kernels):
    # the comparison above covers both sides of each `if x else []` only if these hold
    k = [r.kernel for r in kernels]
    assert any(x.template_instantiations for x in k) and any(not x.template_instantiations for x in k)
    assert any(x.template_types for x in k) and any(not x.template_types for x in k)
    assert any(x.loops for x in k) and any(not x.loops for x in k)
    assert any(x.shared_arrays for x in k) and any(not x.shared_arrays for x in k)
    assert any(r.memory.branches for r in kernels) and any(not r.memory.branches for r in kernels)
    assert any(r.memory.accesses for r in kernels) and any(not r.memory.accesses for r in kernels)
    assert any(r.launches for r in kernels) and any(not r.launches for r in kernels)
    syncs = [r.sync for r in kernels if r.sync is not None]
    assert any(s.shared_races for s in syncs) and any(s.redundant_barriers for s in syncs)
    assert any(type(r.intensity.arithmetic_intensity) is np.float64 for r in kernels)


def every_sync_field_filled() -> SyncResult:
    site = Site("s", 3, 4)
    return SyncResult(
        barriers=2,
        divergent_barriers=(DivergentBarrier(1, 2, "tid"),),
        shared_races=(SharedRace("a", "RAW", 1, 2, 3, 4, "block", "race"),
                      SharedRace("b", "WAW", 5, 6, 7, 8, "warp", "race 2", True)),
        global_races=(SharedRace("g", "WAR", 1, 2, 3, 4, "grid", "global race"),),
        returns_before_barrier=(ReturnBeforeBarrier(1, 2, 9, "return"),),
        redundant_barriers=(site, Site("t", 5, 6)),
        mask_mismatches=(MaskMismatch("__shfl_sync", 1, 2, "mask"),),
        atomic_count=3, atomics_in_loops=1,
        contention=(AtomicContention("h", 1, 2, 32, True),),
        fences=(site,), exact=False, notes=("a note", "another"))


@pytest.mark.parametrize("result", [SyncResult(0), SyncResult(1, notes=("n",)), every_sync_field_filled()],
                         ids=["empty", "notes only", "every field"])
def test_sync_results_with_empty_and_filled_fields(result):
    assert same(result.to_json(), old_sync_json(result))


VALUES = [None, 0.0, -0.0, 1.0, 32.0, 2.5, 1.03125, 1 / 3, -1 / 3, 1e-9, 123456.789012, 1e20, 2.0 ** 60,
          np.float64(1 / 3), np.float64(4.0), np.float64(0.0), np.float32(0.1), np.float32(8.0),
          np.int64(7), 7, 0, True, 3.00004999, 3.00005001]


@pytest.mark.parametrize("new, old", [(memory._round, old_memory_round), (intensity._round, old_intensity_round)],
                         ids=["memory", "intensity"])
def test_rounding_remembered_is_rounding_done(new, old):
    rounding.ROUNDED.clear()
    for _ in range(3):              # the first pass fills ROUNDED, the others read it
        for value in VALUES:
            assert same(new(value), old(value)), value
    assert rounding.ROUNDED


def test_intensity_infinity_is_none_and_memory_nan_still_raises():
    assert intensity._round(math.inf) is None and intensity._round(np.float64(math.inf)) is None
    for _ in range(2):
        with pytest.raises(ValueError):
            memory._round(math.nan)
        with pytest.raises(OverflowError):
            memory._round(math.inf)
    assert all(not math.isnan(key) and not math.isinf(key) for key in rounding.ROUNDED)


def test_what_is_remembered_stays_bounded(monkeypatch):
    monkeypatch.setattr(rounding, "MOST_REMEMBERED", 8)
    rounding.ROUNDED.clear()
    for i in range(100):
        value = i + 0.123456
        assert same(memory._round(value), old_memory_round(value))
        assert len(rounding.ROUNDED) <= 8
    assert same(memory._round(5.123456), round(5.123456, 4))


def test_keys_are_floats_only():
    # an int key equal to a float (1 == 1.0) would answer 1.0's rounding for it; ints never go in
    rounding.ROUNDED.clear()
    for value in VALUES:
        if value is not None:
            memory._round(value)
            intensity._round(value)
    assert all(type(key) is float for key in rounding.ROUNDED)

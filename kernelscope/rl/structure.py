"""Structural scores in [0, 1] from one kernel's static analysis (the kernelscope.analysis/1 shape).

Each score answers "how close is this kernel to what the hardware rewards", so that a reward can credit
structure before (or without) a measurement:
- coalescing: of the 32-byte sectors a warp's global requests touch, the share it needed;
- shared_banks: 1 / the bank-conflict degree of shared accesses;
- occupancy: theoretical occupancy;
- intensity: arithmetic intensity on a log scale up to the ridge point of the GPU;
- sync: 1 without divergent barriers or shared-memory races, falling with each one found.
Accesses are weighted by how often a thread executes them (`exec_weight`), so a loop body counts more
than a prologue.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from kernelscope import profiles_db

# The analyses' default architecture: its reference GPU's ridge point scores kernels whose analysis
# names none (an H200 for sm_90: 67 TFLOP/s FP32 over 4.8 TB/s, about 14 FLOP per byte).
DEFAULT_ARCH = "sm_90"
# Used for accesses whose pattern the analysis could not decide: neither credited nor condemned fully.
UNKNOWN_EFFICIENCY = 0.5
STRUCTURE_KEYS = ("coalescing", "shared_banks", "occupancy", "intensity", "sync")


@dataclass(frozen=True)
class StructureScores:
    coalescing: float = 1.0
    shared_banks: float = 1.0
    occupancy: float = 0.5
    intensity: float = 0.0
    sync: float = 1.0
    global_loads: int = 0
    global_stores: int = 0

    def as_dict(self) -> dict[str, float]:
        return {key: getattr(self, key) for key in STRUCTURE_KEYS}


def _weight(access: dict) -> float:
    weight = access.get("exec_weight")
    return float(weight) if isinstance(weight, (int, float)) and weight > 0 else 1.0


def _sector_efficiency(access: dict) -> float:
    sectors = access.get("sectors_per_request")
    if not isinstance(sectors, (int, float)) or sectors <= 0:
        return UNKNOWN_EFFICIENCY
    return min(1.0, ideal_sectors(access) / float(sectors))


def ideal_sectors(access: dict) -> float:
    """Sectors the request needs: the analyzer's figure when it gives one (it knows the active lanes),
    else a full warp of `elem_bytes` each, 32 * elem_bytes / 32."""
    ideal = access.get("ideal_sectors_per_request")
    if isinstance(ideal, (int, float)) and ideal > 0:
        return float(ideal)
    return max(1.0, float(access.get("elem_bytes") or 4))


def _weighted_mean(pairs) -> float | None:
    total = sum(w for _, w in pairs)
    return None if total == 0 else sum(v * w for v, w in pairs) / total


def score_kernel(kernel: dict) -> StructureScores:
    accesses = kernel.get("accesses", [])
    global_accesses = [a for a in accesses if a.get("space") == "global"]
    shared_accesses = [a for a in accesses if a.get("space") == "shared"]
    coalescing = _weighted_mean([(_sector_efficiency(a), _weight(a)) for a in global_accesses])
    banks = _weighted_mean([(1.0 / max(1.0, float(a.get("bank_ways") or 1)), _weight(a))
                            for a in shared_accesses])
    occupancy = (kernel.get("occupancy") or {}).get("theoretical_occupancy")
    intensity = (kernel.get("intensity") or {}).get("arithmetic_intensity")
    sync = kernel.get("sync") or {}
    hazards = len(sync.get("divergent_barriers") or []) + len(sync.get("shared_races") or [])
    return StructureScores(
        coalescing=1.0 if coalescing is None else coalescing,
        shared_banks=1.0 if banks is None else banks,
        occupancy=float(occupancy) if isinstance(occupancy, (int, float)) else 0.5,
        intensity=_intensity_score(intensity, (kernel.get("intensity") or {}).get("ridge_point")),
        sync=max(0.0, 1.0 - 0.5 * hazards),
        global_loads=sum(1 for a in global_accesses if a.get("op") == "load"),
        global_stores=sum(1 for a in global_accesses if a.get("op") in ("store", "atomic")),
    )


def _intensity_score(intensity, ridge_point=None) -> float:
    """log(1 + intensity) over log(1 + ridge point): 1 from where the kernel turns compute-bound on the
    GPU its analysis assumed (profiles/gpus.json)."""
    if not isinstance(intensity, (int, float)) or intensity <= 0 or math.isnan(intensity):
        return 0.0
    if math.isinf(intensity):
        return 1.0
    if not isinstance(ridge_point, (int, float)) or not ridge_point > 0:
        ridge_point = default_ridge_point()
    return min(1.0, math.log1p(intensity) / math.log1p(ridge_point))


@functools.lru_cache(maxsize=None)
def default_ridge_point() -> float:
    """FLOP per byte where the default architecture's reference GPU turns compute-bound in FP32."""
    gpu = profiles_db.reference_gpu(DEFAULT_ARCH)
    return gpu.peak_flops("fp32") / gpu.memory_bandwidth_bytes


def kernel_named(analysis: dict, name: str | None) -> dict | None:
    """The kernel called `name` in a file's analysis, or None."""
    return next((k for k in analysis.get("kernels", []) if k.get("name") == name), None)


def pick_kernel(analysis: dict, name: str | None) -> dict | None:
    """The kernel called `name` in a file's analysis, else the only/first one."""
    named = kernel_named(analysis, name)
    if named is not None:
        return named
    kernels = analysis.get("kernels", [])
    return kernels[0] if kernels else None

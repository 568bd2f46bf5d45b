"""Architecture and GPU profiles shipped in `profiles/` (see profiles/README.md for the sources).

`arch("sm_90")` gives the per-SM resource limits the occupancy calculation needs; `gpu("H200")` gives
the SM count, clocks, peak rates and bandwidth of a named part for the roofline.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from functools import lru_cache
from typing import Optional

from kernelscope.errors import UsageError
from kernelscope.paths import profile_file
from kernelscope.records import record


@record(frozen=True)
class ArchProfile:
    cc: str                                  # "9.0"
    family: str
    warp_size: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_block: int
    max_registers_per_thread: int
    register_allocation_unit: int            # registers granted per warp in multiples of this
    sub_partitions: int                      # warp schedulers that each own a quarter of the registers
    shared_memory_per_sm: int
    max_shared_memory_per_block: int         # without opting in
    max_shared_memory_per_block_optin: int
    reserved_shared_memory_per_block: int    # the driver's own share of every block (1 KB from cc 8.0)
    shared_memory_allocation_unit: int
    carveouts_kb: tuple
    max_barriers_per_block: int
    barriers_per_sm_per_block_slot: int

    @property
    def major(self) -> int:
        return int(self.cc.split(".")[0])

    @property
    def minor(self) -> int:
        return int(self.cc.split(".")[1])

    @property
    def sm(self) -> str:
        """The nvcc spelling: "sm_90", "sm_100"."""
        return f"sm_{self.major}{self.minor}"

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["carveouts_kb"] = list(self.carveouts_kb)
        out["sm"] = self.sm
        return out


@record(frozen=True)
class GpuProfile:
    name: str
    aliases: tuple
    cc: str
    sm_count: int
    fp32_lanes_per_sm: int
    boost_clock_mhz: int
    memory_gb: float
    memory_type: str
    memory_bandwidth_gbs: float
    l2_cache_mb: Optional[float]
    peak_tflops: dict                        # precision -> dense TFLOP/s (None where unpublished)
    source: str

    @property
    def arch(self) -> ArchProfile:
        return arch(self.cc)

    def peak_flops(self, precision: str = "fp32") -> Optional[float]:
        """Peak rate in FLOP/s for a key of `peak_tflops` ("fp32", "fp16_tensor", ...)."""
        tflops = self.peak_tflops.get(precision)
        return None if tflops is None else tflops * 1e12

    @property
    def memory_bandwidth_bytes(self) -> float:
        return self.memory_bandwidth_gbs * 1e9

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["aliases"] = list(self.aliases)
        return out


def _normalise_cc(name_or_cc) -> str:
    """Accept "sm_90", "sm90", "compute_90", "90", "9.0", 9.0, 90, "sm_100a" and return "9.0" / "10.0"."""
    text = str(name_or_cc).strip().lower()
    dotted = re.fullmatch(r"(\d+)\.(\d)", text)
    if dotted:
        return f"{int(dotted.group(1))}.{dotted.group(2)}"
    compact = re.fullmatch(r"(?:sm_?|compute_?)?(\d{2,3})[af]?", text)
    if compact:
        digits = compact.group(1)
        return f"{int(digits[:-1])}.{digits[-1]}"
    raise UsageError(f"unknown architecture {name_or_cc!r} (expected e.g. sm_90, 90 or 9.0)")


@lru_cache(maxsize=None)
def _architectures() -> dict:
    document = json.loads(profile_file("architectures.json").read_text())
    table = {}
    for entry in document["architectures"]:
        entry = dict(entry, carveouts_kb=tuple(entry["carveouts_kb"]))
        table[entry["cc"]] = ArchProfile(**entry)
    return table


@lru_cache(maxsize=None)
def _gpus_document() -> dict:
    return json.loads(profile_file("gpus.json").read_text())


@lru_cache(maxsize=None)
def _gpus() -> dict:
    document = _gpus_document()
    table = {}
    for entry in document["gpus"]:
        profile = GpuProfile(**dict(entry, aliases=tuple(entry["aliases"])))
        for key in (profile.name, *profile.aliases):
            table[_gpu_key(key)] = profile
    return table


def _gpu_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def arch(name_or_cc) -> ArchProfile:
    """Profile of a compute capability given as "sm_90", "90" or "9.0"."""
    if isinstance(name_or_cc, ArchProfile):
        return name_or_cc
    cc = _normalise_cc(name_or_cc)
    try:
        return _architectures()[cc]
    except KeyError:
        known = ", ".join(list_archs())
        raise UsageError(f"no profile for compute capability {cc} (known: {known})") from None


def gpu(name: str) -> GpuProfile:
    """Profile of a named GPU ("H200", "A100", "RTX 4090"); matching ignores case, spaces and dashes."""
    try:
        return _gpus()[_gpu_key(name)]
    except KeyError:
        known = ", ".join(list_gpus())
        raise UsageError(f"no profile for GPU {name!r} (known: {known})") from None


def reference_gpu(arch_name) -> Optional[GpuProfile]:
    """The GPU whose roofline stands for an architecture ("sm_90" -> H200): the one gpus.json names in
    "reference_gpus", else the first GPU of that compute capability by name; None when the
    architecture is unknown or no GPU of it is listed."""
    try:
        cc = arch(arch_name).cc
    except UsageError:
        return None
    named = _reference_names().get(cc)
    if named:
        return gpu(named)
    return next((gpu(name) for name in list_gpus() if gpu(name).cc == cc), None)


@lru_cache(maxsize=None)
def _reference_names() -> dict:
    return dict(_gpus_document().get("reference_gpus", {}))


def list_archs() -> list[str]:
    """Known architectures in nvcc spelling, oldest first."""
    ordered = sorted(_architectures().values(), key=lambda a: (a.major, a.minor))
    return [a.sm for a in ordered]


def list_gpus() -> list[str]:
    return sorted({profile.name for profile in _gpus().values()})

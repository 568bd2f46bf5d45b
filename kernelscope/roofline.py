"""Roofline points: static (from the analysis) and measured (from runner/ncu measurements)."""

from __future__ import annotations

import csv
from dataclasses import dataclass


@dataclass(frozen=True)
class RooflinePoint:
    label: str
    intensity: float          # FLOP per byte
    flops_per_second: float   # achieved (measured) or attainable (static)
    kind: str                 # static | measured


def static_points(results, gpu) -> list[RooflinePoint]:
    """One point per kernel at its arithmetic intensity, on the roof it can at best reach."""
    return static_placement(results, gpu)[0]


def static_placement(results, gpu) -> tuple[list[RooflinePoint], list[tuple[str, str]]]:
    """(points, left out): the kernels a static roofline can place, and (kernel, why) for the others,
    so that a chart can say which kernels it does not show instead of dropping them silently."""
    points, left_out = [], []
    for file_result in results:
        for kernel in file_result.kernels:
            name = kernel.kernel.name
            intensity = kernel.intensity
            reason = _unplaceable(intensity, kernel)
            if reason:
                left_out.append((name, reason))
                continue
            peak = gpu.peak_flops(intensity.dominant_precision) or gpu.peak_flops("fp32")
            attainable = min(peak, intensity.arithmetic_intensity * gpu.memory_bandwidth_bytes)
            points.append(RooflinePoint(name, intensity.arithmetic_intensity, attainable, "static"))
    return points, left_out


def _unplaceable(intensity, result) -> str | None:
    if intensity is None:
        return "no intensity analysis"
    value = intensity.arithmetic_intensity
    if value is None:
        from kernelscope.report.readable import intensity_view, launch_values

        hint = intensity_view(intensity, result.kernel, launch_values(result)).hint or "--arg"
        return f"its FLOPs or bytes depend on sizes not given; bind {hint}"
    if value == float("inf"):
        return "no global memory traffic, so no finite intensity"
    if value == 0:
        return "no floating-point work; 0 FLOP/B has no place on a log axis"
    return None


def measured_points(path: str) -> list[RooflinePoint]:
    """Points from a measurements CSV with a kernel column, FLOPs (`flops`, or `flops_fp32` /
    `flops_fp64` / `flops_fp16`), DRAM bytes (`dram_bytes`, or `dram_read_bytes` + `dram_write_bytes`)
    and a duration (`duration_ns` or `time_ms`). Rows without FLOPs or bytes are skipped."""
    points = []
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            flops = _sum(row, ("flops",)) or _sum(row, ("flops_fp32", "flops_fp64", "flops_fp16"))
            moved = _sum(row, ("dram_bytes",)) or _sum(row, ("dram_read_bytes", "dram_write_bytes"))
            seconds = (_sum(row, ("duration_ns",)) or 0) * 1e-9 or (_sum(row, ("time_ms",)) or 0) * 1e-3
            if not flops or not moved or not seconds:
                continue
            label = row.get("kernel") or row.get("implementation") or "?"
            points.append(RooflinePoint(label, flops / moved, flops / seconds, "measured"))
    return points


def _sum(row: dict, keys) -> float | None:
    total = None
    for key in keys:
        value = row.get(key)
        if value not in (None, ""):
            try:
                total = (total or 0.0) + float(value)
            except ValueError:
                continue
    return total

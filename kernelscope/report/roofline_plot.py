"""Draws a roofline chart (matplotlib, an extra: `pip install 'kernelscope[plot]'`)."""

from __future__ import annotations

import math

from kernelscope.errors import ToolMissingError

CEILING_PRECISIONS = (("fp64", "FP64"), ("fp32", "FP32"), ("fp16_tensor", "FP16 tensor"))


def draw(points, gpu, output: str, title: str | None = None) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ToolMissingError("the roofline chart needs matplotlib: pip install 'kernelscope[plot]'") from None
    bandwidth = gpu.memory_bandwidth_bytes
    intensities = [p.intensity for p in points] or [1.0]
    low = 10 ** math.floor(math.log10(max(min(intensities), 1e-3)) - 1)
    high = 10 ** math.ceil(math.log10(max(max(intensities), 10)) + 1)
    figure, axes = plt.subplots(figsize=(8, 5.5), dpi=120)
    xs = [low * (high / low) ** (k / 200) for k in range(201)]
    for key, label in CEILING_PRECISIONS:
        peak = gpu.peak_flops(key)
        if not peak:
            continue
        axes.plot(xs, [min(peak, x * bandwidth) for x in xs], linewidth=1.6,
                  label=f"{label} roof {peak / 1e12:.0f} TFLOP/s")
    axes.plot([], [], " ", label=f"memory {bandwidth / 1e12:.1f} TB/s")
    for kind, marker, colour in (("static", "o", "tab:blue"), ("measured", "x", "tab:red")):
        chosen = [p for p in points if p.kind == kind]
        if not chosen:
            continue
        axes.scatter([p.intensity for p in chosen], [p.flops_per_second for p in chosen], marker=marker,
                     color=colour, s=30, zorder=3, label=f"{kind} ({len(chosen)} kernels)")
        for point in chosen[:15]:
            axes.annotate(point.label, (point.intensity, point.flops_per_second), fontsize=6,
                          xytext=(3, 3), textcoords="offset points")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_xlabel("arithmetic intensity (FLOP / byte of DRAM traffic)")
    axes.set_ylabel("FLOP/s")
    axes.set_title(title or f"Roofline on {gpu.name}")
    axes.grid(True, which="both", linewidth=0.3, alpha=0.6)
    axes.legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(output)
    plt.close(figure)

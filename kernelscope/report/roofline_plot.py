"""Draws a roofline chart (matplotlib, an extra: `pip install 'kernelscope[plot]'`).

Labels are placed like the HTML report's (`svg_charts.place_label`): around each point, in the
first spot that overlaps no other label or point, so that close kernels stay readable."""

from __future__ import annotations

import math
import textwrap

from kernelscope.errors import ToolMissingError
from kernelscope.report.svg_charts import CEILINGS, MEMORY_COLOUR, ROOF_COLOURS, merge_coincident, place_label

LABEL_POINTS = 7


def check_plotting() -> None:
    """Fail at once, before any analysis, where matplotlib is missing."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise ToolMissingError("the roofline chart needs matplotlib: pip install 'kernelscope[plot]'")


def draw(points, gpu, output: str, title: str | None = None, left_out=()) -> None:
    """`left_out`: (kernel, reason) pairs, listed under the chart."""
    check_plotting()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bandwidth = gpu.memory_bandwidth_bytes
    ceilings = [(key, name, gpu.peak_flops(key)) for key, name in CEILINGS if gpu.peak_flops(key)]
    top_peak = max(peak for _, _, peak in ceilings)
    intensities = [p.intensity for p in points] + [top_peak / bandwidth]
    low = 10 ** math.floor(math.log10(max(min(intensities), 1e-4)) - 0.5)
    high = 10 ** math.ceil(math.log10(max(intensities)) + 0.5)
    note = _left_out_note(left_out)
    figure, axes = plt.subplots(figsize=(9, 5.8 + 0.18 * note.count("\n")), dpi=120)
    axes.plot([low, top_peak / bandwidth], [low * bandwidth, top_peak], color=MEMORY_COLOUR, linewidth=1.8,
              label=f"memory roof {bandwidth / 1e12:.2g} TB/s")
    for key, name, peak in ceilings:
        axes.plot([peak / bandwidth, high], [peak, peak], color=ROOF_COLOURS.get(key, "0.4"), linewidth=1.8,
                  label=f"{name} peak {peak / 1e12:.0f} TFLOP/s")
    styles = {"static": ("o", "tab:red", "static: attainable at the requested bytes"),
              "measured": ("x", "black", "measured: achieved, DRAM bytes")}
    for kind, (marker, colour, label) in styles.items():
        chosen = [p for p in points if p.kind == kind]
        if chosen:
            axes.scatter([p.intensity for p in chosen], [p.flops_per_second for p in chosen], marker=marker,
                         color=colour, s=28, zorder=3, label=f"{label} ({len(chosen)})")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(min([low * bandwidth] + [p.flops_per_second for p in points]) / 3, top_peak * 4)
    axes.set_xlabel("arithmetic intensity (FLOP per byte: requested global bytes for static points, "
                    "DRAM bytes for measured)", fontsize=8.5)
    axes.set_ylabel("FLOP/s")
    axes.set_title(title or f"Roofline on {gpu.name}")
    axes.grid(True, which="major", linewidth=0.3, alpha=0.6)
    axes.legend(fontsize=7, loc="upper left")
    if note:
        figure.text(0.01, 0.01, note, fontsize=6.5, color="0.35", va="bottom", family="monospace")
    figure.tight_layout(rect=(0, 0.03 + 0.025 * (note.count("\n") + 1) if note else 0, 1, 1))
    _label_points(figure, axes, points)
    figure.savefig(output)
    plt.close(figure)


def _label_points(figure, axes, points) -> None:
    """Labels in pixel space (y down, as place_label expects), converted back to offsets in points."""
    figure.canvas.draw()
    height = figure.bbox.height
    x0, y0, x1, y1 = axes.get_window_extent().extents
    bounds = (x0, height - y1, x1, height - y0)
    merged = merge_coincident([(p.label, p.intensity, p.flops_per_second, p.kind) for p in points])
    pixels = [(label, *axes.transData.transform((x, y))) for label, x, y, _ in merged]
    taken = [(px - 5, height - py - 5, px + 5, height - py + 5) for _, px, py in pixels]
    scale = 72 / figure.dpi
    for (label, px, py), (_, x, y, _) in zip(pixels, merged):
        sy = height - py
        lx, ly, box = place_label(label, px, sy, taken, bounds, char_width=LABEL_POINTS / scale * 0.62)
        taken.append(box)
        far = math.hypot(lx - px, ly - sy) > 22
        axes.annotate(label, (x, y), xytext=((lx - px) * scale, (sy - ly) * scale), textcoords="offset points",
                      fontsize=LABEL_POINTS, family="monospace",
                      arrowprops={"arrowstyle": "-", "color": "0.6", "linewidth": 0.6} if far else None)


def _left_out_note(left_out) -> str:
    if not left_out:
        return ""
    text = "not plotted: " + "; ".join(f"{name} ({reason})" for name, reason in left_out)
    lines = textwrap.wrap(text, 150)
    if len(lines) > 4:
        lines = lines[:4] + [f"... and more ({len(left_out)} kernels in all; `kernelscope analyze` says why)"]
    return "\n".join(lines)

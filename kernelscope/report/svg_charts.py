"""Charts as inline SVG text (no matplotlib, no network): the occupancy sweep of one kernel and a
roofline of many. Used by the HTML report; sizes are in CSS pixels.

Roofline labels are placed here with estimated text widths, trying positions around each point
and keeping the first that collides with no other label or point; the page's script then measures
the real text and moves any label that still overlaps."""

from __future__ import annotations

import math
from html import escape

from kernelscope.report.readable import number

CEILINGS = (("fp64", "FP64"), ("fp32", "FP32"), ("fp16_tensor", "FP16 tensor"))
ROOF_COLOURS = {"fp64": "#7b3294", "fp32": "#1b7837", "fp16_tensor": "#b35806"}
MEMORY_COLOUR = "#2166ac"
CHAR_WIDTH = 6.7          # 11 px monospace
LABEL_HEIGHT = 13


def _svg(width: int, height: int, body: list[str], label: str, css_class: str) -> str:
    return (f'<svg class="{css_class}" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">' + "".join(body) + "</svg>")


# ---------------------------------------------------------------------------------------------------
# Occupancy sweep


def occupancy_sweep(occupancy, advised: int | None = None) -> str:
    """Theoretical occupancy against threads per block, the block in use and the advised one marked."""
    width, height = 380, 200
    left, right, top, bottom = 46, 12, 14, 38
    plot_w, plot_h = width - left - right, height - top - bottom
    sweep = list(occupancy.sweep)
    low, high = min(p.block_size for p in sweep), max(p.block_size for p in sweep)

    def x(size):
        return left + (size - low) / max(1, high - low) * plot_w

    def y(fraction):
        return top + (1 - fraction) * plot_h

    body = [f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" class="plot"/>']
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(fraction):.1f}" y2="{y(fraction):.1f}" class="grid"/>'
                    f'<text x="{left - 5}" y="{y(fraction) + 4:.1f}" class="tick" text-anchor="end">{fraction:.0%}</text>')
    for size in (32, 256, 512, 768, 1024):
        if low <= size <= high:
            body.append(f'<text x="{x(size):.1f}" y="{top + plot_h + 14}" class="tick" text-anchor="middle">{size}</text>')
    path = " ".join(f"{x(p.block_size):.1f},{y(p.theoretical_occupancy):.1f}" for p in sweep)
    body.append(f'<polyline points="{path}" class="sweep"/>')
    current = occupancy.block_size
    if low <= current <= high:
        body.append(f'<circle cx="{x(current):.1f}" cy="{y(occupancy.theoretical_occupancy):.1f}" r="5" class="current">'
                    f'<title>block in use: {current} threads, {occupancy.theoretical_occupancy:.0%}</title></circle>')
    if advised and advised != current:
        point = next((p for p in sweep if p.block_size == advised), None)
        if point is not None:
            body.append(f'<circle cx="{x(advised):.1f}" cy="{y(point.theoretical_occupancy):.1f}" r="5" class="advised">'
                        f'<title>advised: {advised} threads, {point.theoretical_occupancy:.0%}</title></circle>')
    body.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" class="axis" text-anchor="middle">'
                f'threads per block (filled: in use; ring: advised)</text>')
    body.append(f'<text x="12" y="{top + plot_h / 2:.1f}" class="axis" text-anchor="middle" '
                f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">occupancy</text>')
    return _svg(width, height, body, f"occupancy sweep on {occupancy.arch}", "chart sweep-chart")


# ---------------------------------------------------------------------------------------------------
# Roofline


def roofline(points, gpu) -> str:
    """`points`: (label, intensity, attainable FLOP/s, exact) with intensity in FLOP per requested
    global byte. Inexact points (the limit for large sizes) are drawn hollow."""
    width, height = 900, 460
    left, top, bottom = 74, 16, 48
    legend_w = 230
    plot_w, plot_h = width - left - legend_w - 16, height - top - bottom
    bandwidth = gpu.memory_bandwidth_bytes
    ceilings = [(key, name, gpu.peak_flops(key)) for key, name in CEILINGS if gpu.peak_flops(key)]
    peaks = [peak for _, _, peak in ceilings]
    intensities = [p[1] for p in points] + [peak / bandwidth for peak in peaks]
    x_lo = 10 ** math.floor(math.log10(min(intensities)) - 0.3)
    x_hi = 10 ** math.ceil(math.log10(max(intensities)) + 0.3)
    y_values = [p[2] for p in points] + peaks + [x_lo * bandwidth]
    y_lo = 10 ** math.floor(math.log10(min(y_values)))
    y_hi = 10 ** math.ceil(math.log10(max(y_values)) + 0.1)

    def x(value):
        return left + (math.log10(value) - math.log10(x_lo)) / (math.log10(x_hi) - math.log10(x_lo)) * plot_w

    def y(value):
        return top + (1 - (math.log10(value) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo))) * plot_h

    body = [f'<defs><clipPath id="plot-area"><rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}"/></clipPath></defs>',
            f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" class="plot"/>']
    for exponent in range(round(math.log10(x_lo)), round(math.log10(x_hi)) + 1):
        value = 10.0 ** exponent
        body.append(f'<line x1="{x(value):.1f}" x2="{x(value):.1f}" y1="{top}" y2="{top + plot_h}" class="grid"/>'
                    f'<text x="{x(value):.1f}" y="{top + plot_h + 15}" class="tick" text-anchor="middle">{_decade(value)}</text>')
    for exponent in range(round(math.log10(y_lo)), round(math.log10(y_hi)) + 1):
        value = 10.0 ** exponent
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" class="grid"/>'
                    f'<text x="{left - 6}" y="{y(value) + 4:.1f}" class="tick" text-anchor="end">{_flops(value)}</text>')
    # the memory roof: attainable = intensity x bandwidth, up to the highest compute ceiling
    top_peak = max(peaks)
    body.append(f'<line x1="{x(x_lo):.1f}" y1="{y(x_lo * bandwidth):.1f}" x2="{x(top_peak / bandwidth):.1f}" '
                f'y2="{y(top_peak):.1f}" stroke="{MEMORY_COLOUR}" class="roof" clip-path="url(#plot-area)"/>')
    for key, _, peak in ceilings:
        body.append(f'<line x1="{x(peak / bandwidth):.1f}" y1="{y(peak):.1f}" x2="{x(x_hi):.1f}" y2="{y(peak):.1f}" '
                    f'stroke="{ROOF_COLOURS.get(key, "#555")}" class="roof"/>')
    placed: list[tuple] = _roof_obstacles(x, y, x_lo, x_hi, bandwidth, peaks)
    markers = []
    # hollow (large-size limit) rings first and a little larger, so that an exact point at the same
    # spot stays visible inside the ring
    for label, intensity, attainable, exact in sorted(points, key=lambda p: p[3]):
        px, py = x(intensity), y(attainable)
        placed.append((px - 5, py - 5, px + 5, py + 5))
        fill = "#d6604d" if exact else "white"
        radius = 4.5 if exact else 6.5
        markers.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{radius}" fill="{fill}" stroke="#b2182b" stroke-width="1.5">'
                       f'<title>{escape(label)}: {number(intensity)} FLOP/B, {_flops(attainable)}FLOP/s '
                       f'{"attainable" if exact else "attainable for large sizes"}</title></circle>')
    labels = []
    bounds = (left, top, left + plot_w, top + plot_h)
    for label, intensity, attainable, _ in sorted(points, key=lambda p: (-p[2], p[1])):
        px, py = x(intensity), y(attainable)
        lx, ly, box = place_label(label, px, py, placed, bounds)
        placed.append(box)
        if math.hypot(lx - px, ly - py) > 22:
            # to the nearest point of the label's box, so that the line does not cross the text
            ex, ey = min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3])
            labels.append(f'<line x1="{px:.1f}" y1="{py:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" class="leader"/>')
        labels.append(f'<text x="{lx:.1f}" y="{ly:.1f}" class="point-label" data-px="{px:.1f}" data-py="{py:.1f}">'
                      f'{escape(label)}</text>')
    body += labels + markers
    body.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" class="axis" text-anchor="middle">'
                'arithmetic intensity (FLOP per requested global byte, from the source; not DRAM traffic)</text>')
    body.append(f'<text x="16" y="{top + plot_h / 2:.1f}" class="axis" text-anchor="middle" '
                f'transform="rotate(-90 16 {top + plot_h / 2:.1f})">attainable FLOP/s (upper bound)</text>')
    body.append(_legend(left + plot_w + 16, top, ceilings, bandwidth, gpu.name))
    return _svg(width, height, body, f"roofline on {gpu.name}", "chart roofline-chart")


def _roof_obstacles(x, y, x_lo: float, x_hi: float, bandwidth: float, peaks) -> list[tuple]:
    """Small boxes along the roofs, so that labels are not drawn across a line."""
    boxes = []
    top = max(peaks)
    for step in range(241):
        intensity = x_lo * (x_hi / x_lo) ** (step / 240)
        px = x(intensity)
        if intensity * bandwidth <= top:
            py = y(intensity * bandwidth)
            boxes.append((px - 3, py - 3, px + 3, py + 3))
        for peak in peaks:
            if intensity >= peak / bandwidth:
                boxes.append((px - 3, y(peak) - 3, px + 3, y(peak) + 3))
    return boxes


def _legend(x0: float, y0: float, ceilings, bandwidth: float, gpu_name: str) -> str:
    rows = [(MEMORY_COLOUR, f"memory roof {bandwidth / 1e12:.2g} TB/s", "line")]
    rows += [(ROOF_COLOURS.get(key, "#555"), f"{name} peak {_flops(peak)}FLOP/s", "line") for key, name, peak in ceilings]
    rows += [("#d6604d", "kernel (exact sizes)", "dot"), ("white", "kernel, large sizes or ~estimate", "dot")]
    parts = [f'<g class="legend"><text x="{x0}" y="{y0 + 12}" class="legend-title">{escape(gpu_name)}</text>']
    for index, (colour, text, kind) in enumerate(rows):
        row_y = y0 + 32 + index * 20
        if kind == "line":
            parts.append(f'<line x1="{x0}" x2="{x0 + 24}" y1="{row_y - 4}" y2="{row_y - 4}" stroke="{colour}" class="roof"/>')
        else:
            radius = 6.5 if colour == "white" else 4.5
            parts.append(f'<circle cx="{x0 + 12}" cy="{row_y - 4}" r="{radius}" fill="{colour}" stroke="#b2182b" '
                         'stroke-width="1.5"/>')
        parts.append(f'<text x="{x0 + 32}" y="{row_y}" class="legend-text">{escape(text)}</text>')
    return "".join(parts) + "</g>"


def place_label(label: str, px: float, py: float, taken: list, bounds, char_width: float = CHAR_WIDTH,
                height: float = LABEL_HEIGHT) -> tuple:
    """Label position (x, baseline y; y grows downwards) and box: the first candidate around the
    point that stays in the plot and overlaps nothing placed; else the one with the least overlap."""
    w, h = len(label) * char_width, height
    best = None
    for radius in (8, 20, 36, 56, 80):
        for dx, dy in ((1, -0.4), (1, 0.9), (-1, -0.4), (-1, 0.9), (0, -1), (0, 1.6), (0.7, -1.2), (-0.7, -1.2),
                       (0.7, 1.8), (-0.7, 1.8)):
            if dx > 0:
                lx = px + radius * dx
            elif dx < 0:
                lx = px + radius * dx - w
            else:
                lx = px - w / 2
            ly = py + dy * max(radius, 10) * (0.8 if dy < 0 else 0.7) + 4
            box = (lx, ly - h + 3, lx + w, ly + 3)
            if box[0] < bounds[0] or box[2] > bounds[2] or box[1] < bounds[1] or box[3] > bounds[3]:
                continue
            overlap = sum(_overlap(box, other) for other in taken)
            if overlap == 0:
                return lx, ly, box
            if best is None or overlap < best[0]:
                best = (overlap, lx, ly, box)
    if best is None:
        lx, ly = min(px + 8, bounds[2] - w), py - 4
        return lx, ly, (lx, ly - h + 3, lx + w, ly + 3)
    return best[1], best[2], best[3]


def merge_coincident(points) -> list:
    """Kernels at the same spot (saxpy and its vectorised twin) share one point and one label."""
    merged: dict = {}
    for label, intensity, attainable, exact in points:
        key = (round(math.log10(intensity), 3), round(math.log10(attainable), 3), exact)
        if key in merged:
            merged[key] = (merged[key][0] + ", " + label,) + merged[key][1:]
        else:
            merged[key] = (label, intensity, attainable, exact)
    return list(merged.values())


def _overlap(a, b) -> float:
    dx = min(a[2], b[2]) - max(a[0], b[0])
    dy = min(a[3], b[3]) - max(a[1], b[1])
    return dx * dy if dx > 0 and dy > 0 else 0.0


def _decade(value: float) -> str:
    return number(value) if 1e-3 <= value <= 1e4 else f"1e{round(math.log10(value))}"


def _flops(value: float) -> str:
    """FLOP/s with an SI prefix: 4.8 T, 990 T, 1.2 P (the unit follows in the caller's text)."""
    for factor, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= factor:
            return f"{number(value / factor)} {prefix}"
    return f"{number(value)} "

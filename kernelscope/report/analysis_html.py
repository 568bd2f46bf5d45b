"""`kernelscope analyze --format html`: one self-contained page (inline CSS, SVG and script; nothing
fetched from a network) with each file's source annotated access by access, a heat map of what
each line's accesses cost, findings under the line they are about, and per kernel the occupancy
sweep; a roofline of every kernel closes the page.

Heat: a global access costs sectors/request over the ideal for its lanes (1 = coalesced, 8 = every
lane in its own sector), a shared one its bank ways (1 = conflict-free, 32 = fully serialised); a
line's heat is its worst access on a log scale, so that one bad access is not averaged away."""

from __future__ import annotations

import math
import re
from html import escape

from kernelscope import __version__
from kernelscope.report import readable as rd
from kernelscope.report import svg_charts

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def render(results, sources: dict, gpu=None, title: str = "kernelscope report") -> str:
    """`sources`: path -> source text (the lines the annotations point at)."""
    body = [f"<header><h1>{escape(title)}</h1><p class=\"meta\">kernelscope {escape(__version__)} · "
            f"{sum(len(r.kernels) for r in results)} kernel(s) in {len(results)} file(s)"
            + (f" · roofline on {escape(gpu.name)}" if gpu is not None else "") + "</p>",
            _legend(), _contents(results), "</header>"]
    for index, result in enumerate(results):
        body.append(_file_section(index, result, sources.get(result.path, "")))
    if gpu is not None:
        body.append(_roofline_section(results, gpu))
    return PAGE.format(title=escape(title), css=CSS, body="\n".join(body), script=SCRIPT)


def roofline_page(results, gpu, title: str = "kernelscope roofline") -> str:
    """A page holding only the roofline (what `kernelscope roofline -o chart.html` writes)."""
    return PAGE.format(title=escape(title), css=CSS, body=_roofline_section(results, gpu), script=SCRIPT)


def _legend() -> str:
    return ("<details class=\"legend-box\"><summary>How to read this page</summary><p>"
            + escape(rd.LEGEND) + "</p><p>Line colour: the worst access on the line, from "
            "<span class=\"swatch\" style=\"background:" + _heat_colour(0) + "\"></span> ideal to "
            "<span class=\"swatch\" style=\"background:" + _heat_colour(1) + "\"></span> 8x the sectors or "
            "32-way bank conflicts. Numbers are per warp request; exec weight is per thread.</p></details>")


def _contents(results) -> str:
    items = []
    for index, result in enumerate(results):
        kernels = ", ".join(f'<a href="#k-{index}-{escape(k.kernel.name)}">{escape(k.kernel.name)}</a>'
                            for k in result.kernels)
        counts = _severity_counts(result.diagnostics)
        items.append(f'<li><a href="#f-{index}">{escape(result.path)}</a> {counts} <span class="kernels">{kernels}</span></li>')
    return "<nav><ul>" + "".join(items) + "</ul></nav>"


def _severity_counts(diagnostics) -> str:
    counts: dict = {}
    for d in diagnostics:
        counts[d.severity] = counts.get(d.severity, 0) + 1
    return " ".join(f'<span class="badge {s}">{counts[s]} {s}</span>'
                    for s in sorted(counts, key=lambda s: SEVERITY_ORDER.get(s, 9)))


def _file_section(index: int, result, source: str) -> str:
    parts = [f'<section class="file" id="f-{index}"><h2>{escape(result.path)}</h2>']
    for error in result.errors:
        parts.append(f'<p class="error-line">{error.line}:{error.column} {escape(error.message)}</p>')
    for kernel in result.kernels:
        parts.append(_kernel_card(index, kernel))
    parts.append(_source_view(index, result, source))
    parts.append("</section>")
    return "".join(parts)


def _kernel_card(index: int, result) -> str:
    k = result.kernel
    block = "x".join(str(d) for d in result.block.as_list())
    facts = [("block", f"{block} [{result.block_source}] {rd.BLOCK_SOURCES.get(result.block_source, '')}")]
    if k.template_params:
        facts.append(("template", f"<{', '.join(k.template_params)}>, instantiations {rd.instantiations_text(k)}"))
    sweep = ""
    if result.occupancy is not None:
        o = result.occupancy
        facts.append(("occupancy", f"{o.theoretical_occupancy:.0%} on {o.arch}, {o.active_blocks_per_sm} block(s)/SM, "
                                   f"limited by {o.limiter.replace('_', ' ')}; {o.registers} registers ({o.registers_source}), "
                                   f"{o.static_shared_bytes} B static + {o.dynamic_shared_bytes} B dynamic shared"))
        advice = rd.block_advice(o)
        if advice:
            facts.append(("best block size", advice))
        advised = _advised_size(o)
        sweep = svg_charts.occupancy_sweep(o, advised) if o.sweep else ""
    view = rd.intensity_view(result.intensity, k, rd.launch_values(result))
    if view is not None:
        facts.append(("intensity", _intensity_words(view, result.intensity)))
    if result.sync is not None:
        s = result.sync.to_json()
        facts.append(("sync", f"{s.get('barriers')} barrier(s), {len(s.get('divergent_barriers') or [])} divergent, "
                              f"{len(s.get('shared_races') or [])} shared race(s)"))
    facts += [("uncounted loop", note) for note in rd.uncounted_loops(result)]
    rows = "".join(f"<tr><th>{escape(name)}</th><td>{_options_unbroken(escape(text))}</td></tr>" for name, text in facts)
    return (f'<article class="kernel" id="k-{index}-{escape(k.name)}"><h3>kernel <code>{escape(k.name)}</code> '
            f'<a class="jump" href="#L{index}-{k.line}">line {k.line}</a></h3>'
            f'<div class="kernel-body"><table class="facts">{rows}</table>{sweep}</div></article>')


def _options_unbroken(text: str) -> str:
    """`--arg n=...` must not wrap at its hyphens."""
    return re.sub(r"(--[a-z-]+(?: [\w.]+=\.\.\.| \.\.\.)?)", r'<code class="opt">\1</code>', text)


def _advised_size(occupancy) -> int | None:
    if not occupancy.sweep:
        return None
    best = max(p.theoretical_occupancy for p in occupancy.sweep)
    return min(p.block_size for p in occupancy.sweep if p.theoretical_occupancy == best) if best > 0 else None


def _intensity_words(view, intensity) -> str:
    text = f"{rd.grouped(view.flops)} FLOP / {rd.grouped(view.global_bytes)} B per thread"
    if view.exact:
        text += f" = {rd.number(view.intensity)} FLOP/B"
    elif view.intensity is not None:
        text += (f" -> {rd.number(view.intensity)} FLOP/B for large sizes" if view.asymptotic
                 else f" = ~{rd.number(view.intensity)} FLOP/B")
    if view.bound and view.bound != "unknown":
        text += f", {view.bound}-bound" + (f" on {intensity.gpu}" if intensity.gpu else "")
    if view.hint:
        text += f"; bind {view.hint} for exact numbers"
    return text


def _source_view(index: int, result, source: str) -> str:
    by_line: dict = {}
    for kernel in result.kernels:
        for access in kernel.memory.accesses:
            if not access.in_function:
                by_line.setdefault(access.line, []).append((kernel, access))
    findings: dict = {}
    for d in result.diagnostics:
        findings.setdefault(d.line, []).append(d)
    rows = []
    for number_, text in enumerate(source.splitlines() or [""], 1):
        accesses = by_line.get(number_, [])
        heat = max((h for h in (_access_heat(a) for _, a in accesses) if h is not None), default=None)
        style = f' style="background:{_heat_colour(heat)}"' if heat is not None else ""
        marks = "".join(_chip(kernel, access) for kernel, access in sorted(accesses, key=lambda ka: ka[1].column))
        annotated = " annotated" if accesses or number_ in findings else ""
        rows.append(f'<tr id="L{index}-{number_}" class="src{annotated}"{style}>'
                    f'<td class="ln">{number_}</td><td class="code">{escape(text) or " "}</td>'
                    f'<td class="marks">{marks}</td></tr>')
        for d in sorted(findings.get(number_, []), key=lambda d: (SEVERITY_ORDER.get(d.severity, 9), d.column)):
            rows.append(f'<tr class="finding {d.severity}"><td class="ln"></td><td colspan="2">'
                        f'<span class="badge {d.severity}">{d.severity}</span> <b>{d.rule}</b> '
                        f'col {d.column}: {escape(d.message)}</td></tr>')
    toolbar = ('<div class="toolbar"><label><input type="checkbox" class="only-annotated"> only lines with '
               'accesses or findings</label></div>')
    return f'{toolbar}<table class="source" data-file="{index}">{"".join(rows)}</table>'


def _chip(kernel, access) -> str:
    cost = rd.cost_text(access)
    weight = rd.weight_text(access.exec_weight, kernel.kernel, rd.launch_values(kernel))
    kind = {"load": "ld", "store": "st", "atomic": "atom"}.get(access.op, access.op)
    heat = _access_heat(access)
    tip = (f"{access.expr} in {kernel.kernel.name}: {access.space} {access.op}, {access.elem_bytes} B per lane, "
           f"{rd.pattern_word(access)}{', ' + rd.stride_text(access) if rd.stride_text(access) else ''}"
           f"{', ' + cost if cost else ''}, runs x{weight} per thread"
           + (f"; {access.note}" if access.note else ""))
    short = cost.replace(" sectors/request", " sect").replace(" sector/request", " sect").replace("bank ways ", "ways ")
    return (f'<span class="chip {access.space}" title="{escape(tip)}" style="border-color:{_heat_colour(heat, 1.0)}">'
            f'{kind} {access.space[:3]} {escape(rd.pattern_word(access))} {escape(short)} '
            f'<i>\u00d7{escape(weight.strip("()"))}</i></span>')


def _access_heat(access) -> float | None:
    """0 (ideal) .. 1 (worst) on a log scale."""
    if access.space == "shared":
        if access.bank_ways is None:
            return None
        return min(1.0, math.log2(max(1.0, access.bank_ways)) / 5)
    if access.sectors_per_request is None or not access.ideal_sectors:
        return None
    return min(1.0, math.log2(max(1.0, access.sectors_per_request / access.ideal_sectors)) / 3)


def _heat_colour(heat: float | None, alpha: float = 0.55) -> str:
    if heat is None:
        return "transparent"
    # green (ideal) through yellow to red (worst)
    hue = 120 * (1 - heat)
    return f"hsla({hue:.0f}, 75%, 55%, {alpha if heat > 0 else 0.18})"


def _roofline_section(results, gpu) -> str:
    from kernelscope.roofline import static_placement

    exact, left_out = static_placement(results, gpu)
    points = [(p.label, p.intensity, p.flops_per_second, True) for p in exact]
    still_out = []
    by_name = {k.kernel.name: k for r in results for k in r.kernels}
    for name, reason in left_out:
        kernel = by_name.get(name)
        view = rd.intensity_view(kernel.intensity, kernel.kernel, rd.launch_values(kernel)) if kernel is not None else None
        if view is not None and view.intensity and view.intensity != float("inf"):
            peak = gpu.peak_flops(kernel.intensity.dominant_precision) or gpu.peak_flops("fp32")
            points.append((name, view.intensity, min(peak, view.intensity * gpu.memory_bandwidth_bytes), False))
        else:
            still_out.append((name, reason))
    parts = ['<section class="roofline" id="roofline"><h2>Roofline</h2>']
    if points:
        parts.append(svg_charts.roofline(svg_charts.merge_coincident(points), gpu))
    note = ("Static points: each kernel at the intensity its source requests, on the roof it can at best reach; "
            "hollow points are kernels whose loop counts depend on parameters (the limit for large sizes) or "
            "are estimated (~); bind the sizes with --arg for exact points.")
    parts.append(f'<p class="note">{escape(note)}</p>')
    if still_out:
        items = "".join(f"<li><code>{escape(n)}</code>: {escape(r)}</li>" for n, r in still_out)
        parts.append(f'<p class="note">Not shown ({len(still_out)}):</p><ul class="left-out">{items}</ul>')
    parts.append("</section>")
    return "".join(parts)


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style></head>
<body>
{body}
<script>{script}</script>
</body></html>
"""

CSS = """
:root { --fg:#1d2330; --muted:#5b6472; --line:#e3e6ea; --card:#f7f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0 auto;
       max-width: 1280px; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 0 0 6px; } .meta, .note { color: var(--muted); }
nav ul { padding-left: 18px; margin: 6px 0; } nav .kernels { color: var(--muted); font-size: 13px; }
a { color: #1f5fbf; text-decoration: none; } a:hover { text-decoration: underline; }
.legend-box { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
.legend-box summary { cursor: pointer; font-weight: 600; }
.swatch { display: inline-block; width: 14px; height: 10px; border: 1px solid #999; vertical-align: middle; }
.kernel { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin: 10px 0; }
.kernel-body { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.facts { border-collapse: collapse; flex: 1 1 520px; } .facts th { text-align: left; color: var(--muted); font-weight: 500;
         padding: 2px 10px 2px 0; vertical-align: top; white-space: nowrap; } .facts td { padding: 2px 0; }
code.opt { white-space: nowrap; }
.jump { font-size: 12px; font-weight: 400; margin-left: 6px; }
.toolbar { margin: 14px 0 4px; color: var(--muted); font-size: 13px; }
.source { border-collapse: collapse; width: 100%; font: 12.5px/1.5 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
.source td { padding: 0 8px; vertical-align: top; } .source .ln { color: #8a929e; text-align: right; width: 1%;
             user-select: none; border-right: 1px solid var(--line); }
.source .code { white-space: pre; } .source .marks { width: 34%; min-width: 260px; } .chip { white-space: nowrap; }
.source.filtered tr.src:not(.annotated) { display: none; }
.source tr:target { outline: 2px solid #1f5fbf; }
.chip { display: inline-block; font-size: 11px; line-height: 1.3; padding: 0 5px; margin: 1px 3px 1px 0; border: 1.5px solid;
        border-radius: 9px; background: white; cursor: help; } .chip i { color: var(--muted); font-style: normal; }
.chip.shared { background: #f3f0ff; }
.finding td { font: 12.5px/1.5 system-ui, sans-serif; padding: 2px 8px 4px; }
.finding.error { background: #fde8e8; } .finding.warning { background: #fff4dc; } .finding.info { background: #eaf2fd; }
.badge { font-size: 11px; padding: 0 6px; border-radius: 8px; color: white; } .badge.error { background: #c62828; }
.badge.warning { background: #d9822b; } .badge.info { background: #3d7ccf; }
.error-line { color: #c62828; }
.chart { background: white; } .chart .plot { fill: white; stroke: #c9ced6; } .chart .grid { stroke: #eceef1; }
.chart .tick { font: 10.5px system-ui, sans-serif; fill: #5b6472; } .chart .axis { font: 12px system-ui, sans-serif; fill: #333; }
.chart .sweep { fill: none; stroke: #1f5fbf; stroke-width: 2; }
.chart .current { fill: #1f5fbf; } .chart .advised { fill: white; stroke: #1b7837; stroke-width: 2.5; }
.chart .roof { stroke-width: 2.2; fill: none; } .chart .leader { stroke: #999; stroke-width: 0.8; }
.chart .point-label { font: 11px ui-monospace, "DejaVu Sans Mono", monospace; fill: #222; }
.chart .legend-title { font: 600 12px system-ui, sans-serif; } .chart .legend-text { font: 11.5px system-ui, sans-serif; }
.left-out { color: var(--muted); margin-top: 0; }
"""

# Runs after the page has laid out: moves roofline labels that the server-side width estimate let
# overlap (real text widths are only known here), wires the "only annotated lines" filter, and
# records what it did on the chart (data-overlaps) for tests and curious readers.
SCRIPT = """
(function () {
  function boxOf(el) { var b = el.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height}; }
  function hits(a, b) { return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h; }
  document.querySelectorAll('svg.roofline-chart').forEach(function (svg) {
    var labels = Array.prototype.slice.call(svg.querySelectorAll('text.point-label'));
    var placed = [];
    labels.forEach(function (label) {
      var box = boxOf(label), tries = 0;
      while (placed.some(function (p) { return hits(box, p); }) && tries < 40) {
        label.setAttribute('y', parseFloat(label.getAttribute('y')) + box.h * 0.9);
        box = boxOf(label); tries += 1;
      }
      placed.push(box);
    });
    var overlaps = 0;
    for (var i = 0; i < placed.length; i++)
      for (var j = i + 1; j < placed.length; j++) if (hits(placed[i], placed[j])) overlaps += 1;
    svg.setAttribute('data-overlaps', String(overlaps));
  });
  document.querySelectorAll('.only-annotated').forEach(function (box) {
    var table = box.closest('.toolbar').nextElementSibling;
    box.addEventListener('change', function () { table.classList.toggle('filtered', box.checked); });
  });
  document.body.setAttribute('data-ready', '1');
})();
"""

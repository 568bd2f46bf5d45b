"""`kernelscope analyze` text report: one section per kernel, written for a GPU programmer.

Every number is rounded for reading (the JSON document keeps them exact); counts that depend on a
parameter are written as expressions of it, with the `--arg` that would make them numbers."""

from __future__ import annotations

from kernelscope.report import readable as rd
from kernelscope.report.style import paint


def render(results, explain: bool = False, color: bool = False) -> str:
    lines: list[str] = []
    if explain:
        lines.extend(_wrap(rd.LEGEND, "", 100))
        lines.append("")
    for result in results:
        lines.append(f"{result.path}: {len(result.kernels)} kernel(s)")
        for error in result.errors:
            lines.append(f"  ! {error.line}:{error.column} {error.message}")
        for kernel in result.kernels:
            lines.extend(_kernel(kernel, color))
        if result.diagnostics:
            lines.append("  findings:")
            for d in result.diagnostics:
                severity = paint(f"[{d.severity}]", d.severity, color)
                lines.append(f"    {d.path}:{d.line}:{d.column}: {d.rule} {severity} {d.message}")
        lines.append("")
    return "\n".join(lines)


def _kernel(result, color: bool = False) -> list[str]:
    k = result.kernel
    block = "x".join(str(d) for d in result.block.as_list())
    out = [f"  kernel {paint(k.name, 'bold', color)} (line {k.line}) block {block} [{result.block_source}]"]
    if result.plan is not None:
        out.append(f"    {rd.plan_text(result.plan, result.grid)}")
    if k.template_params:
        out.append(f"    template <{', '.join(k.template_params)}>, instantiations {rd.instantiations_text(k)}")
    if k.launch_bounds:
        out.append(f"    __launch_bounds__({', '.join(str(b) for b in k.launch_bounds)})")
    if result.memory.accesses:
        out.append("    memory accesses:")
        shape = rd.launch_values(result)
        for a in result.memory.accesses:
            weight = rd.weight_text(a.exec_weight, k, shape)
            detail = "  ".join(part for part in (rd.stride_text(a), rd.cost_text(a)) if part)
            detail = paint(f"{detail:<28}", "bad", color and rd.costly(a))
            out.append(f"      {a.line:>4}:{a.column:<3} {a.space:<6} {a.op:<6} {a.elem_bytes:>2}B "
                       f"{rd.pattern_word(a):<9} {detail} x{weight:<6} {a.expr}")
    for note in rd.uncounted_loops(result):
        out.append(f"      {note}")
    if result.occupancy is not None:
        o = result.occupancy
        out.append(f"    occupancy ({o.arch}): {o.theoretical_occupancy:.0%} with {o.active_blocks_per_sm} "
                   f"block(s)/SM, limited by {o.limiter.replace('_', ' ')}; {o.registers} registers "
                   f"({o.registers_source}), {o.static_shared_bytes} B static + {o.dynamic_shared_bytes} B dynamic shared")
        advice = rd.block_advice(o)
        if advice:
            out.append(f"      best block size: {advice}")
    view = rd.intensity_view(result.intensity, k, rd.launch_values(result))
    if view is not None:
        out.append("    " + _intensity_line(view, result.intensity))
    if result.sync is not None:
        s = result.sync.to_json()
        out.append(f"    sync: {s.get('barriers')} barrier(s), {len(s.get('divergent_barriers') or [])} divergent, "
                   f"{len(s.get('shared_races') or [])} shared race(s)")
    divergent = [b for b in result.memory.branches if b.divergent]
    if divergent:
        out.append(f"    divergent branches at lines {', '.join(str(b.line) for b in divergent)}")
    return out


def _intensity_line(view, intensity) -> str:
    where = f" on {intensity.gpu}" if intensity.gpu else ""
    text = f"intensity: {rd.grouped(view.flops)} FLOP / {rd.grouped(view.global_bytes)} B per thread"
    if view.exact:
        bound = f", {view.bound}-bound{where}" if view.bound and view.bound != "unknown" else ""
        return f"{text} = {rd.number(view.intensity)} FLOP/B{bound}"
    if view.intensity is not None:
        bound = f", {view.bound}-bound{where}" if view.bound else ""
        text += (f" -> {rd.number(view.intensity)} FLOP/B for large sizes{bound}" if view.asymptotic
                 else f" = ~{rd.number(view.intensity)} FLOP/B{bound}")
    if view.hint:
        text += f"; bind {view.hint} for exact numbers"
    return text


def _wrap(text: str, indent: str, width: int) -> list[str]:
    lines, current = [], indent
    for word in text.split(" "):
        if len(current) + len(word) + 1 > width and current.strip():
            lines.append(current.rstrip())
            current = indent + "  "
        current += word + " "
    lines.append(current.rstrip())
    return lines

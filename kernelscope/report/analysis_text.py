"""`kernelscope analyze` text report: one section per kernel, written for a GPU programmer."""

from __future__ import annotations


def render(results) -> str:
    lines: list[str] = []
    for result in results:
        lines.append(f"{result.path}: {len(result.kernels)} kernel(s)")
        for error in result.errors:
            lines.append(f"  ! {error.line}:{error.column} {error.message}")
        for kernel in result.kernels:
            lines.extend(_kernel(kernel))
        by_rule = [d for d in result.diagnostics]
        if by_rule:
            lines.append("  findings:")
            for d in by_rule:
                lines.append(f"    {d.path}:{d.line}:{d.column}: {d.rule} [{d.severity}] {d.message}")
        lines.append("")
    return "\n".join(lines)


def _kernel(result) -> list[str]:
    k = result.kernel
    block = "x".join(str(d) for d in result.block.as_list())
    out = [f"  kernel {k.name} (line {k.line}) block {block} [{result.block_source}]"]
    if k.template_params:
        out.append(f"    template <{', '.join(k.template_params)}> instantiations: "
                   f"{[', '.join(t) for t in k.template_instantiations] or 'none'}")
    if k.launch_bounds:
        out.append(f"    __launch_bounds__{tuple(k.launch_bounds)}")
    if result.memory.accesses:
        out.append("    memory accesses:")
        for a in result.memory.accesses:
            cost = ""
            if a.space == "shared" and a.bank_ways is not None:
                cost = f"bank ways {a.bank_ways:.3g}"
            elif a.sectors_per_request is not None:
                cost = f"{a.sectors_per_request:.3g} sectors/request (ideal {a.ideal_sectors:.3g})"
            stride = f" stride {a.stride_bytes} B" if a.stride_bytes not in (None, 0) else ""
            out.append(f"      {a.line:>4}:{a.column:<3} {a.space:<6} {a.op:<6} {a.elem_bytes:>2}B "
                       f"{a.pattern:<9}{stride} {cost} x{a.exec_weight}  {a.expr}")
    if result.occupancy is not None:
        o = result.occupancy
        out.append(f"    occupancy ({o.arch}): {o.theoretical_occupancy:.0%} with {o.active_blocks_per_sm} "
                   f"block(s)/SM, limited by {o.limiter}; {o.registers} registers ({o.registers_source}), "
                   f"{o.static_shared_bytes} B static + {o.dynamic_shared_bytes} B dynamic shared; "
                   f"best block size {o.best_block_size}")
    if result.intensity is not None:
        i = result.intensity
        flops = i.flops_per_thread if i.flops_per_thread is not None else i.symbolic.get("flops_per_thread")
        moved = i.global_bytes_per_thread if i.global_bytes_per_thread is not None else \
            i.symbolic.get("global_bytes_per_thread")
        ai = f"{i.arithmetic_intensity:.3g}" if i.arithmetic_intensity is not None else "n/a"
        bound = f", {i.bound}-bound on {i.gpu}" if i.bound else ""
        out.append(f"    intensity: {flops} FLOP / {moved} B per thread = {ai} FLOP/B{bound}")
    if result.sync is not None:
        s = result.sync.to_json()
        out.append(f"    sync: {s.get('barriers')} barrier(s), {len(s.get('divergent_barriers') or [])} divergent, "
                   f"{len(s.get('shared_races') or [])} shared race(s)")
    divergent = [b for b in result.memory.branches if b.divergent]
    if divergent:
        out.append(f"    divergent branches at lines {', '.join(str(b.line) for b in divergent)}")
    return out

"""`kernelscope roofline`: a roofline chart of kernels, static and measured."""

from __future__ import annotations

import click

from kernelscope.commands._common import TERMINAL, analysis_options, analysis_settings, exits_2_on_error

CHART_SUFFIXES = (".png", ".svg", ".pdf", ".html")


@click.command(short_help="Draw a roofline chart of kernels.")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Chart file; its suffix picks the format: .png, .svg or .pdf (matplotlib), or .html "
                   "(a self-contained page, no matplotlib needed).")
@click.option("--gpu", "gpu_name", default=None, help="Named GPU of profiles/gpus.json (default: the arch's reference).")
@analysis_options
@click.option("--measurements", type=click.Path(exists=True, dir_okay=False),
              help="CSV of measured kernels (FLOPs, DRAM bytes, duration), e.g. from `kernelscope profile`.")
@exits_2_on_error
def roofline(paths, output, gpu_name, arch, block, grid, args, defines, registers, measurements):
    """Static points sit at each kernel's arithmetic intensity on the roof it can reach; measured
    points (from --measurements) at their achieved FLOP/s."""
    from kernelscope import profiles_db
    from kernelscope.analyze import analyze_path
    from kernelscope.analyses.intensity import default_gpu
    from kernelscope.frontend.discover import expand_paths
    from kernelscope.report.roofline_plot import check_plotting, draw
    from kernelscope.roofline import measured_points, static_placement

    if not paths and not measurements:
        raise click.UsageError("give CUDA files, --measurements, or both")
    if not output.lower().endswith(CHART_SUFFIXES):
        raise click.BadParameter(f"{output}: the chart must be .png, .svg, .pdf or .html", param_hint="-o")
    as_page = output.lower().endswith(".html")
    if not as_page:
        check_plotting()  # before the analysis, not after
    options = analysis_settings(arch, block, grid, args, defines, registers)
    gpu = profiles_db.gpu(gpu_name) if gpu_name else default_gpu(options.arch)
    if gpu is None:
        raise click.BadParameter(f"no reference GPU for {options.arch}; pass --gpu", param_hint="--gpu")
    results = [analyze_path(path, options) for path in expand_paths(paths)]
    points, left_out = static_placement(results, gpu)
    if measurements:
        points += measured_points(measurements)
    if as_page:
        if measurements:
            raise click.BadParameter("--measurements needs a .png, .svg or .pdf chart", param_hint="-o")
        from kernelscope.commands._common import write_output
        from kernelscope.report.analysis_html import roofline_page

        write_output(roofline_page(results, gpu), output)
        TERMINAL.note(f"roofline page -> {output}")
        return
    if not points:
        raise click.UsageError("no kernel has a known arithmetic intensity to plot (bind loop bounds with --arg)")
    draw(points, gpu, output, left_out=left_out)
    for name, reason in left_out:
        TERMINAL.note(f"kernelscope: {name} not plotted: {reason}")
    TERMINAL.note(f"{len(points)} points -> {output}")

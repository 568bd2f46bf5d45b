"""`kernelscope roofline`: a roofline chart of kernels, static and measured."""

from __future__ import annotations

import click

from kernelscope.commands._common import exits_2_on_error, parse_bindings, parse_block, parse_defines


@click.command(short_help="Draw a roofline chart of kernels.")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-o", "--output", required=True, help="Chart file (.png, .svg or .pdf).")
@click.option("--gpu", "gpu_name", default=None, help="Named GPU of profiles/gpus.json (default: the arch's reference).")
@click.option("--arch", default="sm_90", show_default=True)
@click.option("--block", help="Block shape where no launch site gives one.")
@click.option("--grid", help="Grid shape where no launch site gives one.")
@click.option("--arg", "args", multiple=True, metavar="NAME=VALUE")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]")
@click.option("--measurements", type=click.Path(exists=True, dir_okay=False),
              help="CSV of measured kernels (FLOPs, DRAM bytes, duration), e.g. from `kernelscope profile`.")
@exits_2_on_error
def roofline(paths, output, gpu_name, arch, block, grid, args, defines, measurements):
    """Static points sit at each kernel's arithmetic intensity on the roof it can reach; measured
    points (from --measurements) at their achieved FLOP/s."""
    from kernelscope import profiles_db
    from kernelscope.analyze import Options, analyze_path
    from kernelscope.analyses.intensity import default_gpu
    from kernelscope.frontend.discover import expand_paths
    from kernelscope.report.roofline_plot import draw
    from kernelscope.roofline import measured_points, static_points

    if not paths and not measurements:
        raise click.UsageError("give CUDA files, --measurements, or both")
    gpu = profiles_db.gpu(gpu_name) if gpu_name else default_gpu(arch)
    if gpu is None:
        raise click.BadParameter(f"no reference GPU for {arch}; pass --gpu", param_hint="--gpu")
    options = Options(arch=arch, block=parse_block(block), grid=parse_block(grid, limit=None),
                      bindings=parse_bindings(args), defines=parse_defines(defines), registers="estimate")
    results = [analyze_path(path, options) for path in expand_paths(paths)]
    points = static_points(results, gpu)
    if measurements:
        points += measured_points(measurements)
    if not points:
        raise click.UsageError("no kernel has a known arithmetic intensity to plot (bind loop bounds with --arg)")
    draw(points, gpu, output)
    click.echo(f"{len(points)} points -> {output}", err=True)

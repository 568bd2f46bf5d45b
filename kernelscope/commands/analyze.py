"""`kernelscope analyze`: per-kernel report of the static analyses."""

from __future__ import annotations

import sys

import click

from kernelscope.commands._common import exits_2_on_error, parse_bindings, parse_block, parse_defines


@click.command(short_help="Report per-kernel static analysis of CUDA files.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--arch", default="sm_90", show_default=True, help="Target architecture (sm_75 ... sm_120).")
@click.option("--block", help="Block shape where no launch site gives one: 256, 16x16 or 8x8x4.")
@click.option("--grid", help="Grid shape where no launch site gives one (same syntax as --block).")
@click.option("--arg", "args", multiple=True, metavar="NAME=VALUE", help="Bind a scalar parameter.")
@click.option("--dynamic-smem", type=click.IntRange(min=0), default=None, metavar="BYTES",
              help="Dynamic shared memory per block.")
@click.option("--registers", type=click.Choice(["auto", "ptxas", "estimate"]), default="auto", show_default=True,
              help="Register counts from nvcc -Xptxas -v, or estimated.")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro.")
@click.option("--preprocess", type=click.Choice(["builtin", "nvcc"]), default="builtin", show_default=True,
              help="Expand macros with the built-in preprocessor or with nvcc -E.")
@exits_2_on_error
def analyze(paths, output_format, arch, block, grid, args, dynamic_smem, registers, defines, preprocess):
    """Analyse CUDA files: coalescing, bank conflicts, occupancy, intensity, sync, divergence.

    Exit status: 0 analysed, 1 analysed with error-severity findings, 2 usage or input error."""
    from kernelscope.analyze import Options, analyze_path, document
    from kernelscope.frontend.discover import expand_paths

    options = Options(arch=arch, block=parse_block(block), grid=parse_block(grid, limit=None), bindings=parse_bindings(args),
                      defines=parse_defines(defines), registers=registers, dynamic_smem=dynamic_smem,
                      preprocess=preprocess)
    _check_arch(arch)
    results = [analyze_path(path, options) for path in expand_paths(paths)]
    if output_format == "json":
        from kernelscope.report.analysis_json import render
        click.echo(render(document(results)), nl=False)
    else:
        from kernelscope.report.analysis_text import render
        click.echo(render(results))
    sys.exit(1 if any(r.has_errors for r in results) else 0)


def _check_arch(arch: str) -> None:
    try:
        from kernelscope import profiles_db
    except ImportError:
        return
    try:
        profiles_db.arch(arch)
    except Exception as exc:
        raise click.BadParameter(f"unknown architecture {arch!r} ({exc})", param_hint="--arch")

"""`kernelscope features`: a feature table for reward and ranking models."""

from __future__ import annotations

import click

from kernelscope.commands._common import exits_2_on_error, parse_bindings, parse_block, parse_defines


@click.command(short_help="Extract a feature table for reward models.")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, help="Output file: .csv, .parquet or .jsonl.")
@click.option("--arch", default="sm_90", show_default=True)
@click.option("--block", help="Block shape where no launch site gives one: 256, 16x16 or 8x8x4.")
@click.option("--arg", "args", multiple=True, metavar="NAME=VALUE", help="Bind a scalar parameter.")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]")
@click.option("--registers", type=click.Choice(["auto", "ptxas", "estimate"]), default="auto", show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0 = all cores).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when a terminal).")
@exits_2_on_error
def features(paths, output, arch, block, args, defines, registers, jobs, progress):
    """One row per kernel with the numeric features of every analysis (docs/features.md).
    Files that cannot be analysed get a row with `error` set instead of stopping the run."""
    import sys

    from kernelscope.features import extract, write_table

    if progress is None:
        progress = sys.stderr.isatty()
    table = extract(paths, jobs=jobs, progress=progress, arch=arch, block=parse_block(block),
                    bindings=parse_bindings(args), defines=parse_defines(defines), registers=registers)
    write_table(table, output)
    errors = int(table["error"].notna().sum())
    click.echo(f"{len(table) - errors} kernel rows, {errors} file errors -> {output}", err=True)

"""`kernelscope features`: a feature table for reward and ranking models."""

from __future__ import annotations

import click

from kernelscope.commands._common import TERMINAL, analysis_options, analysis_settings, exits_2_on_error


@click.command(short_help="Extract a feature table for reward models.")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Output file; its suffix picks the format: .csv, .parquet (needs pyarrow) or .jsonl.")
@analysis_options
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0 = all cores).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr.  [default: when stderr is a terminal and not -q]")
@exits_2_on_error
def features(paths, output, arch, block, grid, args, defines, registers, jobs, progress):
    """One row per kernel with the numeric features of every analysis (docs/features.md).
    Files that cannot be analysed get a row with `error` set instead of stopping the run."""
    import sys

    from kernelscope.features import check_output, extract, write_table

    check_output(output)  # before minutes of extraction, not after
    if progress is None:
        progress = sys.stderr.isatty() and not TERMINAL.quiet
    options = analysis_settings(arch, block, grid, args, defines, registers)
    table = extract(paths, jobs=jobs, progress=progress, arch=options.arch, block=options.block, grid=options.grid,
                    bindings=options.bindings, defines=options.defines, registers=options.registers)
    write_table(table, output)
    errors = int(table["error"].notna().sum())
    TERMINAL.note(f"{len(table) - errors} kernel rows, {errors} file errors -> {output}")

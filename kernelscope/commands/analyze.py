"""`kernelscope analyze`: per-kernel report of the static analyses."""

from __future__ import annotations

import sys

import click

from kernelscope.commands._common import (TERMINAL, analysis_options, analysis_settings, exits_2_on_error, parse_types,
                                          write_output)
from kernelscope.commands._quick_parse import QuickParsing

FORMATS = ("text", "json", "html")


@click.command(cls=QuickParsing, short_help="Report per-kernel static analysis of CUDA files.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(dir_okay=True))
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: for reading; json: the kernelscope.analysis/1 document; html: one self-contained "
                   "page with the annotated source, occupancy and roofline charts (use with -o).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the report to this file instead of standard output.")
@analysis_options
@click.option("--type", "types", multiple=True, metavar="T=TYPE",
              help="Bind a template type parameter of the kernels (T=float); else the launches decide, or float.")
@click.option("--dynamic-smem", type=click.IntRange(min=0), default=None, metavar="BYTES",
              help="Dynamic shared memory per block, where no launch site gives it.")
@click.option("--preprocess", type=click.Choice(["builtin", "nvcc"]), default="builtin", show_default=True,
              help="Expand macros with the built-in preprocessor or with nvcc -E.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Read [tool.kernelscope] settings from this file instead of searching upwards from each path.")
@click.option("--explain", is_flag=True, help="Start the text report with a legend of its notation.")
@exits_2_on_error
def analyze(paths, output_format, output, arch, block, grid, args, defines, registers, types, dynamic_smem,
            preprocess, config_file, explain):
    """Analyse CUDA files: coalescing, bank conflicts, occupancy, intensity, sync, divergence.

    Settings not given here (arch, block, define, registers) come from [tool.kernelscope] in
    pyproject.toml or [kernelscope] in setup.cfg, found as `kernelscope lint` finds them.

    A file with a /* kernelscope:plan */ comment has each kernel analysed with the block and grid of
    its (first) launch in the plan; give the sizes the plan's expressions need with --arg NAME=VALUE.

    Exit status: 0 analysed, 1 analysed with error-severity findings, 2 usage or input error."""
    # The work runs in a function of its own that returns the status: SystemExit's traceback keeps
    # this frame, and a caller that runs commands in process (tests, benchmarks, click's
    # CliRunner, which holds the traceback in a reference cycle) would otherwise keep every
    # analysis result alive until a full garbage collection (58 MB per run of an 800-kernel file).
    sys.exit(_analyze_files(paths, output_format, output, arch, block, grid, args, defines, registers, types,
                            dynamic_smem, preprocess, config_file, explain))


def _analyze_files(paths, output_format, output, arch, block, grid, args, defines, registers, types, dynamic_smem,
                   preprocess, config_file, explain) -> int:
    """Analyse and report; the exit status."""
    from kernelscope.analyze import analyze_path
    from kernelscope.frontend.discover import expand_paths
    from kernelscope.gc_tuning import tuned_for_analysis
    from kernelscope.lint.config import SettingsResolver

    resolver = SettingsResolver(config_file=config_file)
    results = []
    chart_arch = None
    with tuned_for_analysis():
        for path in expand_paths(paths):
            options = analysis_settings(arch, block, grid, args, defines, registers,
                                        configured=resolver.for_path(path), dynamic_smem=dynamic_smem,
                                        preprocess=preprocess, types=parse_types(types), plan=True)
            _check_arch(options.arch)
            chart_arch = chart_arch or options.arch
            results.append(analyze_path(path, options))
            TERMINAL.detail(f"analysed {path}: {len(results[-1].kernels)} kernel(s)")
        report = _render(output_format, results, chart_arch or "sm_90", explain)
    write_output(report, output)
    if output:
        TERMINAL.note(f"kernelscope: {output_format} report of {len(results)} file(s) written to {output}")
    return 1 if any(r.has_errors for r in results) else 0


def _render(output_format: str, results, arch: str, explain: bool) -> str | list[str]:
    """The report's text, or its pieces for write_output (JSON: never joined, see report_pieces)."""
    if output_format == "json":
        from kernelscope.report.analysis_json import report_pieces

        return report_pieces(results)
    if output_format == "html":
        from kernelscope.analyses.intensity import default_gpu
        from kernelscope.frontend import read_source
        from kernelscope.report.analysis_html import render

        sources = {r.path: read_source(r.path).text for r in results}
        return render(results, sources, default_gpu(arch))
    from kernelscope.report.analysis_text import render

    return render(results, explain=explain, color=TERMINAL.color()) + "\n"


def _check_arch(arch: str) -> None:
    from kernelscope import profiles_db

    try:
        profiles_db.arch(arch)
    except Exception as exc:
        raise click.BadParameter(f"unknown architecture {arch!r} ({exc})", param_hint="--arch")

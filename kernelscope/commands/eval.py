"""`kernelscope eval COMPLETIONS.jsonl`: KernelBench-style figures for a model's completions
(logic in kernelscope.completions_eval)."""

from __future__ import annotations

import json

import click

from kernelscope.commands._common import echo, exits_2_on_error


@click.command(name="eval")
@click.argument("completions_path", metavar="COMPLETIONS", type=click.Path(exists=True, dir_okay=False))
@click.option("--corpus", type=click.Path(exists=True, file_okay=False), default=None,
              help="Folder of problems that names in the file refer to (default: the checkout's corpus/).")
@click.option("--baseline", type=click.Choice(["problem", "reference"]), default="problem", show_default=True,
              help="Compare speed with each problem's measured baseline, or with its reference.")
@click.option("--size", "sizes", multiple=True, metavar="NAME", help="Only these size configurations.")
@click.option("--trials", type=click.IntRange(3, None), default=3, show_default=True,
              help="Correctness trials per size, each on fresh random inputs.")
@click.option("--repeats", type=click.IntRange(1, None), default=30, show_default=True,
              help="Timed launches per size; the median is compared.")
@click.option("--timeout", "timeout_s", type=float, default=60.0, show_default=True,
              help="Seconds the evaluation of one completion may take before it is stopped.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table for reading, json for scripts.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write the report here.")
@exits_2_on_error
def eval_command(completions_path, corpus, baseline, sizes, trials, repeats, timeout_s, fmt, output):
    """Score COMPLETIONS (JSONL of {"problem", "completion"}): compiled and correct rates, fast_p for
    p in 0, 1, 1.5, 2 and the geometric mean speedup, per problem and overall."""
    from kernelscope.completions_eval import read_completions, report, score_completions
    from kernelscope.report.eval_table import eval_table

    records = read_completions(completions_path)
    scores = score_completions(records, corpus=corpus, baseline=baseline, sizes=list(sizes) or None,
                               trials=trials, repeats=repeats, timeout_s=timeout_s)
    document = report(scores, baseline=baseline)
    text = json.dumps(document, indent=2) + "\n" if fmt == "json" else eval_table(document)
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        echo(text, nl=False)

"""`kernelscope rank train|eval|compare`: the pairwise ranker from the command line (logic in kernelscope.rl)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from kernelscope.commands._common import TERMINAL, echo, exits_2_on_error, fail, parse_bindings, parse_block

DEFAULT_MEASUREMENTS = "measured/corpus_h200.csv"


def _default_measurements() -> Path:
    from kernelscope.paths import profile_file

    return profile_file(DEFAULT_MEASUREMENTS)


def _default_corpus() -> Path:
    from kernelscope.rl.tasks import default_corpus_dir

    return default_corpus_dir()


def _training_table(corpus: Path, measurements: Path):
    from kernelscope.rl.ranker_training import corpus_features, load_measurements, training_table
    from kernelscope.rl.tasks import load_corpus

    if not corpus.is_dir():
        fail(f"{corpus}: no such corpus folder")
    if not measurements.is_file():
        fail(f"{measurements}: no measurements file (run benchmarks/gpu/measure_corpus.py on a GPU)")
    table = training_table(corpus_features(load_corpus(str(corpus))), load_measurements(measurements))
    if table.empty:
        fail("no measured implementation matches the corpus (check problem and implementation names)")
    return table


def _largest_size(table) -> str:
    """The size name measured with the longest median time (the corpus calls it "large")."""
    return str(table.groupby("size")["time_ms"].median().idxmax())


def analyze_file(source: str, path: str, block, bindings) -> dict:
    """The analysis the compare command ranks on (a seam the tests replace)."""
    from kernelscope.rl.reward import default_analyze

    return default_analyze(source, block=block, bindings=bindings)


@click.group(name="rank")
def rank():
    """Train, evaluate or apply the pairwise ranker (which of two kernels is faster)."""


@rank.command(name="train")
@click.option("--corpus", "corpus", type=click.Path(path_type=Path), default=None,
              help="Folder of problems (default: the checkout's corpus/).")
@click.option("--measurements", type=click.Path(path_type=Path), default=None,
              help="Measured times CSV (default: profiles/measured/corpus_h200.csv).")
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Where to write the .skops model.")
@click.option("--report", type=click.Path(path_type=Path), default=None,
              help="Also write the leave-one-problem-out report (markdown) here.")
@click.option("--C", "C", type=float, default=1.0, show_default=True, help="Inverse regularisation strength.")
@exits_2_on_error
def train_command(corpus, measurements, output, report, C):
    """Fit the ranker on every measured pair and report leave-one-problem-out accuracy."""
    from kernelscope.rl.ranker import save_model
    from kernelscope.rl.ranker_training import cross_validate, format_report, train

    from kernelscope.rl.reward import RewardConfig
    from kernelscope.rl.reward_eval import format_correlation, leave_problem_out_rewards, reward_speed_correlation
    from kernelscope.rl.tasks import load_corpus

    corpus = corpus or _default_corpus()
    TERMINAL.note(f"rank train: analysing the corpus in {corpus} ...")
    table = _training_table(corpus, measurements or _default_measurements())
    TERMINAL.note(f"rank train: {len(table)} measured rows; leave-one-problem-out cross-validation ...")
    evaluation = cross_validate(table, C=C)
    TERMINAL.note("rank train: fitting the final model ...")
    save_model(train(table, C=C), output)
    TERMINAL.note("rank train: reward/speed correlation, one held-out model per problem ...")
    correlation = reward_speed_correlation(
        load_corpus(str(corpus)), table, size=_largest_size(table),
        reward_factory=leave_problem_out_rewards(table, RewardConfig(mode="static"), C=C))
    text = format_report(evaluation) + "\n" + format_correlation(correlation)
    if report:
        report.write_text(text)
    echo(text, nl=False)
    echo(f"model written to {output}")


@rank.command(name="eval")
@click.option("--model", type=click.Path(path_type=Path), default=None, help="A .skops model (default: the shipped one).")
@click.option("--corpus", "corpus", type=click.Path(path_type=Path), default=None,
              help="Folder of problems (default: the checkout's corpus/).")
@click.option("--measurements", type=click.Path(path_type=Path), default=None,
              help="Measured times CSV (default: profiles/measured/corpus_h200.csv).")
@click.option("--min-ratio", type=float, default=1.2, show_default=True,
              help="Only judge pairs whose measured times differ by at least this factor.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for reading, json for scripts.")
@exits_2_on_error
def eval_command(model, corpus, measurements, min_ratio, output_format):
    """Judge a trained model on measured pairs: accuracy and Kendall tau."""
    from kernelscope.rl.ranker import load_model
    from kernelscope.rl.ranker_training import evaluate_model

    table = _training_table(corpus or _default_corpus(), measurements or _default_measurements())
    result = evaluate_model(load_model(model), table, min_ratio=min_ratio)
    if output_format == "json":
        echo(json.dumps(result, indent=2))
    else:
        echo(f"pairs with time ratio >= {min_ratio}: {result['pairs']}")
        echo(f"pairwise accuracy: {result['accuracy']:.3f}")
        echo(f"mean Kendall tau per (problem, size): {result['kendall_tau_mean']:.3f}")


def _split_target(text: str) -> tuple[Path, str | None]:
    """FILE.cu or FILE.cu:KERNEL."""
    match = re.fullmatch(r"(.+?):([A-Za-z_]\w*)", text)
    path, kernel = (Path(match.group(1)), match.group(2)) if match else (Path(text), None)
    if not path.is_file():
        fail(f"{path}: no such file")
    return path, kernel


@rank.command(name="compare")
@click.argument("first")
@click.argument("second")
@click.option("--block", default=None, help="Block shape where no launch site gives one (256, 16x16, ...).")
@click.option("--arg", "args", multiple=True, help="Bind a scalar parameter, NAME=VALUE (repeatable).")
@click.option("--model", type=click.Path(path_type=Path), default=None, help="A .skops model (default: the shipped one).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for reading, json for scripts.")
@exits_2_on_error
def compare_command(first, second, block, args, model, output_format):
    """Predict which of two kernels (A.cu[:KERNEL] B.cu[:KERNEL]) is faster."""
    from kernelscope.rl.ranker import feature_vector, kernel_features, load_model
    from kernelscope.rl.structure import pick_kernel

    block_shape = parse_block(block)
    bindings = parse_bindings(args)
    vectors = []
    for target in (first, second):
        path, name = _split_target(target)
        analysis = analyze_file(path.read_text(errors="replace"), str(path), block_shape, bindings)
        kernel = pick_kernel(analysis, name)
        if kernel is None or (name and kernel.get("name") != name):
            fail(f"{target}: no kernel {'named ' + name if name else ''} found".replace("  ", " "))
        vectors.append(feature_vector(kernel_features(kernel)))
    p_first = float(load_model(model).predict_proba((vectors[0] - vectors[1])[None, :])[0, 1])
    faster, probability = ("A", p_first) if p_first >= 0.5 else ("B", 1.0 - p_first)
    if output_format == "json":
        echo(json.dumps({"faster": faster, "probability": round(probability, 6)}))
    else:
        label = first if faster == "A" else second
        echo(f"{label} is predicted faster (probability {probability:.2f})")

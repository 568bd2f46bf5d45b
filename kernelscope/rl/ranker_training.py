"""Training and evaluating the pairwise ranker on the corpus and its measured times.

corpus problems --static analysis per implementation and size--> feature table
measured times (profiles/measured/corpus_h200.csv) --join--> pairs --leave-problem-out--> report
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Callable

import numpy as np

from kernelscope.rl.ranker import FEATURE_NAMES, PairwiseRanker, kernel_features, make_pairs
from kernelscope.rl.structure import pick_kernel

log = logging.getLogger(__name__)


def implementation_id(name) -> str:
    """Measurement files name implementations by file or by stem; compare stems."""
    return Path(str(name)).stem


def corpus_features(tasks: dict, analyze_fn: Callable | None = None):
    """One row per (problem, implementation, size) with the ranker's features."""
    import pandas as pd

    if analyze_fn is None:
        from kernelscope.rl.reward import default_analyze as analyze_fn
    rows = []
    for task in tasks.values():
        for implementation in task.single_kernel_implementations:   # features describe one kernel
            source = task.implementation_source(implementation["file"])
            for size in task.sizes:
                try:
                    analysis = analyze_fn(source, block=task.implementation_block(implementation),
                                          bindings=task.bindings(size))
                except Exception as exc:  # noqa: BLE001 - one analyzer failure must not lose the corpus
                    log.warning("%s/%s at %s: analysis failed: %s: %s", task.name, implementation["file"],
                                size, type(exc).__name__, exc)
                    continue
                kernel = pick_kernel(analysis, implementation.get("kernel"))
                if kernel is None:
                    continue
                features = kernel_features(kernel, task.threads(implementation, size))
                rows.append({"problem": task.name, "implementation": implementation_id(implementation["file"]),
                             "strategy": implementation.get("strategy", ""), "size": size, **features})
    return pd.DataFrame(rows)


def load_measurements(path):
    """Correct measurements only: problem, implementation (stem), size, time_ms."""
    import pandas as pd

    table = pd.read_csv(path)
    if "correct" in table:
        table = table[table["correct"].astype(str).str.lower().isin(["true", "1", "yes"])]
    table = table.assign(implementation=table["implementation"].map(implementation_id))
    table = table[np.isfinite(pd.to_numeric(table["time_ms"], errors="coerce"))]
    return table[["problem", "implementation", "size", "time_ms"]].astype({"time_ms": float})


def training_table(features, measurements):
    return features.merge(measurements, on=["problem", "implementation", "size"], how="inner")


def train(table, C: float = 1.0) -> PairwiseRanker:
    pairs = make_pairs(table)
    return PairwiseRanker(C=C).fit(pairs.X, pairs.y, sample_weight=_pair_weights(pairs.ratio))


def _pair_weights(ratio: np.ndarray) -> np.ndarray:
    """Near-ties are mostly timing noise: weight a pair by how clearly one side won (log of the ratio)."""
    return np.minimum(np.log2(ratio), 3.0) + 0.05


def kendall_tau(scores, times) -> float | None:
    """Kendall's tau-a between predicted utility and speed (higher utility should mean lower time)."""
    n = len(scores)
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            product = (scores[i] - scores[j]) * (times[j] - times[i])
            concordant += product > 0
            discordant += product < 0
    pairs = n * (n - 1) / 2
    return None if pairs == 0 else (concordant - discordant) / pairs


def cross_validate(table, *, min_ratio: float = 1.2, C: float = 1.0) -> dict:
    """Leave-one-problem-out: for each problem, train on all others and judge its pairs.

    Reports the ranker's accuracy on held-out pairs whose times differ by >= min_ratio, the mean Kendall
    tau per (problem, size), and every single-feature baseline (each feature alone, with the direction
    it points in on the training problems) on exactly the same pairs."""
    problems = sorted(table["problem"].unique())
    correct = total = 0
    baseline_correct = np.zeros(len(FEATURE_NAMES))
    taus = []
    per_problem = {}
    for problem in problems:
        train_rows = table[table["problem"] != problem]
        test_rows = table[table["problem"] == problem]
        train_pairs = make_pairs(train_rows)
        test_pairs = make_pairs(test_rows)
        if len(train_pairs.y) == 0:
            continue
        model = PairwiseRanker(C=C).fit(train_pairs.X, train_pairs.y,
                                        sample_weight=_pair_weights(train_pairs.ratio))
        clear = test_pairs.ratio >= min_ratio
        hits = model.predict(test_pairs.X[clear]) == test_pairs.y[clear]
        correct += int(hits.sum())
        total += int(clear.sum())
        directions = np.sign(((2 * train_pairs.y - 1)[:, None] * np.sign(train_pairs.X)).sum(axis=0))
        # +1: the feature says A is faster, -1: B, 0: it cannot tell them apart (half a point)
        says = np.sign(test_pairs.X[clear]) * directions
        truth = (2 * test_pairs.y[clear] - 1)[:, None]
        baseline_correct += np.where(says == 0, 0.5, says == truth).sum(axis=0)
        for _, rows in test_rows.groupby("size"):
            tau = kendall_tau(model.utility(rows[list(FEATURE_NAMES)].to_numpy(float)),
                              rows["time_ms"].to_numpy(float))
            if tau is not None:
                taus.append(tau)
        per_problem[problem] = {"pairs": int(clear.sum()), "correct": int(hits.sum())}
    baselines = {name: (baseline_correct[i] / total if total else math.nan) for i, name in enumerate(FEATURE_NAMES)}
    return {"accuracy": correct / total if total else math.nan, "pairs": total, "min_ratio": min_ratio,
            "kendall_tau_mean": float(np.mean(taus)) if taus else math.nan, "kendall_tau_groups": len(taus),
            "problems": len(per_problem), "best_single_feature": max(baselines, key=baselines.get) if total else None,
            "single_feature_accuracy": baselines, "per_problem": per_problem}


def evaluate_model(model: PairwiseRanker, table, *, min_ratio: float = 1.2) -> dict:
    """A trained model on measured pairs (no refitting): accuracy on clear pairs, Kendall tau per group."""
    pairs = make_pairs(table)
    clear = pairs.ratio >= min_ratio
    accuracy = float((model.predict(pairs.X[clear]) == pairs.y[clear]).mean()) if clear.any() else math.nan
    taus = [kendall_tau(model.utility(rows[list(FEATURE_NAMES)].to_numpy(float)), rows["time_ms"].to_numpy(float))
            for _, rows in table.groupby(["problem", "size"])]
    taus = [t for t in taus if t is not None]
    return {"accuracy": accuracy, "pairs": int(clear.sum()), "min_ratio": min_ratio,
            "kendall_tau_mean": float(np.mean(taus)) if taus else math.nan, "kendall_tau_groups": len(taus)}


def format_report(report: dict) -> str:
    """The markdown kept next to the shipped model."""
    lines = ["# Pairwise ranker: leave-one-problem-out evaluation", "",
             f"- problems: {report['problems']}",
             f"- held-out pairs with time ratio >= {report['min_ratio']}: {report['pairs']}",
             f"- pairwise accuracy: {report['accuracy']:.3f}",
             f"- mean Kendall tau per (problem, size): {report['kendall_tau_mean']:.3f} "
             f"over {report['kendall_tau_groups']} groups", "",
             "| single-feature baseline | accuracy |", "| --- | --- |"]
    for name, value in sorted(report["single_feature_accuracy"].items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {value:.3f} |")
    return "\n".join(lines) + "\n"

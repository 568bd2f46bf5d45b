"""Does the static-only reward order a problem's implementations the way the GPU does?

For every problem, each measured implementation is scored by the static reward as it is launched (its
own block and grid) and the scores are compared with measured speed by Spearman's rank correlation.
The ranker term must not have seen the problem it scores, so each problem gets a ranker trained on the
other problems only (leave-one-problem-out), exactly as a new problem would at training time.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import numpy as np


def spearman(scores, speeds) -> float | None:
    """Spearman's rho (ties get average ranks); None when either side is constant or too short."""
    from scipy.stats import spearmanr

    if len(scores) < 3 or len(set(scores)) < 2 or len(set(speeds)) < 2:
        return None
    rho = spearmanr(scores, speeds).statistic
    return None if math.isnan(rho) else float(rho)


def reward_speed_correlation(tasks: dict, table, *, size: str = "large", reward_factory: Callable,
                             min_implementations: int = 3) -> dict:
    """`table`: the ranker's training table (features and time_ms per problem, implementation, size).
    `reward_factory(held_out_problem) -> UnifiedReward` builds the reward used for that problem."""
    from kernelscope.rl.ranker_training import implementation_id

    per_problem = {}
    for name, task in sorted(tasks.items()):
        measured = table[(table["problem"] == name) & (table["size"] == size)]
        times = dict(zip(measured["implementation"], measured["time_ms"]))
        chosen = [impl for impl in task.implementations if implementation_id(impl["file"]) in times]
        if len(chosen) < min_implementations:
            continue
        reward = reward_factory(name)
        scores, speeds = [], []
        for implementation in chosen:
            source = task.implementation_source(implementation["file"])
            result = reward(f"```cuda\n{source}\n```", task.for_implementation(implementation))
            scores.append(result.total)
            speeds.append(1.0 / times[implementation_id(implementation["file"])])
        per_problem[name] = {"rho": spearman(scores, speeds), "scores": scores, "speeds": speeds,
                             "implementations": [implementation_id(i["file"]) for i in chosen]}
    rhos = [entry["rho"] for entry in per_problem.values() if entry["rho"] is not None]
    return {"size": size, "problems": len(per_problem), "problems_with_rho": len(rhos),
            "median_spearman": float(np.median(rhos)) if rhos else math.nan,
            "mean_spearman": float(np.mean(rhos)) if rhos else math.nan, "per_problem": per_problem}


def leave_problem_out_rewards(table, config, *, C: float = 1.0, analyze_fn=None) -> Callable:
    """A reward factory whose ranker, for each problem, was trained without that problem."""
    from kernelscope.rl.ranker import reference_ranker_fn
    from kernelscope.rl.ranker_training import train
    from kernelscope.rl.reward import UnifiedReward

    # the corpus implementations all compile (the runner verified them on the H200), so the compile
    # gate would only cost time here
    config = replace(config, compile_check="off")

    def factory(held_out: str):
        ranker = train(table[table["problem"] != held_out], C=C)
        kwargs = {"analyze_fn": analyze_fn} if analyze_fn else {}
        return UnifiedReward(config, ranker_fn=reference_ranker_fn(ranker=ranker, **kwargs), **kwargs)

    return factory


def format_correlation(report: dict) -> str:
    lines = [f"## Static reward vs measured speed ({report['size']} size)", "",
             f"- problems with at least three measured implementations: {report['problems']}",
             f"- median Spearman rho over problems: {report['median_spearman']:.3f} "
             f"(mean {report['mean_spearman']:.3f}, {report['problems_with_rho']} problems with a defined rho)", "",
             "| problem | rho | implementations (static reward, speed 1/ms) |", "| --- | --- | --- |"]
    for name, entry in report["per_problem"].items():
        rho = "n/a" if entry["rho"] is None else f"{entry['rho']:.2f}"
        detail = ", ".join(f"{i} ({s:.2f}, {v:.3g})" for i, s, v in
                           zip(entry["implementations"], entry["scores"], entry["speeds"]))
        lines.append(f"| {name} | {rho} | {detail} |")
    return "\n".join(lines) + "\n"

"""Which static features separate fast from slow implementations of the same problem?

For every corpus problem, every implementation is analysed with the launch it is measured with
(the spec's block and grid at that size, scalar arguments bound), and each feature of
`kernelscope.features` is correlated (Spearman) with the measured H200 time within the problem.
Prints, per feature, the median correlation over problems and the number of problems where it is
defined; writes the table to profiles/measured/feature_correlation.csv. Positive means "larger
value, slower kernel".

    python benchmarks/feature_correlation.py [--size large] [--measurements profiles/measured/corpus_h200.csv]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from kernelscope.analyze import analyze_path
from kernelscope.features import FEATURE_NAMES, kernel_features
from kernelscope.runner import load_spec
from kernelscope.runner.plan import single_launch

ROOT = Path(__file__).resolve().parents[1]


def corpus_rows(size: str) -> list[dict]:
    rows = []
    for spec_path in sorted((ROOT / "corpus").glob("*/spec.toml")):
        spec = load_spec(spec_path)
        variables = spec.variables(size)
        bindings = {k: int(v) for k, v in variables.items() if float(v).is_integer()}
        for implementation in spec.implementations:
            launch = single_launch(spec, implementation, size)   # its file's plan, or [launch]
            if launch is None:       # a plan of several kernels: one feature row cannot describe it
                continue
            result = analyze_path(spec.resolve(implementation.file), block=launch.block, grid=launch.grid,
                                  bindings=bindings, dynamic_smem=launch.dynamic_smem, registers="auto")
            kernels = [k for k in result.kernels if k.kernel.name == launch.kernel]
            if not kernels:
                continue
            rows.append({"problem": spec.name, "implementation": Path(implementation.file).name,
                         "strategy": implementation.strategy, **kernel_features(kernels[0])})
    return rows


def spearman_by_problem(table: pd.DataFrame) -> pd.DataFrame:
    records = []
    for feature in FEATURE_NAMES:
        values = []
        for _, group in table.groupby("problem"):
            x, y = group[feature], group["time_ms"]
            if x.nunique() < 2 or x.isna().any():
                continue
            values.append(x.rank().corr(y.rank()))
        values = [v for v in values if np.isfinite(v)]
        if values:
            records.append({"feature": feature, "median_spearman": float(np.median(values)),
                            "mean_spearman": float(np.mean(values)), "problems": len(values)})
    return pd.DataFrame(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="large")
    parser.add_argument("--measurements", default=str(ROOT / "profiles" / "measured" / "corpus_h200.csv"))
    parser.add_argument("--out", default=str(ROOT / "profiles" / "measured" / "feature_correlation.csv"))
    parser.add_argument("--min-problems", type=int, default=20,
                        help="rank only features defined (varying) in at least this many problems")
    args = parser.parse_args()
    measured = pd.read_csv(args.measurements)
    measured = measured[(measured["size"] == args.size) & (measured["correct"].astype(str) == "True")]
    features = pd.DataFrame(corpus_rows(args.size))
    table = features.merge(measured[["problem", "implementation", "time_ms"]], on=["problem", "implementation"])
    result = spearman_by_problem(table)
    # with three implementations per problem a single correlation takes only a few values, so
    # rank by the mean over problems (the median is reported beside it)
    result = result.assign(strength=result["mean_spearman"].abs()).sort_values(
        ["strength", "problems"], ascending=False).drop(columns="strength")
    result.to_csv(args.out, index=False, float_format="%.4f")
    print(f"{table['problem'].nunique()} problems, {len(table)} implementations at size {args.size!r}")
    print(result.head(15).to_string(index=False))
    top = result[result["problems"] >= args.min_problems].head(3)
    print(f"\nmost predictive (defined in >= {args.min_problems} problems):")
    for row in top.itertuples():
        print(f"  {row.feature}: mean Spearman {row.mean_spearman:+.2f}, median {row.median_spearman:+.2f}, "
              f"over {row.problems} problems")


if __name__ == "__main__":
    main()

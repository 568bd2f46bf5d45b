"""How far the register estimate (no nvcc) lands from ptxas, over every kernel in the repository.

    python benchmarks/bench_estimator.py [--out profiles/measured/estimator_error.csv] [--fit]

For each .cu file that nvcc compiles for sm_90, every kernel the front end finds is estimated with
kernelscope.resources.estimate_usage and compared with ptxas (a template with its worst
instantiation, as kernelscope analyze uses it). Prints the median and mean absolute error next to
a baseline measured in the same run: always guessing the corpus' median register count.
--fit refits ESTIMATOR_WEIGHTS by non-negative least squares and prints their 5-fold
cross-validated error (folds by file), since the shipped weights were fitted on this same corpus.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelscope.errors import KernelscopeError  # noqa: E402
from kernelscope.frontend import parse_file  # noqa: E402
from kernelscope.resources import (ESTIMATOR_WEIGHTS, MIN_REGISTERS, estimate_usage,  # noqa: E402
                                   estimator_features, ptxas_usage)

SKIP_DIRS = {".venv", ".git", "node_modules", "fixtures"}


def _sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.cu") if not SKIP_DIRS & set(p.relative_to(ROOT).parts))


def _measure(path: Path):
    """Rows for one file, or None when nvcc or the front end rejects it."""
    text = path.read_text(errors="replace")
    try:
        measured = ptxas_usage(text, "sm_90", filename=path.name)
        model = parse_file(text, str(path))
    except (KernelscopeError, RecursionError, ValueError):
        return None
    rows = []
    for kernel in model.kernels:
        usage = measured.get(kernel.name)
        if usage is None:
            continue
        estimate = estimate_usage(kernel)
        rows.append({"path": str(path.relative_to(ROOT)), "kernel": kernel.name,
                     "ptxas_registers": usage.registers, "estimated_registers": estimate.registers,
                     "error": estimate.registers - usage.registers, **estimator_features(kernel)})
    return rows


def _summary(errors) -> str:
    absolute = [abs(e) for e in errors]
    within = sum(a <= 4 for a in absolute) / len(absolute)
    return (f"median |error| {statistics.median(absolute):.1f}, mean {statistics.fmean(absolute):.2f}, "
            f"within 4 registers {within:.0%}")


def _fit(rows):
    import numpy as np
    from scipy.optimize import nnls

    names = [name for name in rows[0] if name in ESTIMATOR_WEIGHTS]
    features = np.array([[row[name] for name in names] for row in rows], dtype=float)
    target = np.array([row["ptxas_registers"] for row in rows], dtype=float)
    files = sorted({row["path"] for row in rows})
    np.random.default_rng(0).shuffle(files)
    predicted = np.zeros(len(rows))
    for fold in range(5):
        held_out = set(files[fold::5])
        test = np.array([row["path"] in held_out for row in rows])
        weights = nnls(features[~test], target[~test])[0]
        predicted[test] = features[test] @ weights
    predicted = np.maximum(np.round(predicted), MIN_REGISTERS)
    print("5-fold cross-validated (by file):", _summary(list(predicted - target)))
    weights = nnls(features, target)[0]
    print("weights fitted on everything:", {n: round(float(w), 2) for n, w in zip(names, weights)})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "profiles" / "measured" / "estimator_error.csv")
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    sources = _sources()
    with ThreadPoolExecutor() as pool:
        results = list(pool.map(_measure, sources))
    rows = [row for result in results if result for row in result]
    skipped = sum(result is None for result in results)
    print(f"{len(rows)} kernels from {len(sources) - skipped} files ({skipped} files nvcc or the front end rejected)")
    median_registers = statistics.median(row["ptxas_registers"] for row in rows)
    baseline = [median_registers - row["ptxas_registers"] for row in rows]
    estimate = [row["error"] for row in rows]
    print("estimate_usage:                ", _summary(estimate))
    print(f"baseline (always {median_registers:g} registers):", _summary(baseline))
    ratio = statistics.fmean(abs(e) for e in estimate) / statistics.fmean(abs(e) for e in baseline)
    print(f"mean |error| ratio estimate / baseline: {ratio:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    if args.fit:
        _fit(rows)


if __name__ == "__main__":
    main()

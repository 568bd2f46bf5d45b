"""Per-problem speed baselines: what a candidate's speed is measured against.

The runner times every candidate against the problem's reference, which is often a slow library
call (a CuPy expression that launches several kernels): beating it says little. Each problem's
baseline is the strongest known way to compute it on the GPU: eager PyTorch for PyTorch-style
problems (where torch was installed on the machine that measured it), otherwise the fastest corpus
implementation. The table (`profiles/measured/baselines_h200.csv`, made by
benchmarks/gpu/measure_baselines.py) holds, per problem and size, the baseline's time and the
reference's time measured in the same process, so a candidate's speedup over the baseline is

    (its speedup over the reference, measured with it) / (the baseline's speedup over the reference)

which does not depend on how fast the machine of either run was, only on the ratio staying put.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kernelscope.errors import InputError
from kernelscope.paths import data_dir

BASELINE_FILE = "measured/baselines_h200.csv"
KINDS = ("torch_eager", "fastest_implementation", "reference")


@dataclass(frozen=True)
class Baseline:
    problem: str
    kind: str                  # torch_eager | fastest_implementation | reference
    name: str                  # what it is: "torch.softmax", "warp_shuffle.cu", ...
    reference_ratio: dict      # size -> reference time / baseline time, measured together

    def speedup_over_reference(self, sizes=None) -> float:
        """Geometric mean over `sizes` (all when None) of how much faster than the reference it is."""
        chosen = list(sizes) if sizes else list(self.reference_ratio)
        missing = [s for s in chosen if s not in self.reference_ratio]
        if missing:
            raise InputError(f"{self.problem}: the baseline was not measured at size(s) {', '.join(missing)}")
        return math.exp(sum(math.log(self.reference_ratio[s]) for s in chosen) / len(chosen))


def load_baselines(path: str | Path | None = None) -> dict[str, Baseline]:
    """Baselines by problem name, from the committed table (or `path`)."""
    return dict(_load(str(path or data_dir("profiles") / BASELINE_FILE)))


@lru_cache(maxsize=4)
def _load(path: str) -> tuple:
    try:
        rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
    except OSError as exc:
        raise InputError(f"cannot read the baselines table {path}: {exc}") from None
    found: dict[str, dict] = {}
    for number, row in enumerate(rows, 2):
        try:
            kind, problem, size = row["kind"], row["problem"], row["size"]
            baseline, reference = float(row["baseline_ms"]), float(row["reference_ms"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path}:{number}: needs problem, size, kind, name, baseline_ms, reference_ms") from None
        if kind not in KINDS or not baseline > 0 or not reference > 0:
            raise InputError(f"{path}:{number}: bad baseline row for {problem} {size}")
        entry = found.setdefault(problem, {"kind": kind, "name": row.get("name", ""), "ratios": {}})
        entry["ratios"][size] = reference / baseline
    return tuple((problem, Baseline(problem, e["kind"], e["name"], e["ratios"])) for problem, e in found.items())

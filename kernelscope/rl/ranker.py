"""The offline pairwise ranker: which of two implementations of the same problem runs faster.

It learns from feature differences: for implementations A and B of one problem at one size, the input is
phi(A) - phi(B) and the label is 1 when A was measured faster. The model is linear without intercept
(a logistic regression on standardised differences), so it is antisymmetric - swapping A and B flips
the probability - and it implies a utility per kernel, w . phi(x), that the reward uses to score a single
candidate against the task's reference implementation.

phi is built from the static analysis of each kernel at the size it runs (`kernel_features`): counts of
global and shared accesses weighted by how often they execute, sectors per request, traffic and FLOP
totals on a log scale, occupancy, synchronisation. Heavy-tailed quantities enter as log2 so that the
model compares ratios, which is what a speedup is.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DEFAULT_MODEL = "models/ranker.skops"
log = logging.getLogger(__name__)


def _log2(value) -> float:
    return math.log2(1.0 + max(0.0, float(value)))


def _number(value, default=0.0) -> float:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else default


def kernel_features(kernel: dict, threads: int | None = None) -> dict[str, float]:
    """Ranker features of one kernel's analysis (DESIGN JSON). `threads` is grid x block of the launch;
    without it, the analysis's launch site is used when it has one, else a single block."""
    weighted = {"global_load": 0.0, "global_store": 0.0, "shared": 0.0, "atomic": 0.0}
    sectors = 0.0
    shared_wavefronts = 0.0
    widest = 0.0
    uncoalesced = 0.0
    for access in kernel.get("accesses", []):
        weight = _number(access.get("exec_weight"), 1.0) or 1.0
        if access.get("space") == "global":
            weighted[{"store": "global_store", "atomic": "atomic"}.get(access.get("op"), "global_load")] += weight
            per_request = _number(access.get("sectors_per_request"), 32.0)
            sectors += weight * per_request
            widest = max(widest, _number(access.get("elem_bytes"), 4.0))
            if access.get("pattern") not in ("coalesced", "broadcast"):
                uncoalesced += weight
        elif access.get("space") == "shared":
            weighted["shared"] += weight
            shared_wavefronts += weight * max(1.0, _number(access.get("bank_ways"), 1.0))
    occupancy = kernel.get("occupancy") or {}
    intensity = kernel.get("intensity") or {}
    sync = kernel.get("sync") or {}
    block = kernel.get("block") or [1, 1, 1]
    block_size = max(1, int(np.prod([int(_number(b, 1)) or 1 for b in block])))
    grid = kernel.get("grid")  # known when the file launches the kernel with constant sizes
    if threads is None and isinstance(grid, (list, tuple)) and all(isinstance(g, int) and g > 0 for g in grid):
        threads = block_size * int(np.prod(grid))
    threads = threads or block_size
    warps = threads / 32.0
    global_accesses = weighted["global_load"] + weighted["global_store"] + weighted["atomic"]
    return {
        "log_threads": _log2(threads),
        "log_block_size": _log2(block_size),
        "log_global_accesses_per_thread": _log2(global_accesses),
        "log_shared_accesses_per_thread": _log2(weighted["shared"]),
        "log_total_sectors": _log2(sectors * warps),
        "log_total_shared_wavefronts": _log2(shared_wavefronts * warps),
        "log_total_global_bytes": _log2(_number(intensity.get("global_bytes_per_thread")) * threads),
        "log_total_flops": _log2(_number(intensity.get("flops_per_thread")) * threads),
        "log_arithmetic_intensity": _log2(_number(intensity.get("arithmetic_intensity"))),
        "sectors_per_access": sectors / global_accesses if global_accesses else 0.0,
        "uncoalesced_share": uncoalesced / global_accesses if global_accesses else 0.0,
        "vector_bytes": widest,
        "theoretical_occupancy": _number(occupancy.get("theoretical_occupancy"), 0.5),
        "log_registers": _log2(_number(occupancy.get("registers"), 32.0)),
        "barriers": _number(sync.get("barriers")),
        "log_atomics": _log2(weighted["atomic"] * threads),
        "divergent_branches": _number((kernel.get("divergence") or {}).get("divergent_branches")),
    }


FEATURE_NAMES = tuple(kernel_features({}))


class PairwiseRanker:
    """scikit-learn style estimator over pair differences X = phi(A) - phi(B), y = 1 when A is faster.

    `fit` adds every pair both ways round, so the model sees no order; `predict_proba` gives P(A faster);
    `utility` scores single kernels (higher = faster) in the same units."""

    def __init__(self, C: float = 1.0, max_iter: int = 2000):
        self.C = C
        self.max_iter = max_iter

    def get_params(self, deep: bool = True) -> dict:
        return {"C": self.C, "max_iter": self.max_iter}

    def set_params(self, **params) -> "PairwiseRanker":
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def fit(self, X, y, sample_weight=None) -> "PairwiseRanker":
        from sklearn.linear_model import LogisticRegression

        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=int)
        both_ways = np.vstack([X, -X])
        labels = np.concatenate([y, 1 - y])
        weights = None if sample_weight is None else np.concatenate([sample_weight, sample_weight])
        # scale by the spread of the differences; no centring, which would break antisymmetry
        self.scale_ = np.sqrt((both_ways ** 2).mean(axis=0))
        self.scale_[self.scale_ == 0] = 1.0
        self.model_ = LogisticRegression(C=self.C, fit_intercept=False, max_iter=self.max_iter)
        self.model_.fit(both_ways / self.scale_, labels, sample_weight=weights)
        self.coef_ = self.model_.coef_[0] / self.scale_
        self.classes_ = np.array([0, 1])
        return self

    def decision_function(self, X) -> np.ndarray:
        return np.asarray(X, dtype=float) @ self.coef_

    def predict_proba(self, X) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-self.decision_function(X)))
        return np.column_stack([1.0 - p, p])

    def predict(self, X) -> np.ndarray:
        return (self.decision_function(X) > 0).astype(int)

    def score(self, X, y) -> float:
        return float((self.predict(X) == np.asarray(y)).mean())

    def utility(self, features) -> np.ndarray:
        """w . phi(x) per kernel: differences of utilities are the pairwise log-odds."""
        return np.atleast_2d(np.asarray(features, dtype=float)) @ self.coef_


def feature_vector(features: dict, names=FEATURE_NAMES) -> np.ndarray:
    return np.array([float(features.get(name, 0.0)) for name in names])


# ---- pairs from measurements ----------------------------------------------------------------------

@dataclass(frozen=True)
class PairSet:
    X: np.ndarray          # phi(A) - phi(B)
    y: np.ndarray          # 1 when A was faster
    ratio: np.ndarray      # slower time / faster time (>= 1)
    groups: np.ndarray     # problem of each pair (for leave-problem-out)
    keys: list             # (problem, size, implementation A, implementation B)


def make_pairs(table) -> PairSet:
    """Every pair of correct implementations of the same problem and size from a table with columns
    problem, size, implementation, time_ms and the feature columns."""
    X, y, ratio, groups, keys = [], [], [], [], []
    for (problem, size), rows in table.groupby(["problem", "size"], sort=True):
        rows = rows.reset_index(drop=True)
        vectors = rows[list(FEATURE_NAMES)].to_numpy(dtype=float)
        times = rows["time_ms"].to_numpy(dtype=float)
        for i in range(len(rows)):
            for j in range(i + 1, len(rows)):
                if times[i] == times[j]:
                    continue
                X.append(vectors[i] - vectors[j])
                y.append(int(times[i] < times[j]))
                ratio.append(max(times[i], times[j]) / min(times[i], times[j]))
                groups.append(problem)
                keys.append((problem, size, rows.at[i, "implementation"], rows.at[j, "implementation"]))
    width = len(FEATURE_NAMES)
    return PairSet(np.array(X).reshape(-1, width), np.array(y, dtype=int), np.array(ratio),
                   np.array(groups), keys)


# ---- persistence (skops, not pickle: loading never runs arbitrary code) ---------------------------

def save_model(ranker: PairwiseRanker, path: str | Path) -> None:
    import skops.io as sio

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    sio.dump(ranker, str(path))


TRUSTED_TYPES = ["kernelscope.rl.ranker.PairwiseRanker"]


def load_model(path: str | Path | None = None) -> PairwiseRanker:
    """Load a ranker; only our own estimator class and scikit-learn's are trusted."""
    import skops.io as sio

    from kernelscope.paths import profile_file

    path = Path(path) if path else profile_file(DEFAULT_MODEL)
    untrusted = sio.get_untrusted_types(file=str(path))
    unexpected = [t for t in untrusted if t not in TRUSTED_TYPES and not t.startswith(("sklearn.", "numpy."))]
    if unexpected:
        raise ValueError(f"{path}: refusing to load untrusted types {unexpected}")
    return sio.load(str(path), trusted=untrusted)


def reference_ranker_fn(path=None, *, ranker: PairwiseRanker | None = None, analyze_fn=None):
    """For the reward: (kernel analysis, task) -> the mean probability that the kernel beats each of the
    task's known implementations. Against the naive one alone the probability saturates near 1 for
    every decent kernel; against all of them it keeps separating good from best. Tasks without
    implementations get 0.5 (no opinion)."""
    if analyze_fn is None:
        from kernelscope.rl.reward import default_analyze as analyze_fn
    ranker = ranker or load_model(path)
    references: dict[str, np.ndarray] = {}

    def reference_vectors(task) -> np.ndarray:
        if task.name not in references:
            from kernelscope.rl.structure import pick_kernel

            vectors = []
            for implementation in task.single_kernel_implementations:
                analysis = analyze_fn(task.implementation_source(implementation["file"]),
                                      block=task.implementation_block(implementation), bindings=task.bindings())
                kernel = pick_kernel(analysis, implementation.get("kernel"))
                if kernel is not None:
                    vectors.append(feature_vector(kernel_features(kernel, task.threads(implementation))))
            references[task.name] = np.array(vectors).reshape(-1, len(FEATURE_NAMES))
        return references[task.name]

    def probability(kernel: dict, task) -> float:
        known = reference_vectors(task)
        if len(known) == 0:
            return 0.5
        candidate = feature_vector(kernel_features(kernel, task.threads()))
        return float(ranker.predict_proba(candidate[None, :] - known)[:, 1].mean())

    return probability


def shipped_ranker_fn():
    """The reward's ranker term from the model shipped in profiles/models/, or None (with a warning)
    when it or skops is missing: the reward then gives the ranker part 0.5, no opinion."""
    from kernelscope.paths import profile_file

    path = profile_file(DEFAULT_MODEL)
    import importlib.util

    if importlib.util.find_spec("skops") is None:
        log.warning("skops is not installed: the reward runs without the pairwise ranker")
        return None
    if not path.exists():
        log.warning("%s does not exist: the reward runs without the pairwise ranker", path)
        return None
    return reference_ranker_fn(path)

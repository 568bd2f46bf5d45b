"""Evaluate many candidates at once: compilation over the CPU cores, execution over the GPUs.

    from kernelscope.batch import EvalOptions, run_batch
    outcomes = run_batch("candidates.jsonl", EvalOptions(seed=1), workers=2)

Backends: `local` (one worker process per visible GPU) and `ray` (actors of one GPU each on a Ray
cluster; needs the `ray` extra). Each record is the one `kernelscope run` gives for that candidate.
Importing this package is cheap; the runner, CuPy and Ray load when a batch starts.
"""

from __future__ import annotations

from kernelscope.batch.api import iter_batch, run_batch
from kernelscope.batch.evaluator import EvalOptions, Prepared, RunnerEvaluator
from kernelscope.batch.items import BatchItem, load_items
from kernelscope.batch.scheduler import BatchOutcome

__all__ = ["BatchItem", "BatchOutcome", "EvalOptions", "Prepared", "RunnerEvaluator", "iter_batch", "load_items",
           "run_batch"]

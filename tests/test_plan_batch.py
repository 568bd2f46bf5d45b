"""Batches with launch-plan candidates: the CPU half leaves their compilation to `evaluate` (CPU only)."""

from __future__ import annotations

from pathlib import Path

from kernelscope.batch.evaluator import RunnerEvaluator
from kernelscope.batch.items import BatchItem
from kernelscope.runner import load_spec

ROOT = Path(__file__).resolve().parents[1]


def test_a_plan_candidate_is_not_compiled_as_one_kernel_before_the_gpu():
    path = ROOT / "corpus" / "nbody" / "plans" / "split_sources.cu"
    item = BatchItem(index=0, spec=load_spec(path.parent.parent), source=path.read_text(), label="split")
    prepared = RunnerEvaluator().prepare(item)
    # compiled as one kernel it would fail ("the source defines 2 __global__ functions"); it must reach
    # the GPU side, where evaluate compiles each kernel the plan names
    assert not prepared.finished and prepared.compiled is None

"""`iter_batch` / `run_batch`: evaluate many candidates on every GPU, locally or on a Ray cluster."""

from __future__ import annotations

from kernelscope.batch.evaluator import EvalOptions, RunnerEvaluator
from kernelscope.batch.items import load_items
from kernelscope.errors import UsageError

BACKENDS = ("local", "ray")


def iter_batch(items, options: EvalOptions | None = None, *, backend: str = "local", workers: int | None = None,
               address: str | None = None, compile_workers: int | None = None, max_attempts: int = 3,
               evaluator=None, devices=None):
    """Yield a BatchOutcome per candidate as soon as it is known (completion order, not input order).

    `items`: BatchItems, or a path that `load_items` reads (a .jsonl file or a directory of problems).
    `workers`: GPUs to use (local: the first N visible ones; ray: N actors of one GPU each); default all.
    `evaluator`: what prepares and runs a candidate; default the runner (tests pass a fake).
    `devices`: local backend only, the CUDA ordinals to use instead of the first `workers` visible GPUs.
    """
    items = load_items(items) if isinstance(items, (str, bytes)) or hasattr(items, "__fspath__") else list(items)
    options = options or EvalOptions()
    check_sizes(items, options.sizes)
    evaluator = evaluator or RunnerEvaluator(options)
    if backend == "local":
        from kernelscope.batch.devices import choose_devices
        from kernelscope.batch.local import run_local

        if address:
            raise UsageError("--address only applies to --backend ray")
        return run_local(items, evaluator, devices if devices is not None else choose_devices(workers), compile_workers=compile_workers, max_attempts=max_attempts)
    if backend == "ray":
        from kernelscope.batch.ray_backend import run_ray

        return run_ray(items, evaluator, address=address, gpus=workers, max_attempts=max_attempts)
    raise UsageError(f"unknown batch backend {backend!r} (use {' or '.join(BACKENDS)})")


def run_batch(items, options: EvalOptions | None = None, *, on_result=None, **kwargs) -> list:
    """Every candidate's BatchOutcome in input order; `on_result(outcome)` sees each as it finishes."""
    outcomes = []
    for outcome in iter_batch(items, options, **kwargs):
        if on_result is not None:
            on_result(outcome)
        outcomes.append(outcome)
    return sorted(outcomes, key=lambda o: o.index)


def check_sizes(items, sizes) -> None:
    """Every size asked for exists in every candidate's spec."""
    for item in items:
        missing = [s for s in sizes or () if s not in item.spec.sizes]
        if missing:
            raise UsageError(f"unknown size(s) {', '.join(missing)} for {item.spec.name} "
                             f"(it has {', '.join(item.spec.sizes)})")

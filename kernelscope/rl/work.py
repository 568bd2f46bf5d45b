"""Work a problem needs: no structure credit for FLOPs beyond it.

The structural term credits arithmetic intensity (FLOPs per byte moved), and the ranker's features
include FLOP totals. Both are meant to reward data reuse, but a candidate can raise its FLOPs without
moving fewer bytes: dead arithmetic (`+ 0.0f * poly`, which IEEE rules forbid the compiler to fold),
recomputation, needless loops. That work only makes the kernel slower, so the reward must not pay for it.

Two yardsticks come from the problem's known implementations, each one's total work (FLOPs per thread
x threads launched, at the largest size):
- the least of them is what a correct kernel evidently needs. A candidate that does more is analysed
  as if it did exactly that much: its intensity and the ranker's FLOP features see the needed work
  only, so extra work earns no credit there;
- the most of them bounds honest work: parallel algorithms legitimately trade work for parallelism
  (a cyclic reduction does several times a serial solver's FLOPs, a tree reduction adds partial sums
  the serial loop never forms). Beyond it the structure term is scaled by most / counted
  (`work_share`), because extra arithmetic also shows elsewhere (more registers, which the ranker
  reads as register blocking), so capping alone would still let dead arithmetic pay.
Tasks without implementations (or whose FLOPs the analysis cannot count) are left as they are.
"""

from __future__ import annotations

import logging
import math

log = logging.getLogger(__name__)


def _number(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def work_share(kernel: dict) -> float:
    """The honest bound over the counted work of a kernel that WorkCap capped (1.0 within the bound)."""
    intensity = kernel.get("intensity") or {}
    counted = _number(intensity.get("flops_per_thread_counted"))
    honest = _number(intensity.get("flops_per_thread_honest"))
    return min(1.0, honest / counted) if counted and honest is not None else 1.0


class WorkCap:
    """`cap(kernel, task) -> kernel`, the analysis with its FLOPs capped at what the task needs."""

    def __init__(self, analyze_fn):
        self.analyze_fn = analyze_fn
        self._bounds: dict[tuple, tuple | None] = {}

    def __call__(self, kernel: dict, task) -> dict:
        if task is None or not getattr(task, "implementations", None):
            return kernel
        intensity = kernel.get("intensity") or {}
        flops = _number(intensity.get("flops_per_thread"))
        threads = task.threads()
        bounds = self.work_bounds(task)
        if flops is None or not threads or bounds is None:
            return kernel
        ceiling = bounds[0] / threads
        if flops <= ceiling:
            return kernel
        capped = dict(intensity, flops_per_thread=ceiling, flops_per_thread_counted=flops,
                      flops_per_thread_honest=bounds[1] / threads)
        moved = _number(intensity.get("global_bytes_per_thread"))
        if moved:
            capped["arithmetic_intensity"] = ceiling / moved
        return {**kernel, "intensity": capped}

    def work_bounds(self, task) -> tuple[float, float] | None:
        """The least and the most total FLOPs of the task's implementations at its largest size
        (cached per problem)."""
        key = (str(getattr(task, "directory", "")), task.name)
        if key not in self._bounds:
            self._bounds[key] = self._known_work(task)
        return self._bounds[key]

    def _known_work(self, task) -> tuple[float, float] | None:
        from kernelscope.rl.structure import pick_kernel
        from kernelscope.rl.tasks import load_task

        try:  # the problem as written: an implementation-specific task carries one launch's overrides
            base = load_task(task.spec_path)
        except (OSError, ValueError, KeyError):
            base = task
        totals = []
        for implementation in base.single_kernel_implementations:
            try:
                source = base.implementation_source(implementation["file"])
                analysis = self.analyze_fn(source, block=base.implementation_block(implementation),
                                           bindings=base.bindings())
            except Exception as exc:  # noqa: BLE001 - a reference we cannot analyse just gives no yardstick
                log.info("no work estimate from %s/%s: %s", base.name, implementation.get("file"), exc)
                continue
            kernel = pick_kernel(analysis, implementation.get("kernel"))
            flops = _number(((kernel or {}).get("intensity") or {}).get("flops_per_thread"))
            threads = base.threads(implementation)
            if flops is not None and flops > 0 and threads:
                totals.append(flops * threads)
        return (min(totals), max(totals)) if totals else None

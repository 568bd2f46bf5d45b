"""Work a problem needs: no structure credit for FLOPs beyond it.

The structural term credits arithmetic intensity (FLOPs per byte moved), and the ranker's features
include FLOP totals. Both are meant to reward data reuse, but a candidate can raise its FLOPs without
moving fewer bytes: dead arithmetic (`+ 0.0f * poly`, which IEEE rules forbid the compiler to fold),
recomputation, needless loops. That work only makes the kernel slower, so the reward must not pay for it.

Two yardsticks come from the problem's known implementations, each one's total work (FLOPs per thread
x threads launched, summed over a plan's launches, at the largest size):
- the least of them is what a correct kernel evidently needs. A candidate that does more is analysed
  as if it did exactly that much: its intensity and the ranker's FLOP features see the needed work
  only, so extra work earns no credit there;
- the most of them bounds honest work: parallel algorithms legitimately trade work for parallelism
  (a cyclic reduction does several times a serial solver's FLOPs, a tree reduction adds partial sums
  the serial loop never forms). Beyond it the structure term is scaled by most / counted
  (`work_share`), because extra arithmetic also shows elsewhere (more registers, which the ranker
  reads as register blocking), so capping alone would still let dead arithmetic pay.
A candidate with a launch plan is judged on its total the same way: one factor scales every launch.
Tasks without implementations (or whose FLOPs the analysis cannot count) are left as they are.
"""

from __future__ import annotations

import logging
import math

log = logging.getLogger(__name__)


def _number(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def _flops_per_thread(kernel: dict | None) -> float | None:
    return _number(((kernel or {}).get("intensity") or {}).get("flops_per_thread"))


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
        return self.cap_launches([(kernel, task.threads())], task)[0][0]

    def cap_launches(self, launched: list, task) -> list:
        """[(kernel analysis, threads launched)] of one candidate (a launch plan's launches, or the one
        kernel with the problem's launch), each kernel's FLOPs scaled by one factor so that the plan's
        total work (sum of FLOPs per thread x threads) is at most what the task needs. A plan's
        kernels split the work in ways a per-kernel yardstick cannot follow, so the cap is on the
        total: dead arithmetic in any one launch counts against the whole."""
        if task is None or not getattr(task, "implementations", None) or not launched:
            return launched
        flops = [_flops_per_thread(kernel) for kernel, _ in launched]
        bounds = self.work_bounds(task)
        if bounds is None:
            return launched
        # A launch whose FLOPs the analysis cannot count (a trip count over an unbound scalar) only
        # adds work, so the counted launches alone are a lower bound of the total: when they exceed
        # what the task needs, so does the plan, and capping them is safe.
        total = sum(f * threads for f, (_, threads) in zip(flops, launched) if f is not None and threads)
        if total <= bounds[0]:
            return launched
        factor, honest = bounds[0] / total, bounds[1] / total
        capped = []
        for f, (kernel, threads) in zip(flops, launched):
            if f is None or not threads:
                capped.append((kernel, threads))
                continue
            intensity = kernel.get("intensity") or {}
            ceiling = f * factor
            changed = dict(intensity, flops_per_thread=ceiling, flops_per_thread_counted=f,
                           flops_per_thread_honest=f * honest)
            moved = _number(intensity.get("global_bytes_per_thread"))
            if moved:
                changed["arithmetic_intensity"] = ceiling / moved
            capped.append(({**kernel, "intensity": changed}, threads))
        return capped

    def work_bounds(self, task) -> tuple[float, float] | None:
        """The least and the most total FLOPs of the task's implementations at its largest size
        (cached per problem)."""
        key = (str(getattr(task, "directory", "")), task.name)
        if key not in self._bounds:
            self._bounds[key] = self._known_work(task)
        return self._bounds[key]

    def _known_work(self, task) -> tuple[float, float] | None:
        from kernelscope.rl.tasks import load_task

        try:  # the problem as written: an implementation-specific task carries one launch's overrides
            base = load_task(task.spec_path)
        except (OSError, ValueError, KeyError):
            base = task
        single = {id(i) for i in base.single_kernel_implementations}
        exact, at_least = [], []      # totals counted in full; lower bounds (a launch not counted)
        for implementation in base.implementations:
            try:
                source = base.implementation_source(implementation["file"])
                if id(implementation) in single:
                    total, complete = self._one_kernel_work(base, implementation, source), True
                else:
                    total, complete = self._plan_work(base, source)
            except Exception as exc:  # noqa: BLE001 - a reference we cannot analyse just gives no yardstick
                log.info("no work estimate from %s/%s: %s", base.name, implementation.get("file"), exc)
                continue
            if total:
                (exact if complete else at_least).append(total)
        # the least needs full counts (a lower bound would understate what the task needs); a lower
        # bound still shows that much honest work was done
        if not exact:
            return None
        return min(exact), max(exact + at_least)

    def _one_kernel_work(self, base, implementation: dict, source: str) -> float | None:
        from kernelscope.rl.structure import pick_kernel

        analysis = self.analyze_fn(source, block=base.implementation_block(implementation), bindings=base.bindings())
        kernel = pick_kernel(analysis, implementation.get("kernel"))
        flops = _flops_per_thread(kernel)
        threads = base.threads(implementation)
        return flops * threads if flops is not None and flops > 0 and threads else None

    def _plan_work(self, base, source: str) -> tuple[float | None, bool]:
        """A multi-launch implementation's work over the launches whose FLOPs can be counted, and
        whether that was all of them."""
        from kernelscope.rl.reward import plan_launches
        from kernelscope.rl.structure import kernel_named

        total, complete = 0.0, True
        for launch in plan_launches(source, base):
            analysis = self.analyze_fn(source, block=launch.block, bindings=base.bindings())
            kernel = kernel_named(analysis, launch.kernel)
            flops = _flops_per_thread(kernel)
            if flops is None:
                complete = False
            else:
                total += flops * launch.threads
        return total or None, complete

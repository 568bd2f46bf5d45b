"""The two halves of evaluating a candidate, split where the GPU starts.

`prepare` needs no GPU (the source policy and compilation) and runs on any CPU core; it compiles in a
compile process under `compile_timeout_s` and a memory cap (kernelscope.runner.bounded_compile), so a
candidate that sends the compiler into a loop costs that process, never the batch; `open(device)`
gives a session that owns one GPU worker process and runs prepared candidates through the runner's
`evaluate`, the very call `kernelscope run` makes for one candidate, so a batch and a one-by-one run
give the same records. The backends only ever talk to this interface, so tests swap in a fake.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from kernelscope.batch.items import BatchItem
from kernelscope.runner.bounded_compile import COMPILE_TIMEOUT_S


@dataclass(frozen=True)
class EvalOptions:
    """What `kernelscope run` takes per candidate; the same for every candidate of a batch."""
    sizes: tuple | None = None
    trials: int = 3
    repeats: int = 30
    warmup: int = 3
    timeout_s: float = 60.0
    backend: str = "nvrtc"
    arch: str | None = None
    allow: tuple = ()
    seed: int | None = None
    compile_timeout_s: float = COMPILE_TIMEOUT_S   # per candidate (KERNELSCOPE_COMPILE_TIMEOUT_S sets the default)


@dataclass
class Prepared:
    """A candidate after its CPU half: compiled, or already finished (rejected, compile error)."""
    item: BatchItem
    compiled: object = None
    result: object = None          # a final RunResult: the candidate needs no GPU

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass
class RunnerEvaluator:
    """The real evaluator: kernelscope.runner's policy check, compiler and worker pool."""
    options: EvalOptions = field(default_factory=EvalOptions)

    def prepare(self, item: BatchItem) -> Prepared:
        from kernelscope.runner.bounded_compile import compile_bounded
        from kernelscope.runner.compile import CompileError
        from kernelscope.runner.results import RunResult
        from kernelscope.runner.source_policy import PolicyError, check_source

        kernel = _kernel_to_compile(item)
        if kernel is None:
            return Prepared(item)   # a plan of several kernels is compiled by `evaluate` on the GPU node
        started = time.perf_counter()
        try:
            check_source(item.source, self.options.allow, backend=self.options.backend)
            compiled = compile_bounded(item.source, kernel, arch=self.options.arch, backend=self.options.backend,
                                       timeout_s=self.options.compile_timeout_s)
        except (PolicyError, CompileError) as exc:
            # the same record `evaluate` writes when it meets these errors itself
            result = RunResult(problem=item.spec.name, kernel=item.kernel, candidate=item.label)
            if isinstance(exc, PolicyError):
                result.flags.append("rejected")
                result.error = str(exc)
            else:
                result.flags.append("compile_error")
                result.error, result.compile_log = str(exc).splitlines()[0], exc.log
            result.wall_seconds = time.perf_counter() - started
            return Prepared(item, result=result.finish())
        return Prepared(item, compiled=compiled)

    def bound_to_device(self) -> "RunnerEvaluator":
        """This evaluator with the compile target fixed to the GPU this process sees (called on a GPU
        node, so that compilation elsewhere, on CPU-only nodes, targets the right architecture)."""
        from kernelscope.runner.compile import default_arch

        return replace(self, options=replace(self.options, arch=self.options.arch or default_arch()))

    def open(self, device: int) -> "RunnerSession":
        return RunnerSession(device, self.options)


class RunnerSession:
    """One GPU's worker process, kept alive across candidates (context creation costs seconds)."""

    def __init__(self, device: int, options: EvalOptions):
        from kernelscope.runner.worker import WorkerPool

        self.device = device
        self.options = options
        self.pool = WorkerPool(workers=1, device=device)

    def warm_up(self) -> None:
        self.pool.warm_up()

    def evaluate(self, prepared: Prepared):
        from kernelscope.runner.evaluation import evaluate

        item, options = prepared.item, self.options
        return evaluate(item.spec, item.source, item.kernel, sizes=item.sizes or options.sizes,
                        trials=options.trials, repeats=options.repeats, warmup=options.warmup,
                        timeout_s=options.timeout_s, backend=options.backend, arch=options.arch,
                        launch=item.launch, allow=options.allow, seed=options.seed, pool=self.pool,
                        candidate=item.label, compiled=prepared.compiled,
                        compile_timeout_s=options.compile_timeout_s)

    def close(self) -> None:
        self.pool.close()


def _kernel_to_compile(item: BatchItem) -> str | None:
    """The one kernel the CPU half compiles: the item's, or the kernel of its launch plan when the plan
    launches only that one (a corpus implementation's relaunch); None for a plan of several kernels,
    or one that does not parse (`evaluate` reports it)."""
    from kernelscope.runner.plan import PlanError, carries_plan, plan_from_source

    if not carries_plan(item.source):
        return item.kernel
    try:
        plan = plan_from_source(item.source, item.spec)
    except PlanError:
        return None
    return plan.kernels[0] if len(plan.kernels) == 1 else None

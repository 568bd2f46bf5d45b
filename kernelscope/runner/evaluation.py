"""`evaluate`: one candidate against one problem spec, from source text to a RunResult.

The steps that need no GPU (policy check, compilation) run here; the rest runs in a worker process
from a pool that outlives single calls, so that a stream of candidates pays for process start-up
and CUDA context creation once.
"""

from __future__ import annotations

import atexit
import secrets
import time

import nvtx

from kernelscope.runner.compile import CompileError, compile_kernel, compile_many
from kernelscope.runner.device import require_gpu
from kernelscope.runner.plan import PlanError, carries_plan, plan_from_source
from kernelscope.runner.results import RunResult, SizeVerdict
from kernelscope.runner.source_policy import PolicyError, check_source, kernel_names
from kernelscope.runner.spec import ProblemSpec, load_spec
from kernelscope.runner.worker import WorkerPool

_DEFAULT_POOL: WorkerPool | None = None


def default_pool() -> WorkerPool:
    """The process-wide pool used when a caller passes none (one worker, closed at exit)."""
    global _DEFAULT_POOL
    if _DEFAULT_POOL is None:
        _DEFAULT_POOL = WorkerPool(workers=1)
        atexit.register(_DEFAULT_POOL.close)
    return _DEFAULT_POOL


def evaluate(spec, source: str, kernel: str | None = None, *, sizes=None, trials: int = 3, repeats: int = 30,
             warmup: int = 3, timeout_s: float = 60.0, backend: str = "nvrtc", arch: str | None = None,
             launch=None, allow=(), seed: int | None = None, pool: WorkerPool | None = None,
             candidate: str = "", time_it: bool = True, compiled=None) -> RunResult:
    """Compile, verify on fresh random inputs and time `kernel` from `source` against `spec`.

    `launch` overrides the spec's [launch] (a LaunchSpec, as in [[implementations]]); a source that
    carries a launch plan (docs/spec-format.md) is launched by its plan instead, each of its kernels
    compiled from the one source; `allow` names the escapes the candidate may use; `compiled` skips
    compilation with a CompiledKernel from `compile_kernel`/`compile_many`.
    """
    started = time.perf_counter()
    spec = spec if isinstance(spec, ProblemSpec) else load_spec(spec)
    require_gpu()
    if trials < 3:
        raise ValueError("at least three trials are needed to rule out input-specific answers")
    result = RunResult(problem=spec.name, kernel=kernel, candidate=candidate)
    if compiled is None and carries_plan(source):
        return _evaluate_plan(spec, source, result, started, sizes=sizes, trials=trials, repeats=repeats,
                              warmup=warmup, timeout_s=timeout_s, backend=backend, arch=arch, launch=launch,
                              allow=allow, seed=seed, pool=pool, time_it=time_it)
    if compiled is None:
        try:
            with nvtx.annotate("kernelscope:compile", color="blue"):
                check_source(source, allow)
                compiled = compile_kernel(source, kernel, arch=arch, backend=backend)
        except PolicyError as exc:
            result.flags.append("rejected")
            result.error = str(exc)
            return _done(result, started)
        except CompileError as exc:
            result.flags.append("compile_error")
            result.error, result.compile_log = str(exc).splitlines()[0], exc.log
            return _done(result, started)
    result.compiled, result.kernel = True, compiled.kernel
    result.compile_log, result.compile_seconds, result.compile_cached = compiled.log, compiled.seconds, compiled.cached

    job = {"spec_path": str(spec.path), "cubin": compiled.cubin, "lowered_name": compiled.lowered_name,
           "sizes": list(sizes or spec.sizes), "trials": trials, "repeats": repeats, "warmup": warmup,
           "seed": secrets.randbits(31) if seed is None else seed, "launch": launch, "time": time_it}
    return _submit(job, result, pool, timeout_s, started)


def _evaluate_plan(spec, source, result, started, *, sizes, trials, repeats, warmup, timeout_s, backend, arch,
                   launch, allow, seed, pool, time_it) -> RunResult:
    """A candidate with a launch plan: every kernel it names compiled from the one source, one job."""
    try:
        with nvtx.annotate("kernelscope:compile", color="blue"):
            check_source(source, allow)
            if launch is not None:
                raise PlanError("the source carries a launch plan and a launch override was given too; use one")
            plan = plan_from_source(source, spec, kernels=kernel_names(source))
            built = [compile_kernel(source, name, arch=arch, backend=backend) for name in plan.kernels]
    except PolicyError as exc:
        result.flags.append("rejected")
        result.error = str(exc)
        return _done(result, started)
    except PlanError as exc:      # the candidate's launch plan is its code too: a broken one does not build
        result.flags.append("compile_error")
        result.error = result.compile_log = str(exc)
        return _done(result, started)
    except CompileError as exc:
        result.flags.append("compile_error")
        result.error, result.compile_log = str(exc).splitlines()[0], exc.log
        return _done(result, started)
    cubins = list(dict.fromkeys(c.cubin for c in built))  # extern "C" kernels of one source share a cubin
    symbols = {c.kernel: (cubins.index(c.cubin), c.lowered_name) for c in built}
    result.compiled, result.kernel = True, "+".join(plan.kernels)
    result.compile_log = "\n".join(dict.fromkeys(c.log for c in built if c.log))
    result.compile_seconds = sum(c.seconds for c in built)
    result.compile_cached = all(c.cached for c in built)
    job = {"spec_path": str(spec.path), "cubins": cubins, "symbols": symbols, "plan": plan,
           "sizes": list(sizes or spec.sizes), "trials": trials, "repeats": repeats, "warmup": warmup,
           "seed": secrets.randbits(31) if seed is None else seed, "time": time_it}
    return _submit(job, result, pool, timeout_s, started)


def _submit(job, result, pool, timeout_s, started) -> RunResult:
    reply = (pool or default_pool()).run(job, timeout_s)   # the worker marks verify and time with nvtx
    status = reply.get("status")
    if status == "ok":
        result.sizes = reply["sizes"]
        result.registers = reply.get("registers")
    elif status in ("timeout", "fault"):
        result.flags.append(status)
        result.error = reply.get("message")
        result.sizes = [SizeVerdict(size=s, correct=False, trials=0) for s in job["sizes"]]
    else:
        result.flags.append("harness_error")
        result.error = reply.get("message")
    return _done(result, started)


def evaluate_many(spec, candidates, *, compile_workers: int | None = None, backend: str = "nvrtc",
                  arch: str | None = None, allow=(), **kwargs) -> list[RunResult]:
    """Evaluate (source, kernel) pairs: compiled in parallel threads, then run one after another."""
    spec = spec if isinstance(spec, ProblemSpec) else load_spec(spec)
    require_gpu()
    candidates = list(candidates)
    allowed = []
    for index, (source, _kernel) in enumerate(candidates):
        if carries_plan(source):
            continue      # a plan's kernels are compiled by `evaluate` itself
        try:
            check_source(source, allow)
            allowed.append(index)
        except PolicyError:
            pass          # `evaluate` below writes the rejection record
    with nvtx.annotate("kernelscope:compile", color="blue"):
        built = compile_many([candidates[i] for i in allowed], workers=compile_workers, backend=backend, arch=arch)
    compiled = dict(zip(allowed, built))
    results = []
    for index, (source, kernel) in enumerate(candidates):
        outcome = compiled.get(index)
        if isinstance(outcome, CompileError):
            results.append(_failed(spec, kernel, outcome))
        elif outcome is None:
            results.append(evaluate(spec, source, kernel, allow=allow, **kwargs))
        else:
            results.append(evaluate(spec, source, kernel, compiled=outcome, **kwargs))
    return results


def _failed(spec, kernel, error: CompileError) -> RunResult:
    result = RunResult(problem=spec.name, kernel=kernel, flags=["compile_error"],
                       error=str(error).splitlines()[0], compile_log=error.log)
    return result.finish()


def _done(result: RunResult, started: float) -> RunResult:
    result.wall_seconds = time.perf_counter() - started
    return result.finish()


def set_default_pool(pool) -> None:
    """Use `pool` (anything with run(job, timeout_s) and close()) when a caller passes none; the
    batch layer installs a pool that spreads runs over every GPU."""
    global _DEFAULT_POOL
    _DEFAULT_POOL = pool

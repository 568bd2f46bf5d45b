"""`evaluate`: one candidate against one problem spec, from source text to a RunResult.

The source policy is checked here; compilation and everything after it run in a worker process
from a pool that outlives single calls (so a stream of candidates pays for process start-up and CUDA
context creation once, and a candidate that hangs the compiler costs a worker, not the caller).
"""

from __future__ import annotations

import atexit
import secrets
import time

import nvtx

from kernelscope.runner.compile import CompileError
from kernelscope.runner.device import require_gpu
from kernelscope.runner.plan import PlanError, carries_plan, plan_from_source
from kernelscope.runner.results import RunResult, SizeVerdict
from kernelscope.runner.source_policy import PolicyError, check_source, kernel_names
from kernelscope.runner.spec import ProblemSpec, load_spec
from kernelscope.runner.worker import COMPILE_TIMEOUT_S, WorkerPool

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
             candidate: str = "", time_it: bool = True, compiled=None,
             compile_timeout_s: float = COMPILE_TIMEOUT_S) -> RunResult:
    """Compile, verify on fresh random inputs and time `kernel` from `source` against `spec`.

    `launch` overrides the spec's [launch] (a LaunchSpec: an API caller's or batch item's); a source that
    carries a launch plan (docs/spec-format.md) is launched by its plan instead, each of its kernels
    compiled from the one source; `allow` names the escapes the candidate may use; `compiled` skips
    compilation with a CompiledKernel from `compile_kernel`/`compile_many` (for a plan source, the
    plan must launch that one kernel). Compilation runs in the
    worker and fails as `compile_error` after `compile_timeout_s`.
    """
    started = time.perf_counter()
    spec = spec if isinstance(spec, ProblemSpec) else load_spec(spec)
    require_gpu()
    if trials < 3:
        raise ValueError("at least three trials are needed to rule out input-specific answers")
    result = RunResult(problem=spec.name, kernel=kernel, candidate=candidate)
    job = {"spec_path": str(spec.path), "sizes": list(sizes or spec.sizes), "trials": trials, "repeats": repeats,
           "warmup": warmup, "seed": secrets.randbits(31) if seed is None else seed, "launch": launch,
           "time": time_it}
    if compiled is None:
        try:
            check_source(source, allow, backend=backend)
            if carries_plan(source):
                if launch is not None:
                    raise PlanError("the source carries a launch plan and a launch override was given too; use one")
                job["plan"] = plan_from_source(source, spec, kernels=kernel_names(source))
        except PolicyError as exc:
            result.flags.append("rejected")
            result.error = str(exc)
            return _done(result, started)
        except PlanError as exc:      # the candidate's launch plan is its code too: a broken one does not build
            result.flags.append("compile_error")
            result.error = result.compile_log = str(exc)
            return _done(result, started)
        job.update(source=source, kernel=kernel, arch=arch, backend=backend, compile_timeout_s=compile_timeout_s)
    else:
        try:
            job.update(_compiled_job(spec, source, compiled, launch))
        except PlanError as exc:
            result.flags.append("compile_error")
            result.error = result.compile_log = str(exc)
            return _done(result, started)
        _record_compile(result, {"kernel": compiled.kernel, "log": compiled.log, "seconds": compiled.seconds,
                                 "cached": compiled.cached})
    with nvtx.annotate("kernelscope:worker", color="blue"):
        reply = (pool or default_pool()).run(job, timeout_s)   # the worker marks verify and time with nvtx
    status = reply.get("status")
    if reply.get("compiled"):
        _record_compile(result, reply["compiled"])
    if status == "ok":
        result.sizes = reply["sizes"]
        result.registers = reply.get("registers")
    elif status in ("compile_error", "compile_timeout"):
        result.flags.append("compile_error")
        result.error, result.compile_log = reply.get("message"), reply.get("log", "")
    elif status in ("timeout", "fault"):
        result.flags.append(status)
        result.error = reply.get("message")
        result.sizes = [SizeVerdict(size=s, correct=False, trials=0) for s in job["sizes"]]
    else:
        result.flags.append("harness_error")
        result.error = reply.get("message")
    return _done(result, started)


def _compiled_job(spec, source: str, compiled, launch) -> dict:
    """The job fields of a kernel compiled by the caller: launched by the source's plan when it carries
    one (a plan of that one kernel: corpus implementations keep their launch in their file), else by
    [launch] (and `launch`)."""
    if not carries_plan(source):
        return {"cubin": compiled.cubin, "lowered_name": compiled.lowered_name}
    if launch is not None:
        raise PlanError("the source carries a launch plan and a launch override was given too; use one")
    plan = plan_from_source(source, spec)
    if plan.kernels != (compiled.kernel,):
        raise PlanError(f"the source's plan launches {', '.join(plan.kernels)}; the compiled kernel is "
                        f"{compiled.kernel} alone (compile each kernel: leave `compiled` out)")
    return {"plan": plan, "cubins": [compiled.cubin], "symbols": {compiled.kernel: (0, compiled.lowered_name)}}


def _record_compile(result: RunResult, compiled: dict) -> None:
    result.compiled, result.kernel = True, compiled["kernel"]
    result.compile_log, result.compile_seconds = compiled["log"], compiled["seconds"]
    result.compile_cached = compiled["cached"]


def evaluate_many(spec, candidates, *, compile_workers: int | None = None, backend: str = "nvrtc",
                  arch: str | None = None, allow=(), pool: WorkerPool | None = None,
                  compile_timeout_s: float = COMPILE_TIMEOUT_S, **kwargs) -> list[RunResult]:
    """Evaluate (source, kernel) pairs: compiled in parallel threads of a worker (one time limit
    for the lot), then run one after another; rejected and failed ones get their records."""
    spec = spec if isinstance(spec, ProblemSpec) else load_spec(spec)
    require_gpu()
    pool = pool or default_pool()
    candidates = list(candidates)
    allowed = []
    for index, (source, _kernel) in enumerate(candidates):
        if carries_plan(source):
            continue      # a plan's kernels are compiled by `evaluate` itself
        try:
            check_source(source, allow, backend=backend)
            allowed.append(index)
        except PolicyError:
            pass          # `evaluate` below writes the rejection record
    errors = {}
    if allowed:
        threads = compile_workers or 8
        limit = compile_timeout_s * -(-len(allowed) // threads)
        with nvtx.annotate("kernelscope:compile", color="blue"):
            reply = pool.run({"compile_many": [candidates[i] for i in allowed], "arch": arch, "backend": backend},
                             limit)
        if reply.get("status") == "ok":     # otherwise each compiles again below, under its own limit
            errors = {i: e for i, e in zip(allowed, reply["errors"]) if e is not None}
    results = []
    for index, (source, kernel) in enumerate(candidates):
        if index in errors:
            results.append(_failed(spec, kernel, CompileError(errors[index]["message"], errors[index]["log"])))
        else:
            results.append(evaluate(spec, source, kernel, allow=allow, backend=backend, arch=arch, pool=pool,
                                    compile_timeout_s=compile_timeout_s, **kwargs))
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

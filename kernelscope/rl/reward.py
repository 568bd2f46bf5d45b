"""The unified reward for one candidate kernel on one task.

    total = gate                                   when the candidate fails a gate (a negative constant)
    total = base + w_perf * performance + w_struct * structure - penalties      otherwise, in [0, 1]

Gates, in order: code was found in the completion (and is not absurdly long); it parses; no hack was
detected (source, analysis or runner flags); it compiles (static mode: NVRTC or nvcc, where either
exists; full mode: the runner); it is correct (full mode only: static mode cannot judge correctness). Every failed gate lands in the
"fail" band (total < 0), hacks at its floor, so nothing a cheating kernel does can outscore an honest
wrong one. Passing candidates land in [0, 1]:
- performance (full mode): log-scale credit for measured speedup over the reference, zero below a margin
  (timing noise must not pay). Where the problem has a measured baseline (kernelscope.rl.baselines:
  eager torch or the fastest known implementation) the credit is calibrated to it: `baseline_share`
  for climbing from the margin to the baseline's speed, the rest for going beyond it, full at
  `beyond_baseline_cap` times the baseline, so beating a slow reference is not full credit. Without
  one, full credit at `speedup_cap`. Implausible speedups (the runner's flag, or above an optional
  `implausible_speedup` ratio) are hacks.
- structure: a weighted mean of the analysis scores (`kernelscope.rl.structure`) and of the pairwise
  ranker's mean probability that the candidate beats each of the task's known implementations.
- penalties: error- and warning-severity lint findings.
Static mode has no measurement, so structure carries the weight performance would have had.
Every component is returned, not only the total; see docs/rl.md for the defaults and why.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable

from kernelscope.errors import InputError
from kernelscope.rl.extract import Extraction, extract_code
from kernelscope.rl.hacks import runner_hacks, source_hacks, structural_hacks
from kernelscope.rl.structure import STRUCTURE_KEYS, kernel_named, pick_kernel, score_kernel
from kernelscope.rl.work import WorkCap, work_share

CACHE_ENTRIES = 4096
OUTCOMES = ("ok", "no_code", "syntax_error", "compile_error", "hack", "incorrect")
# Every Reward carries exactly these components, whatever gate it stopped at: trainers that collect
# per-sample logs (verl's reward loop, OpenRLHF's experience batches) need one key set for all samples.
# (`speedup_vs_baseline` is 0 where the problem has no measured baseline or the candidate was not timed.)
COMPONENT_KEYS = ("gate", "performance", "structure", "penalty", "speedup_vs_baseline",
                  *(f"structure_{key}" for key in (*STRUCTURE_KEYS, "ranker")), "work_share")


@dataclass(frozen=True)
class RewardConfig:
    mode: str = "static"                 # static | full
    # values of the failed gates (all < 0: the "fail" band)
    no_code: float = -0.8
    compile_error: float = -0.6
    incorrect: float = -0.3
    hack: float = -1.0
    # passing candidates: base + w_performance * performance + w_structure * structure
    base: float = 0.2
    w_performance: float = 0.5
    w_structure: float = 0.3
    # performance term
    speedup_margin: float = 1.05
    speedup_cap: float = 8.0             # full credit here when the problem has no baseline
    baseline_share: float = 0.5          # credit for reaching the problem's baseline speed
    beyond_baseline_cap: float = 2.0     # full credit at this many times the baseline's speed
    # The runner flags what is physically impossible (faster than moving the data once at peak DRAM
    # bandwidth); a ratio ceiling on top is optional: a slow library reference makes 100x honest.
    implausible_speedup: float | None = None
    # structure term: weights of the analysis scores and of the ranker (normalised to sum 1)
    # (the ranker leads: trained on measured pairs, it weighs these same features better than fixed weights;
    # see profiles/models/ranker_report.md for what each choice does to the correlation with speed)
    structure_weights: dict = field(default_factory=lambda: {
        "coalescing": 0.15, "shared_banks": 0.02, "occupancy": 0.05, "intensity": 0.1, "sync": 0.08,
        "ranker": 0.6})
    # lint penalties, per finding and at most
    lint_error_penalty: float = 0.1
    lint_warning_penalty: float = 0.02
    lint_penalty_cap: float = 0.2
    # static mode's compile gate: auto (NVRTC where CuPy is, else nvcc where it is, else none) | nvrtc |
    # nvcc | off, and how long one compile may take before it counts as a failure
    compile_check: str = "auto"
    compile_timeout_s: float = 30.0
    # extracted code longer than this is not analysed (a degenerate completion, not a kernel)
    max_code_bytes: int = 64 * 1024

    def __post_init__(self):
        if self.mode not in ("static", "full"):
            raise ValueError(f"reward mode must be 'static' or 'full', got {self.mode!r}")

    @classmethod
    def from_dict(cls, values: dict) -> "RewardConfig":
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown reward settings: {', '.join(sorted(unknown))}")
        config = cls(**{k: v for k, v in values.items() if k != "structure_weights"})
        if "structure_weights" in values:
            config = replace(config, structure_weights={**config.structure_weights, **values["structure_weights"]})
        return config


@dataclass
class Reward:
    total: float
    band: str                              # fail | pass
    outcome: str                           # ok | no_code | syntax_error | compile_error | hack | incorrect
    components: dict                       # every term that went into the total
    hacks: dict = field(default_factory=dict)
    speedup: float | None = None
    extraction: Extraction | None = None
    analysis: dict | None = None           # the kernel's DESIGN JSON
    errors: list = field(default_factory=list)  # syntax errors of the file ({"line","column","message"})
    diagnostics: list = field(default_factory=list)
    run: Any = None                        # the runner's RunResult (full mode)
    launches: list = field(default_factory=list)  # a plan's launches: {"kernel", "grid", "block", "threads"}
    compile_log: str = ""                  # the static compile gate's messages (static mode)

    def to_json(self) -> dict:
        return {"total": self.total, "band": self.band, "outcome": self.outcome,
                "components": dict(self.components), "hacks": dict(self.hacks), "speedup": self.speedup}


def performance_score(speedup: float | None, config: RewardConfig, baseline: float | None = None) -> float:
    """Credit for `speedup` over the reference; `baseline` is the problem baseline's own speedup over
    the reference (None: no baseline, full credit at `speedup_cap`)."""
    if speedup is None or not math.isfinite(speedup) or speedup <= config.speedup_margin:
        return 0.0
    if baseline is None:
        return _log_credit(speedup, config.speedup_margin, config.speedup_cap)
    reach = _log_credit(speedup, config.speedup_margin, baseline) if baseline > config.speedup_margin else 1.0
    beyond = _log_credit(speedup, baseline, baseline * config.beyond_baseline_cap)
    return config.baseline_share * reach + (1.0 - config.baseline_share) * beyond


def _log_credit(value: float, low: float, high: float) -> float:
    """0 at `low`, 1 at `high`, logarithmic in between."""
    if value <= low:
        return 0.0
    return min(1.0, math.log(value / low) / math.log(high / low))


def default_baseline(task) -> float | None:
    """The problem's baseline speedup over its reference (all sizes), or None when none was measured."""
    from kernelscope.rl.baselines import load_baselines

    name = getattr(task, "name", None)
    try:
        baseline = load_baselines().get(name)
    except InputError:      # no table next to this installation: uncalibrated credit
        return None
    return baseline.speedup_over_reference() if baseline is not None else None


def lint_penalty(diagnostics: list, config: RewardConfig) -> float:
    errors = sum(1 for d in diagnostics if d.get("severity") == "error")
    warnings = sum(1 for d in diagnostics if d.get("severity") == "warning")
    return min(config.lint_penalty_cap, errors * config.lint_error_penalty + warnings * config.lint_warning_penalty)


def default_analyze(code: str, *, block=None, bindings=None) -> dict:
    """The lead's analyzer, as a plain dict: {"kernels": [...], "errors": [...], "diagnostics": [...]}."""
    from kernelscope.analyze import analyze_source

    result = analyze_source(code, path="candidate.cu", block=block, bindings=bindings, registers="estimate")
    document = result.to_json()
    file = document["files"][0] if "files" in document else document
    diagnostics = [d.to_json() if hasattr(d, "to_json") else d for d in getattr(result, "diagnostics", [])]
    return {"kernels": file.get("kernels", []), "errors": file.get("errors", []),
            "diagnostics": diagnostics or document.get("diagnostics", [])}


def plan_launches(code: str, task) -> list:
    """The launches (bound at the task's largest size) of the plan `code` carries; [] without one.
    A malformed plan raises InputError (kernelscope.runner.plan.PlanError)."""
    from kernelscope.runner.plan import carries_plan, plan_from_source

    if task is None or not carries_plan(code) or not getattr(task, "directory", None):
        return []
    spec = _spec(str(task.spec_path))
    plan = plan_from_source(code, spec)
    return list(plan.concrete(spec, task.largest_size).launches)


def _as_arguments(kernel: dict, launch) -> list:
    """A kernel's accesses with each parameter's name replaced by the plan argument passed to it."""
    names = {p.get("name"): arg for p, arg in zip(kernel.get("params", []), launch.args)}
    return [{**a, "array": names.get(a.get("array"), a.get("array"))} for a in kernel.get("accesses", [])]


@lru_cache(maxsize=64)
def _spec(path: str):
    from kernelscope.runner import load_spec

    return load_spec(path)


class HarnessError(RuntimeError):
    """The runner failed for reasons of its own; the candidate is not to blame (and gets no reward)."""


def gpu_check() -> None:
    """Full mode's runner needs a GPU: say so at the first call, not as a harness failure per sample."""
    from kernelscope.runner.device import require_gpu

    require_gpu()


def default_run(code: str, kernel: str | None, task, **options):
    """The runner on the task's spec; `options` go to `kernelscope.runner.evaluate` (timeout_s, ...)."""
    return default_run_many(task, [(code, kernel)], **options)[0]


def default_run_many(task, candidates, **options):
    """Several (code, kernel) candidates of one task: the runner compiles them in parallel, then runs
    them one after another in its worker."""
    from kernelscope.runner import load_spec
    from kernelscope.runner.evaluation import evaluate_many

    spec = load_spec(task.spec_path)   # a known implementation's launch is the plan its source carries
    results = evaluate_many(spec, candidates, **options)
    for result in results:
        if "harness_error" in result.flags:
            raise HarnessError(result.error or "the runner's worker failed")
    return results


@dataclass
class _Pending:
    """A candidate past the static gates, waiting for its run (full mode)."""
    code: str
    kernel_name: str | None
    kernel: dict
    task: Any
    details: dict
    # (kernel analysis, weight) of every launch of the candidate's plan; empty: `kernel` alone
    launched: list = field(default_factory=list)
    compile_name: str | None = None        # the kernel the static compile gate names (NVRTC needs one)


class UnifiedReward:
    """Scores completions on tasks. The analyzer, runner and ranker are injected (defaults import the
    real modules lazily), so tests use fakes and a static-only reward never touches a GPU.

    `run_fn(code, kernel, task)` runs one candidate; `run_many_fn(task, [(code, kernel), ...])` a batch
    of one task's candidates (by default the runner's `evaluate_many`, unless `run_fn` is given)."""

    def __init__(self, config: RewardConfig | None = None, *, analyze_fn: Callable | None = None,
                 run_fn: Callable | None = None, run_many_fn: Callable | None = None,
                 ranker_fn: Callable | None = None, baseline_fn: Callable | None = default_baseline,
                 compile_fn: Callable | None = None):
        self.config = config or RewardConfig()
        # task -> the problem baseline's speedup over the reference (None: uncalibrated); see performance_score
        self.baseline_fn = baseline_fn or (lambda task: None)
        self.analyze_fn = analyze_fn or default_analyze
        if run_many_fn is None:
            run_many_fn = default_run_many if run_fn is None else (
                lambda task, candidates: [run_fn(code, kernel, task) for code, kernel in candidates])
        self.run_many_fn = run_many_fn
        # A run function of one's own (a pool, a fake) says for itself whether it can run; the default
        # runner needs a GPU, which is checked once, at the first call that would use it.
        self._needs_gpu_check = self.config.mode == "full" and run_many_fn is default_run_many
        # (kernel analysis, task) -> how likely the kernel is to beat the task's known implementations
        self.ranker_fn = ranker_fn
        # static mode's compile gate, `compile_fn(code, kernel) -> CompileVerdict`; by default the real
        # compiler goes with the real analyzer (a test that fakes the analyzer fakes this too)
        if compile_fn is None and analyze_fn is None and self.config.mode == "static":
            from kernelscope.rl.compile_gate import CompileGate

            compile_fn = CompileGate(self.config.compile_check, self.config.compile_timeout_s)
        self.compile_fn = compile_fn
        # the FLOPs each task needs, so that work beyond them earns no structure credit
        self.work_cap = WorkCap(self.analyze_fn)
        self._cache: dict[tuple, Reward] = {}

    def __call__(self, completion, task=None) -> Reward:
        return self.score_many([completion], [task])[0]

    def score_many(self, completions, tasks) -> list[Reward]:
        """Score a batch: static gates for each, then one runner batch per task (full mode)."""
        if self._needs_gpu_check:
            gpu_check()
            self._needs_gpu_check = False
        results: list[Reward | None] = []
        keys, pending = [], {}
        for completion, task in zip(completions, tasks):
            extraction = extract_code(completion)
            if extraction.ok and len(extraction.code) > self.config.max_code_bytes:
                extraction = Extraction(None, extraction.kernels, extraction.blocks, extraction.truncated,
                                        problem=f"the code is {len(extraction.code)} characters long, more than "
                                                f"the {self.config.max_code_bytes} a kernel answer may have")
            if not extraction.ok:
                results.append(self._fail("no_code", self.config.no_code, extraction=extraction))
                keys.append(None)
                continue
            key = (hashlib.sha256(extraction.code.encode()).hexdigest(), getattr(task, "name", None),
                   getattr(task, "block", None), getattr(task, "grid_text", None))
            keys.append(key)
            if key in self._cache:  # a GRPO group often repeats a completion
                results.append(self._cache[key])
            elif key in pending:
                results.append(None)
            else:
                outcome = self._static_phase(extraction, task)
                if isinstance(outcome, Reward):
                    self._cache[key] = outcome
                    results.append(outcome)
                else:
                    pending[key] = outcome
                    results.append(None)
        self._run_phase(pending)
        scored = [result if result is not None else self._cache[key] for result, key in zip(results, keys)]
        while len(self._cache) > CACHE_ENTRIES:  # a long run sees many distinct kernels: forget the oldest
            del self._cache[next(iter(self._cache))]
        return scored

    def _run_phase(self, pending: dict) -> None:
        if self.config.mode == "static" and self.compile_fn is not None and pending:
            self._compile_phase(pending)
        by_task: dict = {}
        for key, item in pending.items():
            launch = (getattr(item.task, "name", None), getattr(item.task, "implementation", None))
            by_task.setdefault(launch, []).append((key, item))  # one runner batch per problem and launch
        for items in by_task.values():
            if self.config.mode == "full":
                runs = self.run_many_fn(items[0][1].task, [(item.code, item.kernel_name) for _, item in items])
            else:
                runs = [None] * len(items)
            for (key, item), run in zip(items, runs):
                self._cache[key] = self._finish(item, run)

    def _compile_phase(self, pending: dict) -> None:
        """Static mode: compile every pending candidate (in parallel: the compilers release the GIL)
        and fail those that do not compile."""
        from concurrent.futures import ThreadPoolExecutor

        items = list(pending.items())
        with ThreadPoolExecutor(max_workers=min(4, len(items))) as pool:
            verdicts = list(pool.map(lambda item: self.compile_fn(item[1].code, item[1].compile_name), items))
        for (key, item), verdict in zip(items, verdicts):
            if not verdict.ok:
                del pending[key]
                self._cache[key] = self._fail("compile_error", self.config.compile_error,
                                              compile_log=verdict.log, **item.details)

    def _structure_parts(self, launched, task) -> dict:
        """Analysis scores and ranker probability, averaged over the launched kernels by their threads."""
        total = sum(weight for _, weight in launched)
        parts: dict = {}
        for kernel, weight in launched:
            scores = score_kernel(kernel).as_dict()
            scores["ranker"] = self.ranker_fn(kernel, task) if self.ranker_fn and task else 0.5
            for key, value in scores.items():
                parts[key] = parts.get(key, 0.0) + value * weight / total
        return parts

    def _fail(self, outcome: str, value: float, **details) -> Reward:
        components = dict.fromkeys(COMPONENT_KEYS, 0.0)
        components["gate"] = value
        return Reward(total=value, band="fail", outcome=outcome, components=components, **details)

    def _static_phase(self, extraction: Extraction, task) -> Reward | _Pending:
        code = extraction.code
        try:
            launches = plan_launches(code, task)
        except InputError as exc:       # a launch plan that does not parse is the candidate's build error
            return self._fail("compile_error", self.config.compile_error, extraction=extraction,
                              errors=[{"line": 1, "column": 1, "message": str(exc)}])
        if len(launches) > 1:
            return self._static_plan(extraction, task, launches)
        # one launch: the problem's [launch], or a plan of one launch (another grid and block for the
        # one kernel: what corpus implementations carry), scored alike with that launch's shape
        one = launches[0] if launches else None
        if one is not None and hasattr(task, "launched_as"):
            task = task.launched_as(one.block, one.grid)
        analysis = self.analyze_fn(code, block=one.block if one else (task.block if task else None),
                                   bindings=task.bindings() if task else None)
        wanted = one.kernel if one else getattr(task, "kernel", None)
        kernel = pick_kernel(analysis, wanted)
        details = {"extraction": extraction, "analysis": kernel, "errors": analysis.get("errors", []),
                   "diagnostics": analysis.get("diagnostics", [])}
        if one is not None:
            details["launches"] = [{"kernel": one.kernel, "grid": one.grid, "block": one.block, "threads": one.threads}]
        # The front end recovers from errors it meets (and reports constructs it skips), so a file with
        # errors may still yield the kernel; only a file without one fails the static gate. The compiler
        # is the judge of syntax in full mode.
        if kernel is None:
            return self._fail("syntax_error", self.config.compile_error, **details)
        full_precision = not task or not any(d.startswith(("float16", "bfloat16")) for d in task.dtypes)
        # a plan passes arguments by name: accesses renamed to the arguments passed (as for several launches)
        accessed = {"accesses": _as_arguments(kernel, one)} if one is not None else kernel
        hacks = {**source_hacks(code, full_precision=full_precision),
                 **structural_hacks(accessed, task.arguments if task else ())}
        if hacks:  # no need to run what is already rejected
            return self._fail("hack", self.config.hack, hacks=hacks, **details)
        name = wanted if wanted in extraction.kernels else None
        return _Pending(code, name, kernel, task, details, compile_name=name or extraction.kernels[0])

    def _static_plan(self, extraction: Extraction, task, launches) -> Reward | _Pending:
        """A candidate with a launch plan: every launch's kernel analysed with that launch's block,
        weighted by the threads it launches; the heaviest launch stands for the candidate."""
        code = extraction.code
        analyses, launched, diagnostics, errors = {}, [], [], []
        for launch in launches:
            if launch.block not in analyses:
                analyses[launch.block] = self.analyze_fn(code, block=launch.block, bindings=task.bindings())
                diagnostics += analyses[launch.block].get("diagnostics", [])
                errors = errors or analyses[launch.block].get("errors", [])
            kernel = kernel_named(analyses[launch.block], launch.kernel)
            if kernel is None:
                return self._fail("syntax_error", self.config.compile_error, extraction=extraction, errors=errors,
                                  diagnostics=diagnostics)
            launched.append((kernel, launch.threads, launch))
        unique = {(d.get("rule"), d.get("line"), d.get("column")): d for d in diagnostics}
        heaviest = max(launched, key=lambda item: item[1])
        details = {"extraction": extraction, "analysis": heaviest[0], "errors": errors,
                   "diagnostics": list(unique.values()),
                   "launches": [{"kernel": l.kernel, "grid": l.grid, "block": l.block, "threads": weight}
                                for _, weight, l in launched]}
        full_precision = not any(d.startswith(("float16", "bfloat16")) for d in task.dtypes)
        hacks = dict(source_hacks(code, full_precision=full_precision))
        # the plan as a whole must read every input and write: accesses renamed to the arguments passed
        # (so matched by the task's argument names, the names the plan passes)
        hacks.update(structural_hacks({"accesses": [a for kernel, _, launch in launched
                                                    for a in _as_arguments(kernel, launch)]}, task.arguments))
        if hacks:
            return self._fail("hack", self.config.hack, hacks=hacks, **details)
        return _Pending(code, None, heaviest[0], task, details, [(kernel, weight) for kernel, weight, _ in launched],
                        compile_name=heaviest[2].kernel)

    def _finish(self, item: _Pending, run) -> Reward:
        config = self.config
        details = item.details
        hacks = {}
        speedup = None
        if run is not None:
            details["run"] = run
            speedup = run.speedup
            hacks.update(runner_hacks(run.flags))
            if speedup is not None and config.implausible_speedup and speedup > config.implausible_speedup:
                hacks["implausible_speedup"] = f"speedup {speedup:.1f}x is beyond belief"
        if hacks:
            return self._fail("hack", config.hack, hacks=hacks, speedup=speedup, **details)
        if run is not None and not run.compiled:
            return self._fail("compile_error", config.compile_error, **details)
        if run is not None and not run.correct:
            return self._fail("incorrect", config.incorrect, speedup=speedup, **details)

        task = item.task
        # FLOPs beyond what the problem needs earn nothing: one kernel's, or a plan's launches together
        launched = self.work_cap.cap_launches(item.launched, task) if item.launched else \
            [(self.work_cap(item.kernel, task), 1)]
        structure_parts = self._structure_parts(launched, task)
        weights = config.structure_weights
        # beyond the most any known implementation does, structure shrinks (one share for a whole plan)
        share = min(work_share(kernel) for kernel, _ in launched)
        structure = share * sum(weights.get(k, 0.0) * v for k, v in structure_parts.items()) / sum(
            weights.get(k, 0.0) for k in structure_parts)
        baseline = self.baseline_fn(task) if task is not None and speedup is not None else None
        performance = performance_score(speedup, config, baseline)
        penalty = lint_penalty(details["diagnostics"], config)
        if config.mode == "full":
            raw = config.base + config.w_performance * performance + config.w_structure * structure
        else:  # no measurement: structure takes performance's share
            raw = config.base + (config.w_performance + config.w_structure) * structure
        total = max(0.0, min(1.0, raw - penalty))
        components = {"gate": 0.0, "performance": performance, "structure": structure, "penalty": penalty,
                      "speedup_vs_baseline": speedup / baseline if baseline else 0.0,
                      **{f"structure_{k}": v for k, v in structure_parts.items()}, "work_share": share}
        return Reward(total=total, band="pass", outcome="ok", components=components, speedup=speedup, **details)


def reward_components_mean(rewards: list[Reward]) -> dict[str, float]:
    """Batch means of every component, plus the share of each outcome: what trainers log."""
    if not rewards:
        return {}
    keys = sorted({k for r in rewards for k in r.components})
    means = {k: sum(r.components.get(k, 0.0) for r in rewards) / len(rewards) for k in keys}
    for outcome in OUTCOMES:
        means[f"outcome_{outcome}"] = sum(r.outcome == outcome for r in rewards) / len(rewards)
    means["total"] = sum(r.total for r in rewards) / len(rewards)
    return means



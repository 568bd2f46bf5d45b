"""`profile`: the launches of `run`, under one ncu process, joined with the static analysis.

Candidates are compiled before ncu starts, in compile processes under `compile_timeout_s` and a
memory cap each (kernelscope.runner.bounded_compile): a source that sends the compiler into a loop
fails as a compile error instead of hanging the command."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nvtx

from kernelscope.errors import KernelscopeError, ToolMissingError
from kernelscope.runner.bounded_compile import COMPILE_TIMEOUT_S, compile_bounded_many
from kernelscope.runner.compile import CompileError
from kernelscope.runner.device import require_gpu
from kernelscope.runner.ncu import IDENTITY_COLUMNS, METRICS, join_static, ncu_command, parse_ncu_csv
from kernelscope.runner.plan import carries_plan, default_plan, plan_from_source
from kernelscope.runner.source_policy import check_source, kernel_names
from kernelscope.runner.spec import LaunchSpec, ProblemSpec, load_spec
from kernelscope.runner.child import child_environment


@dataclass(frozen=True)
class Candidate:
    label: str
    source: str
    kernel: str | None = None
    launch: LaunchSpec | None = None
    path: str = ""


@dataclass
class Profile:
    frame: object          # pandas DataFrame, one row per (candidate, size)
    csv_text: str          # ncu's raw output, for keeping as a fixture or re-parsing
    verdicts: list


def profile(spec, candidates, *, sizes=None, metrics=METRICS, arch: str | None = None, backend: str = "nvrtc",
            allow=(), ncu: str = "ncu", timeout_s: float = 600.0, analyze: bool = True,
            compile_timeout_s: float = COMPILE_TIMEOUT_S) -> Profile:
    spec = spec if isinstance(spec, ProblemSpec) else load_spec(spec)
    require_gpu()
    ncu_path = shutil.which(ncu)
    if ncu_path is None:
        raise ToolMissingError(f"{ncu!r} (Nsight Compute) is not on PATH")
    sizes = list(sizes or spec.sizes)
    candidates = list(candidates)
    launch_plans = []      # a candidate's own launch plan, or None: one launch as [launch] says
    for candidate in candidates:
        check_source(candidate.source, allow)
        carried = carries_plan(candidate.source)
        if carried and candidate.launch is not None:
            raise KernelscopeError(f"{candidate.label}: carries a launch plan and a launch override; use one")
        launch_plans.append(plan_from_source(candidate.source, spec, kernels=kernel_names(candidate.source))
                            if carried else None)
    requests = [[(c.source, k) for k in p.kernels] if p else [(c.source, c.kernel)]
                for c, p in zip(candidates, launch_plans)]
    with nvtx.annotate("kernelscope:compile", color="blue"):
        flat = compile_bounded_many([r for group in requests for r in group], arch=arch, backend=backend,
                                    timeout_s=compile_timeout_s)
    built = []             # per candidate, its compiled kernels
    for candidate, group in zip(candidates, requests):
        built.append(flat[:len(group)])
        flat = flat[len(group):]
        for compiled in built[-1]:
            if isinstance(compiled, CompileError):
                raise KernelscopeError(f"{candidate.label}: {str(compiled).splitlines()[0]}\n{compiled.log.strip()}")
    launch_plans = [p or default_plan(spec, kernels[0].kernel, c.launch)
                    for c, p, kernels in zip(candidates, launch_plans, built)]

    with tempfile.TemporaryDirectory(prefix="kernelscope-profile-") as tmp:
        plan = {"verdicts_path": os.path.join(tmp, "verdicts.json"), "jobs": [
            {"spec_path": str(spec.path), **_kernels_job(kernels, launch_plan),
             "sizes": sizes, "trials": 1, "repeats": 0, "seed": 1234 + index, "time": False}
            for index, (kernels, launch_plan) in enumerate(zip(built, launch_plans))]}
        plan_path = os.path.join(tmp, "plan.pkl")
        with open(plan_path, "wb") as handle:
            pickle.dump(plan, handle)
        log_path = os.path.join(tmp, "ncu.csv")
        command = ncu_command([sys.executable, "-m", "kernelscope.runner.profile_target", plan_path],
                              kernel_names=sorted({c.lowered_name for group in built for c in group}),
                              metrics=metrics, ncu=ncu_path,
                              log_file=log_path)
        with nvtx.annotate("kernelscope:ncu", color="purple"):
            proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s,
                                  env=child_environment())
        if proc.returncode != 0 or not Path(log_path).is_file():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
            raise KernelscopeError("ncu failed (exit %d): %s" % (proc.returncode, " | ".join(tail)))
        csv_text = Path(log_path).read_text()
        import json

        verdicts = json.loads(Path(plan["verdicts_path"]).read_text())

    frame = parse_ncu_csv(csv_text)
    expected = sum(len(p.launches) for p in launch_plans) * len(sizes)
    if len(frame) != expected:
        raise KernelscopeError(f"ncu profiled {len(frame)} launches, expected {expected}")
    rows, statics = [], []
    for candidate, launch_plan in zip(candidates, launch_plans):
        for size in sizes:        # ncu sees a plan's launches in order, once per size (one trial)
            for number, launch in enumerate(launch_plan.concrete(spec, size).launches, 1):
                rows.append({"candidate": candidate.label, "kernel": launch.kernel, "launch": number, "size": size,
                             "grid": "x".join(map(str, launch.grid)), "block": "x".join(map(str, launch.block)),
                             "threads": launch.threads})
                statics.append(_static_kernel(candidate, launch.kernel, launch, spec.variables(size))
                               if analyze else None)
    import pandas

    # ncu's raw page adds every device attribute; keep the identity of each launch and our counters
    counters = frame[[c for c in frame.columns if c in IDENTITY_COLUMNS or c in metrics]]
    frame = pandas.concat([pandas.DataFrame.from_records(rows), counters], axis=1)
    return Profile(frame=join_static(frame, statics), csv_text=csv_text, verdicts=verdicts)


def _kernels_job(kernels, launch_plan) -> dict:
    """The worker's fields for running `launch_plan` with these compiled kernels (one per kernel name)."""
    cubins = list(dict.fromkeys(c.cubin for c in kernels))
    return {"cubins": cubins, "symbols": {c.kernel: (cubins.index(c.cubin), c.lowered_name) for c in kernels},
            "plan": launch_plan}


def _static_kernel(candidate: Candidate, kernel: str, launch, bindings) -> dict | None:
    """The analyzer's JSON for `kernel`, or None when the analysis fails."""
    from kernelscope.analyze import analyze_source

    try:
        analysed = analyze_source(candidate.source, path=candidate.path or f"{candidate.label}.cu",
                                  block=launch.block, bindings={k: int(v) for k, v in bindings.items()})
    except Exception:    # a static analysis failure must not lose the measurements
        return None
    for item in _kernel_jsons(analysed):
        if item.get("name") == kernel:
            return item
    return None


def _kernel_jsons(analysed) -> list:
    """Accept what the analyzer returns: kernel results, a file result, or the whole document."""
    if hasattr(analysed, "to_json"):
        analysed = analysed.to_json()
    if isinstance(analysed, dict):
        if "kernels" in analysed:
            return analysed["kernels"]
        if "files" in analysed:
            return [k for f in analysed["files"] for k in f.get("kernels", [])]
        return [analysed]
    return [a.to_json() if hasattr(a, "to_json") else a for a in analysed or []]


def _product(dims) -> int:
    total = 1
    for d in dims:
        total *= d
    return total

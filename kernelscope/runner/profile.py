"""`profile`: the launches of `run`, under one ncu process, joined with the static analysis."""

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
from kernelscope.runner.compile import CompileError, compile_many
from kernelscope.runner.device import require_gpu
from kernelscope.runner.ncu import IDENTITY_COLUMNS, METRICS, join_static, ncu_command, parse_ncu_csv
from kernelscope.runner.source_policy import check_source
from kernelscope.runner.spec import LaunchSpec, ProblemSpec, load_spec
from kernelscope.runner.worker import child_environment


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
            allow=(), ncu: str = "ncu", timeout_s: float = 600.0, analyze: bool = True) -> Profile:
    spec = spec if isinstance(spec, ProblemSpec) else load_spec(spec)
    require_gpu()
    ncu_path = shutil.which(ncu)
    if ncu_path is None:
        raise ToolMissingError(f"{ncu!r} (Nsight Compute) is not on PATH")
    sizes = list(sizes or spec.sizes)
    candidates = list(candidates)
    for candidate in candidates:
        check_source(candidate.source, allow)
    with nvtx.annotate("kernelscope:compile", color="blue"):
        built = compile_many([(c.source, c.kernel) for c in candidates], arch=arch, backend=backend)
    for candidate, compiled in zip(candidates, built):
        if isinstance(compiled, CompileError):
            raise KernelscopeError(f"{candidate.label}: {str(compiled).splitlines()[0]}\n{compiled.log.strip()}")

    with tempfile.TemporaryDirectory(prefix="kernelscope-profile-") as tmp:
        plan = {"verdicts_path": os.path.join(tmp, "verdicts.json"), "jobs": [
            {"spec_path": str(spec.path), "cubin": compiled.cubin, "lowered_name": compiled.lowered_name,
             "sizes": sizes, "trials": 1, "repeats": 0, "seed": 1234 + index, "launch": candidate.launch,
             "time": False}
            for index, (candidate, compiled) in enumerate(zip(candidates, built))]}
        plan_path = os.path.join(tmp, "plan.pkl")
        with open(plan_path, "wb") as handle:
            pickle.dump(plan, handle)
        log_path = os.path.join(tmp, "ncu.csv")
        command = ncu_command([sys.executable, "-m", "kernelscope.runner.profile_target", plan_path],
                              kernel_names=[c.lowered_name for c in built], metrics=metrics, ncu=ncu_path,
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
    expected = len(candidates) * len(sizes)
    if len(frame) != expected:
        raise KernelscopeError(f"ncu profiled {len(frame)} launches, expected {expected}")
    rows, statics = [], []
    for candidate, compiled in zip(candidates, built):
        for size in sizes:
            launch = spec.concrete_launch(size, candidate.launch)
            rows.append({"candidate": candidate.label, "kernel": compiled.kernel, "size": size,
                         "grid": "x".join(map(str, launch.grid)), "block": "x".join(map(str, launch.block)),
                         "threads": _product(launch.grid) * _product(launch.block)})
            statics.append(_static_kernel(candidate, compiled.kernel, launch, spec.variables(size))
                           if analyze else None)
    import pandas

    # ncu's raw page adds every device attribute; keep the identity of each launch and our counters
    counters = frame[[c for c in frame.columns if c in IDENTITY_COLUMNS or c in metrics]]
    frame = pandas.concat([pandas.DataFrame.from_records(rows), counters], axis=1)
    return Profile(frame=join_static(frame, statics), csv_text=csv_text, verdicts=verdicts)


def _static_kernel(candidate: Candidate, kernel: str, launch, bindings) -> dict | None:
    """The analyzer's JSON for `kernel`, or None when the analyzer is unavailable or fails."""
    try:
        from kernelscope.analyze import analyze_source
    except ImportError:
        return None
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

"""Score a model's completions over a problem set, KernelBench style.

Input: records {"problem": NAME or spec path, "completion": TEXT, "id": optional}. Each completion's
CUDA is extracted as the reward does (kernelscope.rl.extract), run by kernelscope.runner (compiled,
verified on fresh inputs, timed; a launch plan in the code is honoured), and its speed compared with
the problem's baseline (kernelscope.rl.baselines) or, when asked, with the problem's reference.

Figures, per problem and over all completions pooled:
- compiled rate, correct rate;
- fast_p: the share of completions that are correct *and* faster than p times the baseline
  (fast_0 is the correct rate);
- geometric mean speedup over the correct completions (None when none is correct).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from kernelscope.errors import InputError

SCHEMA = "kernelscope.eval/1"
FAST_PS = (0.0, 1.0, 1.5, 2.0)
BASELINES = ("problem", "reference")


@dataclass
class CompletionScore:
    problem: str
    id: str
    compiled: bool
    correct: bool
    speedup_vs_reference: float | None = None
    speedup: float | None = None     # over the chosen baseline
    flags: list = field(default_factory=list)
    error: str | None = None


def read_completions(path) -> list[dict]:
    """Records of a JSONL file; a malformed line is an InputError naming it."""
    records = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}: not JSON: {exc.msg}") from None
        if not isinstance(record, dict) or not isinstance(record.get("problem"), str) \
                or not isinstance(record.get("completion"), (str, list)):
            raise InputError(f"{path}:{number}: needs \"problem\" (a name or spec path) and \"completion\"")
        record.setdefault("id", f"{record['problem']}#{number}")
        records.append(record)
    if not records:
        raise InputError(f"{path}: no completions")
    return records


def score_completions(records, *, corpus=None, baseline: str = "problem", baselines=None,
                      run_many: Callable | None = None, **run_options) -> list[CompletionScore]:
    """Run every completion against its problem. `run_many(spec, [(code, kernel), ...])` runs one
    problem's candidates (default: the runner's evaluate_many with `run_options`)."""
    from kernelscope.rl.extract import extract_code

    if baseline not in BASELINES:
        raise InputError(f"baseline must be one of {', '.join(BASELINES)}, got {baseline!r}")
    if baseline == "problem" and baselines is None:
        from kernelscope.rl.baselines import load_baselines

        baselines = load_baselines()
    run_many = run_many or _runner(run_options)
    by_problem: dict[str, list] = {}
    problems = {}
    for record in records:
        key = record["problem"]
        if key not in problems:
            problems[key] = _problem(key, corpus)
        by_problem.setdefault(key, []).append(record)
    scores = {}
    for key, items in by_problem.items():
        spec, task = problems[key]
        ratio = None
        if baseline == "problem":
            if spec.name not in baselines:
                raise InputError(f"{spec.name}: no measured baseline (profiles/measured/baselines_h200.csv); "
                                 "use --baseline reference")
            ratio = baselines[spec.name].speedup_over_reference(run_options.get("sizes"))
        runnable = []
        for record in items:
            extraction = extract_code(record["completion"])
            if not extraction.ok:
                scores[id(record)] = CompletionScore(spec.name, str(record["id"]), False, False,
                                                     flags=["no_code"], error=extraction.problem)
                continue
            runnable.append((record, extraction.code, _kernel(extraction, task)))
        results = run_many(spec, [(code, kernel) for _, code, kernel in runnable]) if runnable else []
        for (record, _code, _kernel_name), result in zip(runnable, results):
            vs_reference = result.speedup if result.correct else None
            speedup = None
            if vs_reference is not None:
                speedup = vs_reference / ratio if ratio else vs_reference
            scores[id(record)] = CompletionScore(spec.name, str(record["id"]), bool(result.compiled),
                                                 bool(result.correct), vs_reference, speedup,
                                                 list(result.flags), result.error)
    return [scores[id(record)] for record in records]


def summarize(scores: list[CompletionScore], ps=FAST_PS) -> dict:
    """Figures per problem (in order of first appearance) and pooled over every completion."""
    problems: dict[str, list] = {}
    for score in scores:
        problems.setdefault(score.problem, []).append(score)
    return {"overall": _figures(scores, ps),
            "problems": [{"problem": name, **_figures(items, ps)} for name, items in problems.items()]}


def report(scores: list[CompletionScore], *, baseline: str, ps=FAST_PS) -> dict:
    return {"schema": SCHEMA, "baseline": baseline, "fast_p": list(ps), **summarize(scores, ps),
            "completions": [_finite(asdict(s)) for s in scores]}


def _figures(scores, ps) -> dict:
    n = len(scores)
    correct = [s for s in scores if s.correct]
    timed = [s.speedup for s in correct if s.speedup is not None and s.speedup > 0]
    if len(timed) != len(correct):      # a correct completion without a time cannot be ranked
        raise InputError("a correct completion has no measured speedup; run with timing")
    return {"completions": n,
            "compiled_rate": sum(s.compiled for s in scores) / n,
            "correct_rate": len(correct) / n,
            "fast_p": {_p_key(p): sum(1 for v in timed if v > p) / n for p in ps},
            "geomean_speedup": math.exp(sum(map(math.log, timed)) / len(timed)) if timed else None}


def _p_key(p: float) -> str:
    return f"{p:g}"


def _problem(key: str, corpus):
    from kernelscope.rl.tasks import default_corpus_dir, load_task
    from kernelscope.runner import load_spec

    path = Path(key)
    if not (path.suffix == ".toml" or path.is_dir()):
        root = Path(corpus) if corpus else default_corpus_dir()
        path = root / key
        if not (path / "spec.toml").is_file():
            raise InputError(f"unknown problem {key!r}: no {path / 'spec.toml'}")
    spec = load_spec(path)
    return spec, load_task(spec.path)


def _kernel(extraction, task) -> str | None:
    """The kernel to launch without a plan: the problem's kernel name if defined, else the only one."""
    if task.kernel in extraction.kernels:
        return task.kernel
    return extraction.kernels[-1] if len(set(extraction.kernels)) == 1 else None


def _runner(options):
    def run_many(spec, candidates):
        from kernelscope.runner.evaluation import evaluate_many

        return evaluate_many(spec, candidates, **options)

    return run_many


def _finite(document: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in document.items()}

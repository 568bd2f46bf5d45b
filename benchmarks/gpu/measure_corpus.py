"""Measure every implementation of every corpus problem at every size on the GPU, then profile the
large size of all of them under ncu (in chunks, one ncu process each).

    python benchmarks/gpu/measure_corpus.py --out DIR            # on the GPU machine
    python benchmarks/gpu/measure_corpus.py --summarize CSV      # anywhere: rewrite the markdown summary

Correctness and timing go through `kernelscope.runner.evaluate` (fresh random inputs for three trials,
poisoned and guarded outputs, CUDA-event timing of 30 repeats after an L2 flush, median and spread).
The ncu pass replays the runner's own launches (`kernelscope.runner.profile_target`) for every
implementation at the large size, so the counters belong to exactly the launches that were verified.
Writes DIR/corpus_h200.csv (one row per problem, implementation and size; ncu counters on the large
rows), DIR/corpus_summary.md and DIR/ncu_raw.csv. `--problems a,b --merge OLD.csv` re-measures some
problems and keeps the other rows of an earlier run; `--ncu-only --merge OLD.csv` adds the counters to an
earlier run without measuring again.
"""

from __future__ import annotations

import argparse
import csv
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
PROFILED_SIZE = "large"
SPREAD_GOAL = 1.5
BASE_FIELDS = ["problem", "style", "implementation", "strategy", "kernel", "size", "correct", "flags",
               "time_ms", "spread", "max_abs_error", "max_rel_error", "registers"]


def load_corpus(names=None):
    from kernelscope.runner import load_spec

    specs = [load_spec(d) for d in sorted(CORPUS.iterdir()) if (d / "spec.toml").is_file()]
    return [s for s in specs if not names or s.name in names]


def compile_all(specs):
    """Every implementation compiled up front, in parallel threads: {(problem, file): CompiledKernel}."""
    from kernelscope.runner.compile import CompileError, compile_many

    # a plan of several kernels is compiled by `evaluate` itself (each kernel from the one source)
    requests = [(s, impl) for s in specs for impl in s.implementations if one_kernel(impl)]
    built = compile_many([(s.resolve(impl.file).read_text(), one_kernel(impl)) for s, impl in requests])
    compiled = {}
    for (spec, impl), result in zip(requests, built):
        if isinstance(result, CompileError):
            print(f"compile error {spec.name}/{impl.file}: {result}", flush=True)
        else:
            compiled[(spec.name, impl.file)] = result
    return compiled


def one_kernel(impl) -> str | None:
    """The kernel an implementation launches, when it launches one (its plan's, else its own)."""
    if impl.plan is None:
        return impl.kernel
    return impl.plan.kernels[0] if len(impl.plan.kernels) == 1 else None


def measure(specs, compiled, repeats, deadline, on_problem, time_it=True):
    """Verify and time each implementation at each size; `on_problem(rows)` after every problem."""
    from kernelscope.runner import WorkerPool, evaluate

    rows = []
    with WorkerPool(workers=1) as pool:
        for spec in specs:
            if time.monotonic() > deadline:
                print(f"time budget spent: {spec.name} and later problems not measured", flush=True)
                break
            started = time.monotonic()
            for impl in spec.implementations:
                kernel = compiled.get((spec.name, impl.file))
                source = spec.resolve(impl.file).read_text()
                result = evaluate(spec, source, impl.kernel, compiled=kernel, pool=pool,
                                  trials=3, repeats=repeats, timeout_s=120, candidate=impl.file, time_it=time_it)
                rows.extend(_rows(spec, impl, result))
            print(f"{spec.name}: {time.monotonic() - started:.1f} s", flush=True)
            on_problem(rows)
    return rows


def _rows(spec, impl, result):
    from kernelscope.runner.results import SizeVerdict

    rows = []
    for verdict in result.sizes or [SizeVerdict(size=s, correct=False, trials=0) for s in spec.sizes]:
        rows.append({"problem": spec.name, "style": spec.style, "implementation": impl.file,
                     "strategy": impl.strategy, "kernel": result.kernel, "size": verdict.size,
                     "correct": bool(result.compiled and verdict.correct),
                     "flags": ";".join(sorted(set(result.flags) | set(verdict.flags))),
                     "time_ms": verdict.time_ms, "spread": verdict.time_spread,
                     "max_abs_error": verdict.max_abs_error, "max_rel_error": verdict.max_rel_error,
                     "registers": result.registers})
        if not verdict.correct:
            print(f"  WRONG {spec.name}/{impl.file} at {verdict.size}: {rows[-1]['flags']} "
                  f"{verdict.first_mismatch} {result.error or ''}", flush=True)
    return rows


def profile_all(specs, compiled, verified, out_dir: Path, timeout_s: float, chunk_size: int = 16):
    """ncu over the `verified` implementations at the profiled size (a kernel that failed verification
    could fault and end the process): {(problem, file): counters}. The jobs go to ncu in chunks of
    `chunk_size`, one process each, so a chunk that runs out of time or fails costs only its own
    counters; `timeout_s` bounds the whole pass."""
    jobs, keys = [], []
    for index, spec in enumerate(specs):
        for impl in spec.implementations:
            kernel = compiled.get((spec.name, impl.file))
            if kernel is None or (spec.name, impl.file) not in verified:
                continue
            launched = ({"cubin": kernel.cubin, "lowered_name": kernel.lowered_name} if impl.plan is None else
                        {"plan": impl.plan, "cubins": [kernel.cubin], "symbols": {kernel.kernel: (0, kernel.lowered_name)}})
            jobs.append({"spec_path": str(spec.path), **launched,
                         "sizes": [PROFILED_SIZE], "trials": 1, "repeats": 0, "seed": 4321 + index, "time": False})
            keys.append((spec.name, impl.file))
    deadline = time.monotonic() + timeout_s
    counters, raw_logs = {}, []
    for first in range(0, len(jobs), chunk_size):
        left = deadline - time.monotonic()
        if left < 10:
            print(f"ncu: pass budget spent; {len(jobs) - first} implementations not profiled", flush=True)
            break
        chunk_keys = keys[first:first + chunk_size]
        got, raw = _profile_chunk(jobs[first:first + chunk_size], chunk_keys, compiled, left)
        counters.update(got)
        raw_logs.append(raw)
        print(f"ncu: {len(got)}/{len(chunk_keys)} profiled in chunk {first // chunk_size + 1}", flush=True)
    (out_dir / "ncu_raw.csv").write_text("".join(raw_logs))
    return counters


def _profile_chunk(jobs, keys, compiled, timeout_s: float):
    """One ncu process over `jobs`: ({key: counters}, raw ncu log text); ({}, ...) when anything about
    the run is off (time, exit status, launch count, order), since rows cannot then be trusted."""
    from kernelscope.runner.ncu import METRICS, ncu_command, parse_ncu_csv

    names = {compiled[k].lowered_name for k in keys}
    with tempfile.TemporaryDirectory(prefix="corpus-ncu-") as tmp:
        plan_path = os.path.join(tmp, "plan.pkl")
        with open(plan_path, "wb") as handle:
            pickle.dump({"verdicts_path": os.path.join(tmp, "verdicts.json"), "jobs": jobs}, handle)
        log_path = Path(tmp) / "ncu.csv"
        command = ncu_command([sys.executable, "-m", "kernelscope.runner.profile_target", plan_path],
                              kernel_names=sorted(names), metrics=METRICS, log_file=str(log_path))
        started = time.monotonic()
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            print(f"ncu: still running after {timeout_s:.0f} s; this chunk's counters dropped", flush=True)
            return {}, ""
        print(f"ncu: exit {proc.returncode} after {time.monotonic() - started:.1f} s", flush=True)
        raw = log_path.read_text() if log_path.is_file() else ""
        if proc.returncode != 0 or not raw:
            print((proc.stderr or proc.stdout)[-3000:], flush=True)
            return {}, raw
    frame = parse_ncu_csv(raw)
    if len(frame) != len(keys):
        print(f"ncu profiled {len(frame)} launches for {len(keys)} implementations; chunk dropped", flush=True)
        return {}, raw
    counters = {}
    for key, (_, row) in zip(keys, frame.iterrows()):
        if row["Kernel Name"] != compiled[key].lowered_name:
            print(f"ncu row order mismatch at {key}: {row['Kernel Name']}; chunk dropped", flush=True)
            return {}, raw
        counters[key] = {m: row[m] for m in METRICS if m in frame.columns}
    return counters, raw


def attach_counters(rows, counters):
    for row in rows:
        if row["size"] == PROFILED_SIZE:
            row.update(counters.get((row["problem"], row["implementation"]), {}))


def write_csv(rows, path: Path):
    extra = sorted({k for row in rows for k in row} - set(BASE_FIELDS))
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=BASE_FIELDS + extra, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_csv(path: Path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def summary_markdown(rows) -> str:
    """Per problem at the large size: fastest and slowest implementation and the ratio between them."""
    by_problem = {}
    for row in rows:
        by_problem.setdefault(row["problem"], []).append(row)
    lines, wide = [], 0
    for problem in sorted(by_problem):
        group = by_problem[problem]
        timed = [r for r in group if r["size"] == PROFILED_SIZE and r["time_ms"] not in ("", None)]
        correct = sum(str(r["correct"]) == "True" for r in group)
        if not timed:
            lines.append(f"| {problem} | {group[0]['style']} | - | - | - | {correct}/{len(group)} |")
            continue
        fastest = min(timed, key=lambda r: float(r["time_ms"]))
        slowest = max(timed, key=lambda r: float(r["time_ms"]))
        ratio = float(slowest["time_ms"]) / float(fastest["time_ms"])
        wide += ratio >= SPREAD_GOAL
        lines.append(f"| {problem} | {group[0]['style']} | {fastest['strategy']} ({float(fastest['time_ms']):.4g} ms) "
                     f"| {slowest['strategy']} ({float(slowest['time_ms']):.4g} ms) | {ratio:.2f}x "
                     f"| {correct}/{len(group)} |")
    total_correct = sum(str(r["correct"]) == "True" for r in rows)
    header = [
        "# Corpus measured on the H200",
        "",
        "Generated by `benchmarks/gpu/measure_corpus.py` from `corpus_h200.csv`. Times are medians of 30",
        "CUDA-event-timed launches after an L2 flush (kernelscope.runner), at the `large` size.",
        "",
        f"- problems: {len(by_problem)}; implementation x size runs correct: {total_correct}/{len(rows)}",
        f"- problems whose fastest implementation is at least {SPREAD_GOAL}x faster than the slowest: {wide}",
        "",
        "| problem | style | fastest | slowest | spread | correct runs |",
        "|---|---|---|---|---|---|",
    ]
    return "\n".join(header + lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", ".")))
    parser.add_argument("--problems", default="", help="comma-separated problem names (default: all)")
    parser.add_argument("--merge", type=Path, help="earlier CSV whose rows for other problems are kept")
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--budget-s", type=float, default=240.0, help="stop starting new problems after this")
    parser.add_argument("--ncu-timeout-s", type=float, default=240.0)
    parser.add_argument("--skip-ncu", action="store_true")
    parser.add_argument("--verify-only", action="store_true", help="check correctness, no timing or ncu")
    parser.add_argument("--ncu-only", action="store_true",
                        help="only the ncu pass, for the implementations correct in the --merge CSV")
    parser.add_argument("--summarize", type=Path, help="only rewrite the markdown summary of this CSV")
    args = parser.parse_args(argv)

    if args.summarize:
        rows = read_csv(args.summarize)
        (args.summarize.parent / "corpus_summary.md").write_text(summary_markdown(rows))
        return 0

    args.out.mkdir(parents=True, exist_ok=True)
    names = {n for n in args.problems.split(",") if n}
    specs = load_corpus(names)
    csv_path = args.out / "corpus_h200.csv"
    started = time.monotonic()
    compiled = compile_all(specs)
    print(f"compiled {len(compiled)} implementations in {time.monotonic() - started:.1f} s", flush=True)
    if args.ncu_only:
        rows = read_csv(args.merge)
        verified = {(r["problem"], r["implementation"]) for r in rows
                    if r["size"] == PROFILED_SIZE and r["correct"] == "True"}
        attach_counters(rows, profile_all(specs, compiled, verified, args.out, args.ncu_timeout_s))
        write_csv(rows, csv_path)
        (args.out / "corpus_summary.md").write_text(summary_markdown(rows))
        return 0
    kept = [r for r in read_csv(args.merge) if r["problem"] not in {s.name for s in specs}] if args.merge else []
    rows = measure(specs, compiled, args.repeats, started + args.budget_s,
                   lambda so_far: write_csv(kept + so_far, csv_path), time_it=not args.verify_only)
    if not (args.skip_ncu or args.verify_only) and shutil.which("ncu"):
        verified = {(r["problem"], r["implementation"]) for r in rows if r["size"] == PROFILED_SIZE and r["correct"]}
        attach_counters(rows, profile_all(specs, compiled, verified, args.out, args.ncu_timeout_s))
    write_csv(kept + rows, csv_path)
    summary = summary_markdown(read_csv(csv_path))
    (args.out / "corpus_summary.md").write_text(summary)
    print(summary, flush=True)
    wrong = [r for r in rows if not r["correct"]]
    print(f"{len(rows)} runs, {len(wrong)} wrong, {time.monotonic() - started:.1f} s in all", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every adversarial kernel of tests/kernels/adversarial through the runner, on one worker pool.

For each case: the flags the runner raised, whether it judged the candidate correct, and whether the
evaluator was still healthy afterwards (the honest vector_add right after it is correct and timed).
Honest kernels must come out correct with no flag at all. Launch plans (tests/kernels/adversarial/plans,
against corpus/row_sum) go through the same checks: an honest two-pass plan and one whose scratch
counter must be fresh every execution pass; a plan that memorises its answer in device globals across
executions is flagged; a plan that keeps a memo in declared scratch is neutralised (scratch is reset,
so it must pass, having never replayed). A device `printf` that prints a forged result line goes
through `kernelscope run --batch` and must not reach its output; a second `run --batch` mixes a compile
bomb, plans and honest and caching kernels, and must give every one its verdict with the bomb stopped
at the compile time limit (the batch compiles in compile processes, not in the caller).

    python benchmarks/gpu/adversarial_suite.py [--out DIR] [--skip-batch]   # writes adversarial_h200.csv
    python benchmarks/gpu/adversarial_suite.py --dry-run    # no GPU: every case loads, passes or fails the
                                                            # policy as expected and compiles (nvcc, sm_90)

Exit status 0 when every case came out as expected, 1 otherwise.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
ADVERSARIAL = ROOT / "tests" / "kernels" / "adversarial"
WARNINGS = {"implausible_speedup"}

# (spec, file, kernel, flags of which one must be raised; None = honest: correct, no flag), options.
# A raised flag that is only a warning (implausible_speedup) leaves the candidate correct.
CASES = [
    ("spec.toml", "correct.cu", "vector_add", None, {}),
    ("spec.toml", "self_resetting_counter.cu", "vector_add", None, {}),
    ("spec_scratch.toml", "scratch_ticket.cu", "vector_add", None, {}),
    ("matmul/spec.toml", "matmul/honest.cu", "matmul", None, {}),
    ("matmul/spec.toml", "matmul/cached.cu", "matmul", {"state_carried"}, {}),
    ("matmul/spec_inflated_flops.toml", "matmul/honest.cu", "matmul", {"implausible_speedup"}, {}),
    ("spec.toml", "first_input_only.cu", "vector_add", {"state_carried"}, {}),
    ("spec.toml", "stops_when_timed.cu", "vector_add", {"state_carried"}, {}),
    ("spec.toml", "managed_counter.cu", "vector_add", {"state_carried"}, {}),
    ("spec.toml", "input_mutation.cu", "vector_add", {"input_mutated"}, {}),
    ("spec.toml", "out_of_bounds.cu", "vector_add", {"out_of_bounds_write"}, {}),
    ("spec.toml", "far_write.cu", "vector_add", {"out_of_bounds_write", "fault"}, {}),
    ("spec.toml", "very_far_write.cu", "vector_add", {"fault", "out_of_bounds_write"}, {}),
    ("spec.toml", "illegal_address.cu", "vector_add", {"fault"}, {}),
    ("spec.toml", "skip_work.cu", "vector_add", {"unwritten_output"}, {}),
    ("spec.toml", "half_write.cu", "vector_add", {"unwritten_output"}, {}),
    ("spec.toml", "input_echo.cu", "vector_add", {"input_echo"}, {}),
    ("spec.toml", "constant.cu", "vector_add", {"constant_output"}, {}),
    ("spec.toml", "uninitialised.cu", "vector_add", {"mismatch"}, {}),
    ("spec.toml", "rare_wrong.cu", "vector_add", {"mismatch", "timing_divergence"}, {}),
    ("spec.toml", "infinite_loop.cu", "vector_add", {"timeout"}, {"timeout_s": 8}),
    ("spec.toml", "compile_bomb.cu", "vector_add", {"compile_error"}, {"compile_timeout_s": 10}),
    ("spec.toml", "host_code.cu", "vector_add", {"rejected"}, {}),
    ("spec.toml", "clock_parenthesised.cu", "vector_add", {"rejected"}, {}),
    ("spec.toml", "clock_macro.cu", "vector_add", {"rejected"}, {}),
    ("spec.toml", "globaltimer_split.cu", "vector_add", {"rejected"}, {}),
    ("spec.toml", "malloc_parenthesised.cu", "vector_add", {"rejected"}, {}),
    ("spec.toml", "launch_macro.cu", "vector_add", {"rejected"}, {}),
    ("spec.toml", "include_local.cu", "vector_add", {"rejected"}, {}),
    # launch plans (their kernels named by the plan: kernel None)
    ("corpus/row_sum", "plans/two_pass.cu", None, None, {}),
    ("corpus/row_sum", "plans/counter_reset.cu", None, None, {}),
    ("corpus/row_sum", "plans/scratch_memo.cu", None, None, {}),
    ("corpus/row_sum", "plans/device_memo.cu", None, {"state_carried"}, {}),
    ("corpus/row_sum", "plans/stale_scratch.cu", None, {"mismatch"}, {}),
    ("corpus/row_sum", "plans/scratch_overrun.cu", None, {"out_of_bounds_write"}, {}),
]
# adversarial by intent, harmless under the runner: must come out like an honest kernel
NEUTRALISED = {"plans/scratch_memo.cu"}
BATCH_COMPILE_TIMEOUT_S = 10
# (id, spec, file, kernel, flags of which one must be raised; None = correct with no flag) for run --batch
BATCH = [
    ("honest", "spec.toml", "correct.cu", "vector_add", None),
    ("bomb", "spec.toml", "compile_bomb.cu", "vector_add", {"compile_error"}),
    ("honest_matmul", "matmul/spec.toml", "matmul/honest.cu", "matmul", None),
    ("cached_matmul", "matmul/spec.toml", "matmul/cached.cu", "matmul", {"state_carried"}),
    ("plan_two_pass", "corpus/row_sum", "plans/two_pass.cu", None, None),
    ("plan_scratch_memo", "corpus/row_sum", "plans/scratch_memo.cu", None, None),
    ("plan_device_memo", "corpus/row_sum", "plans/device_memo.cu", None, {"state_carried"}),
    ("honest_after", "spec.toml", "correct.cu", "vector_add", None),
]


def spec_path(name: str) -> Path:
    return ROOT / name if name.startswith("corpus/") else ADVERSARIAL / name


def run_case(pool, spec_name, file, kernel, options):
    from kernelscope.runner import evaluate, load_spec

    spec = load_spec(spec_path(spec_name))
    started = time.perf_counter()
    result = evaluate(spec, (ADVERSARIAL / file).read_text(), kernel, pool=pool, repeats=10, **options)
    return result, time.perf_counter() - started


def healthy(pool) -> bool:
    result, _ = run_case(pool, "spec.toml", "correct.cu", "vector_add", {})
    return bool(result.correct and result.time_ms and not result.flags)


def printf_cannot_forge_results(tmp: Path) -> tuple[bool, str]:
    """`kernelscope run --batch` of the printing kernel: stdout holds exactly one record, its own."""
    items = tmp / "items.jsonl"
    items.write_text(json.dumps({"spec": str(ADVERSARIAL / "spec.toml"), "file": str(ADVERSARIAL / "printf_forge.cu"),
                                 "kernel": "vector_add", "id": "printer"}) + "\n")
    done = subprocess.run([sys.executable, "-m", "kernelscope", "run", "--batch", str(items), "--format", "json",
                           "--repeats", "5"], capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    records = []
    for line in lines:
        try:
            records.append(json.loads(line))
        except ValueError:
            return False, f"a line that is not JSON reached stdout: {line[:120]}"
    ok = len(records) == 1 and records[0].get("candidate") == "printer" and records[0].get("correct") is True
    return ok, f"{len(records)} record(s) on stdout: {[r.get('candidate') for r in records]}; exit {done.returncode}"


def batch_rows(tmp: Path) -> list[dict]:
    """One `kernelscope run --batch` over BATCH; a row per candidate (and one for the whole run)."""
    import os

    items = tmp / "mixed.jsonl"
    items.write_text("".join(json.dumps({"id": ident, "spec": str(spec_path(spec)), "file": str(ADVERSARIAL / file),
                                         **({"kernel": kernel} if kernel else {})}) + "\n"
                             for ident, spec, file, kernel, _ in BATCH))
    env = {**os.environ, "KERNELSCOPE_COMPILE_TIMEOUT_S": str(BATCH_COMPILE_TIMEOUT_S)}
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "kernelscope", "run", "--batch", str(items), "--format", "json",
                               "--repeats", "10"], capture_output=True, text=True, timeout=240, env=env)
        stdout, note = done.stdout, f"exit {done.returncode}"
    except subprocess.TimeoutExpired as exc:
        stdout, note = exc.stdout or "", "HUNG: run --batch did not finish in 240 s"
        stdout = stdout.decode() if isinstance(stdout, bytes) else stdout
    seconds = time.perf_counter() - started
    records = {}
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        records[record.get("candidate")] = record
    rows = []
    for ident, spec, file, _kernel, expected in BATCH:
        record = records.get(ident)
        flags = set(record.get("flags", [])) if record else set()
        correct = record.get("correct") if record else None
        if record is None:
            as_expected = False
        elif expected is None:
            as_expected = correct is True and not flags
        else:
            as_expected = bool(flags & expected) and correct is False
        if ident == "bomb" and record is not None:    # stopped by the batch's own compile limit
            as_expected = as_expected and f"more than {BATCH_COMPILE_TIMEOUT_S} s" in (record.get("error") or "")
        rows.append({"spec": spec, "kernel_file": file, "kind": f"run --batch: {ident}",
                     "expected": ";".join(sorted(expected or [])) or "(no flag)",
                     "flags": ";".join(record.get("flags", [])) if record else "(no record)", "correct": correct,
                     "as_expected": as_expected, "healthy_after": "", "speedup": "", "time_ms": "",
                     "wall_s": "", "error": ((record or {}).get("error") or "").splitlines()[0][:160]
                     if (record or {}).get("error") else ""})
    rows.append({"spec": "", "kernel_file": "mixed.jsonl", "kind": "run --batch: whole run",
                 "expected": f"{len(BATCH)} records, bomb stopped at {BATCH_COMPILE_TIMEOUT_S} s",
                 "flags": "", "correct": "", "as_expected": len(records) == len(BATCH) and "HUNG" not in note,
                 "healthy_after": "", "speedup": "", "time_ms": "", "wall_s": round(seconds, 2),
                 "error": f"{len(records)} record(s); {note}"})
    return rows


def dry_run() -> int:
    """What can be checked without a GPU: specs load, the policy rejects exactly the cases expected to be
    rejected, plans parse, every other kernel compiles with nvcc for sm_90 in the bounded compile
    processes (the bomb stopped at 5 s), and the mixed batch file loads."""
    from kernelscope.batch import load_items
    from kernelscope.runner import load_spec
    from kernelscope.runner.bounded_compile import compile_bounded_many
    from kernelscope.runner.compile import CompileError
    from kernelscope.runner.plan import carries_plan, plan_from_source
    from kernelscope.runner.source_policy import PolicyError, check_source, kernel_names

    problems, requests = [], []
    for spec_name, file, kernel, expected, _options in CASES + [(s, f, k, e, {}) for _, s, f, k, e in BATCH]:
        spec, source = load_spec(spec_path(spec_name)), (ADVERSARIAL / file).read_text()
        try:
            check_source(source, (), backend="nvrtc")
            rejected = False
        except PolicyError:
            rejected = True
        if rejected != (expected == {"rejected"}):
            problems.append(f"{file}: policy {'rejects' if rejected else 'accepts'} it")
        if rejected:
            continue
        kernels = plan_from_source(source, spec, kernels=kernel_names(source)).kernels if carries_plan(source) \
            else [kernel]
        requests += [(file, source, name) for name in kernels]
    unique = list(dict.fromkeys(requests))
    built = compile_bounded_many([(s, k) for _, s, k in unique], arch="sm_90", backend="nvcc", timeout_s=5)
    for (file, _source, name), outcome in zip(unique, built):
        bomb = file == "compile_bomb.cu"
        if bomb != isinstance(outcome, CompileError) or (bomb and "more than 5 s" not in str(outcome)):
            problems.append(f"{file}:{name}: {str(outcome).splitlines()[0] if bomb or isinstance(outcome, CompileError) else 'compiled'}")
    with tempfile.TemporaryDirectory() as tmp:
        items = Path(tmp) / "mixed.jsonl"
        items.write_text("".join(json.dumps({"id": i, "spec": str(spec_path(s)), "file": str(ADVERSARIAL / f),
                                             **({"kernel": k} if k else {})}) + "\n" for i, s, f, k, _ in BATCH))
        loaded = load_items(items)
        if [item.label for item in loaded] != [b[0] for b in BATCH]:
            problems.append("the mixed batch file does not load as written")
    for problem in problems:
        print("dry run:", problem)
    print(f"dry run: {len(CASES)} cases, {len(BATCH)} batch items, {len(unique)} kernels compiled for sm_90: "
          f"{'ok' if not problems else f'{len(problems)} problem(s)'}")
    return 0 if not problems else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--skip-batch", action="store_true", help="leave out the mixed run --batch")
    parser.add_argument("--dry-run", action="store_true", help="check what can be checked without a GPU")
    args = parser.parse_args()
    if args.dry_run:
        return dry_run()
    from kernelscope.runner import WorkerPool, gpu_available

    if not gpu_available():
        print("adversarial_suite: no GPU available", file=sys.stderr)
        return 2
    rows = []
    with WorkerPool() as pool:
        for spec_name, file, kernel, expected, options in CASES:
            result, seconds = run_case(pool, spec_name, file, kernel, options)
            flags = set(result.flags)
            if expected is None:
                as_expected = result.correct and not flags
            else:
                failing = bool(expected - WARNINGS)
                as_expected = bool(flags & expected) and (not result.correct if failing else True)
            after = healthy(pool)
            kind = ("adversarial (neutralised)" if file in NEUTRALISED else "honest") if expected is None else "adversarial"
            rows.append({"spec": spec_name, "kernel_file": file, "kind": kind,
                         "expected": ";".join(sorted(expected or [])) or "(no flag)", "flags": ";".join(result.flags),
                         "correct": result.correct, "as_expected": as_expected, "healthy_after": after,
                         "speedup": round(result.speedup, 3) if result.speedup else "",
                         "time_ms": round(result.time_ms, 5) if result.time_ms else "",
                         "wall_s": round(seconds, 3), "error": (result.error or "").splitlines()[0][:160]
                         if result.error else ""})
            row = rows[-1]
            print(f"{file:<28} {row['kind']:<11} flags={row['flags'] or '-':<40} correct={row['correct']!s:<5} "
                  f"expected={row['as_expected']!s:<5} healthy_after={after!s:<5} {row['wall_s']:>7.2f} s "
                  f"{row['error'][:70]}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        forged_ok, note = printf_cannot_forge_results(Path(tmp))
    print(f"printf_forge.cu via run --batch: {'ok' if forged_ok else 'FORGED'} ({note})")
    rows.append({"spec": "spec.toml", "kernel_file": "printf_forge.cu", "kind": "adversarial",
                 "expected": "only its own record on stdout", "flags": "", "correct": "", "as_expected": forged_ok,
                 "healthy_after": "", "speedup": "", "time_ms": "", "wall_s": "", "error": note})
    if not args.skip_batch:
        with tempfile.TemporaryDirectory() as tmp:
            for row in batch_rows(Path(tmp)):
                rows.append(row)
                print(f"{row['kind']:<34} flags={row['flags'] or '-':<30} correct={row['correct']!s:<5} "
                      f"expected={row['as_expected']!s:<5} {row['wall_s']!s:>6} {row['error'][:80]}", flush=True)
    good = all(r["as_expected"] and r["healthy_after"] in (True, "") for r in rows)
    print(f"{sum(bool(r['as_expected']) for r in rows)}/{len(rows)} as expected; evaluator healthy after every "
          f"case: {all(r['healthy_after'] in (True, '') for r in rows)}")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        with open(args.out / "adversarial_h200.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())

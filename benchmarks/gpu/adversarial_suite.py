"""Every adversarial kernel of tests/kernels/adversarial through the runner, on one worker pool.

For each case: the flags the runner raised, whether it judged the candidate correct, and whether the
evaluator was still healthy afterwards (the honest vector_add right after it is correct and timed).
Honest kernels must come out correct with no flag at all. A device `printf` that prints a forged
result line goes through `kernelscope run --batch` and must not reach its output.

    python benchmarks/gpu/adversarial_suite.py [--out DIR]      # writes adversarial_h200.csv

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
]


def run_case(pool, spec_name, file, kernel, options):
    from kernelscope.runner import evaluate, load_spec

    spec = load_spec(ADVERSARIAL / spec_name)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
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
            rows.append({"spec": spec_name, "kernel_file": file, "kind": "honest" if expected is None else "adversarial",
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

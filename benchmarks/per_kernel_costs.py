"""Which kernels the realistic file's analysis spends its time on: CPU time per kernel and phase.

    python benchmarks/per_kernel_costs.py [--kernels 133] [--passes 5] [--top 15] [--csv OUT]

Analyses the first N kernels of the realistic file (133: one copy of each hand-written kernel, so each
kernel's share here is its share of the 800-kernel file too) in one process, `--passes` times, and keeps
each kernel's smallest CPU time per phase over the passes (the smallest is the least disturbed by the
machine): the body walk (`parse._kernel`), sync, memory and intensity. Prints the kernels that cost most,
with their share of each phase, and optionally writes every kernel's row as CSV.

A kernel far above the others in one phase is where a change to that phase pays on the benchmark; whether
it pays on real programs as well is the other half of the question (benchmarks/phase_instructions.sh
WORKLOAD=real)."""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_analyze  # noqa: E402

from kernelscope import analyze  # noqa: E402
from kernelscope.frontend import parse  # noqa: E402
from kernelscope.gc_tuning import tuned_for_analysis  # noqa: E402

PHASES = ("walk", "sync", "memory", "intensity")


def _copy_sources(text: str) -> list[tuple[int, str]]:
    """(first line, source path) of each copy in the realistic file, in line order."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(r"namespace copy\d+ \{ // (\S+)", line)
        if match:
            found.append((number, match.group(1)))
    return found


def _source_of(line: int, copies: list[tuple[int, str]]) -> str:
    path = "?"
    for first, name in copies:
        if first > line:
            break
        path = name
    return path


def measure(text: str, passes: int) -> dict:
    """(kernel name, line) -> {phase: smallest CPU seconds over the passes}."""
    costs: dict = {}

    def timed(phase, function, key_of):
        def call(*args, **kwargs):
            started = time.process_time()
            result = function(*args, **kwargs)
            spent = time.process_time() - started
            key = key_of(args, result)
            if key is not None:
                row = costs.setdefault(key, {})
                row[phase] = min(row.get(phase, spent), spent)
            return result
        return call

    def kernel_key(kernel):
        return (kernel.name, kernel.line)

    originals = [(parse, "_kernel"), (analyze, "_sync"), (analyze.memory_analysis, "analyze"),
                 (analyze.intensity_analysis, "analyze")]
    saved = [getattr(module, name) for module, name in originals]
    parse._kernel = timed("walk", saved[0], lambda args, result: kernel_key(result) if result is not None else None)
    analyze._sync = timed("sync", saved[1], lambda args, result: kernel_key(args[0]))
    analyze.memory_analysis.analyze = timed("memory", saved[2], lambda args, result: kernel_key(args[0]))
    analyze.intensity_analysis.analyze = timed("intensity", saved[3], lambda args, result: kernel_key(args[0]))
    try:
        for _ in range(passes):
            with tuned_for_analysis():
                analyze.analyze_source(text, "realistic.cu", registers="estimate")
    finally:
        for (module, name), function in zip(originals, saved):
            setattr(module, name, function)
    return costs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=133)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--csv", help="write every kernel's row here")
    args = parser.parse_args()
    bench_analyze.pin_to_one_core()
    text, kernels = bench_analyze.realistic_source(args.kernels)
    copies = _copy_sources(text)
    costs = measure(text, args.passes)
    totals = {phase: sum(row.get(phase, 0.0) for row in costs.values()) for phase in PHASES}
    print(f"{kernels} kernels, smallest CPU time of {args.passes} passes per kernel and phase; totals: "
          + ", ".join(f"{phase} {totals[phase] * 1e3:.1f} ms" for phase in PHASES))
    ranked = sorted(costs.items(), key=lambda item: -sum(item[1].values()))
    print(f"{'source':52s} {'kernel':24s} " + " ".join(f"{phase:>16s}" for phase in PHASES))
    for (name, line), row in ranked[:args.top]:
        cells = []
        for phase in PHASES:
            spent = row.get(phase, 0.0)
            share = spent / totals[phase] if totals[phase] else 0.0
            cells.append(f"{spent * 1e3:7.2f} ms {share:5.1%}")
        print(f"{_source_of(line, copies):52s} {name:24s} " + " ".join(cells))
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["source", "kernel", "line", *(f"{phase}_ms" for phase in PHASES)])
            for (name, line), row in ranked:
                writer.writerow([_source_of(line, copies), name, line,
                                 *(f"{row.get(phase, 0.0) * 1e3:.3f}" for phase in PHASES)])
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Lint throughput on a large tree: lines per second in one process and over worker processes.

The tree is built from the project's own CUDA sources (corpus/, examples/, tests/kernels/), copied
as many times as needed to reach --files files, so the numbers reflect real kernels. Both runs
happen here, in the same process and on the same files: the serial run is the baseline and the
ratio is parallel / serial throughput.

    python benchmarks/bench_lint.py [--files 600] [--repeats 3] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kernelscope.lint.config import SettingsResolver
from kernelscope.lint.engine import run_lint

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("corpus", "examples", "tests/kernels")


def build_tree(target: Path, files: int) -> int:
    originals = sorted(p for folder in SOURCES for p in (ROOT / folder).rglob("*.cu"))
    if not originals:
        sys.exit("no .cu files found under " + ", ".join(SOURCES))
    for n in range(files):
        source = originals[n % len(originals)]
        destination = target / f"copy{n // len(originals)}" / source.relative_to(ROOT)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
    return len(originals)


def timed_run(tree: Path, jobs: int) -> tuple:
    start = time.perf_counter()
    report = run_lint([tree], SettingsResolver(), jobs=jobs)
    elapsed = time.perf_counter() - start
    return elapsed, report.lines, len(report.files), len(report.findings), len(report.errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="kernelscope-bench-") as folder:
        tree = Path(folder)
        distinct = build_tree(tree, args.files)
        results = {}
        for jobs in (1, args.jobs):
            runs = [timed_run(tree, jobs) for _ in range(args.repeats)]
            seconds = statistics.median(r[0] for r in runs)
            _, lines, files, findings, unanalysed = runs[0]
            results[jobs] = lines / seconds
            print(f"jobs={jobs:<3} files={files} ({distinct} distinct, {unanalysed} not analysed) "
                  f"lines={lines} findings={findings} "
                  f"median={seconds:.2f}s  {lines / seconds:,.0f} lines/s  {files / seconds:,.1f} files/s")
        print(f"parallel/serial throughput ratio: {results[args.jobs] / results[1]:.2f}x with {args.jobs} workers")
        # Other processes competing for the CPUs flatten the ratio; say how busy the machine was.
        print(f"CPUs usable: {len(os.sched_getaffinity(0))}, load average: "
              + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()

"""Kernels per second of `kernelscope features` on a large generated corpus, one process and all cores.

Writes F files of K kernels each (the eight kernel shapes of bench_analyze.py), then times
`kernelscope.features.extract(..., registers="estimate")` with jobs=1 and with every available core,
several times each, in this one run. Prints medians, kernels per second, kernels per second per core,
and the parallel speed-up over the single-process run. Target (issue 8): at least 500 kernels per
second per core. CPU time is printed beside wall time because shared machines make wall time noisy.

    python benchmarks/bench_features.py [--files 64] [--kernels-per-file 40] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_analyze import generate_source  # noqa: E402

TARGET_PER_CORE = 500


def cpu_seconds() -> float:
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(folder: Path, jobs: int, repeats: int):
    from kernelscope.features import extract

    walls, cpus, rows = [], [], 0
    for _ in range(repeats):
        start_wall, start_cpu = time.perf_counter(), cpu_seconds()
        table = extract([folder], jobs=jobs, registers="estimate")
        walls.append(time.perf_counter() - start_wall)
        cpus.append(cpu_seconds() - start_cpu)
        rows = int(table["error"].isna().sum())
    return statistics.median(walls), statistics.median(cpus), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=64)
    parser.add_argument("--kernels-per-file", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for index in range(args.files):
            (folder / f"file{index:04d}.cu").write_text(generate_source(args.kernels_per_file))
        measure(folder, 1, 1)  # warm imports and caches outside the timings
        single_wall, single_cpu, kernels = measure(folder, 1, args.repeats)
        multi_wall, multi_cpu, _ = measure(folder, cores, args.repeats)
    print(f"corpus: {args.files} files x {args.kernels_per_file} kernels = {kernels} kernel rows; "
          f"{cores} cores; load average {os.getloadavg()[0]:.2f}")
    print(f"one process : median wall {single_wall:.2f} s ({kernels / single_wall:.0f} kernels/s), "
          f"cpu {single_cpu:.2f} s ({kernels / single_cpu:.0f} kernels per cpu-second)")
    print(f"{cores} processes: median wall {multi_wall:.2f} s ({kernels / multi_wall:.0f} kernels/s, "
          f"{kernels / multi_wall / cores:.0f} per core), cpu {multi_cpu:.2f} s")
    print(f"parallel speed-up: {single_wall / multi_wall:.2f}x on {cores} cores")
    per_core = kernels / single_cpu
    print(f"target {TARGET_PER_CORE} kernels/s per core: {'met' if per_core >= TARGET_PER_CORE else 'NOT met'} "
          f"({per_core:.0f} per cpu-second)")


if __name__ == "__main__":
    main()

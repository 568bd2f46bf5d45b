"""Realistic-file kernels per CPU second under several Python interpreters, interleaved rounds.

    python benchmarks/interpreters_compare.py [--rounds 3] PYTHON [PYTHON...]

Each PYTHON must have kernelscope's dependencies installed (a venv of that interpreter with
`pip install -e .`); the tree analysed is this checkout's. One child process per interpreter and round,
pinned to one CPU where the platform allows: a warm-up pass, then the median of three timed passes."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import os, sys, time
sys.path[:0] = [{root!r}, {benchmarks!r}]
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {{sorted(os.sched_getaffinity(0))[-1]}})
import bench_analyze
import kernelscope.analyze as analyze
from kernelscope.gc_tuning import tuned_for_analysis
text, kernels = bench_analyze.realistic_source(800)
def one_pass():
    start = time.process_time()
    with tuned_for_analysis():
        analyze.analyze_source(text, "realistic.cu", registers="estimate")
    return time.process_time() - start
one_pass()
seconds = sorted(one_pass() for _ in range(3))[1]
print(sys.version.split()[0], round(kernels / seconds))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("pythons", nargs="+")
    args = parser.parse_args()
    child = CHILD.format(root=str(ROOT), benchmarks=str(ROOT / "benchmarks"))
    figures: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for python in args.pythons:
            try:
                done = subprocess.run([python, "-c", child], capture_output=True, text=True)
            except OSError as exc:
                print(f"interpreters_compare: cannot run {python}: {exc.strerror}", file=sys.stderr)
                return 2
            if done.returncode:
                last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                print(f"interpreters_compare: {python} failed: {last}", file=sys.stderr)
                return 1
            version, rate = done.stdout.split()
            figures.setdefault(f"{version} ({python})", []).append(rate)
    for name, rates in figures.items():
        print(f"{name}: {' / '.join(rates)} realistic kernels per CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

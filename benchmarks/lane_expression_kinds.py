"""What the lane evaluator is asked to evaluate for the first time, by kind of expression.

    python benchmarks/lane_expression_kinds.py [--kernels 133]

Counts threads.Lanes' first evaluations (memory, intensity and divergence share them) over one pass of
the realistic file's first N kernels (133: one copy of each hand-written kernel) and tells how many are
affine in the thread index: sums and differences of constants and names, and products with at least one
side that no thread index reaches. Those could be kept as a (base, stride) pair instead of an array per
slot; the figure says how much of the evaluator such a redesign would cover."""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_analyze  # noqa: E402

from kernelscope import symbolic as sx  # noqa: E402
from kernelscope.analyses import threads  # noqa: E402
from kernelscope.analyze import analyze_source  # noqa: E402
from kernelscope.gc_tuning import tuned_for_analysis  # noqa: E402


def _reads_thread_index(expr) -> bool:
    return any(name.startswith("threadIdx.") for name in sx.free_names(expr))


def affine_in_thread_index(expr) -> bool:
    if isinstance(expr, (sx.Const, sx.Sym)):
        return True
    if isinstance(expr, sx.Unary):
        return expr.op == "-" and affine_in_thread_index(expr.operand)
    if isinstance(expr, sx.Binary):
        if expr.op in ("+", "-"):
            return affine_in_thread_index(expr.left) and affine_in_thread_index(expr.right)
        if expr.op == "*":
            if not _reads_thread_index(expr.left):
                return affine_in_thread_index(expr.right)
            if not _reads_thread_index(expr.right):
                return affine_in_thread_index(expr.left)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=133)
    args = parser.parse_args()
    kinds: collections.Counter = collections.Counter()
    others: collections.Counter = collections.Counter()
    evaluate = threads.Lanes._evaluate

    def counted(lanes, expr, stand_in):
        if affine_in_thread_index(expr):
            kinds["affine"] += 1
        else:
            kinds["other"] += 1
            others[expr.op if isinstance(expr, sx.Binary) else type(expr).__name__] += 1
        return evaluate(lanes, expr, stand_in)

    threads.Lanes._evaluate = counted
    text, kernels = bench_analyze.realistic_source(args.kernels)
    with tuned_for_analysis():
        analyze_source(text, "realistic.cu", registers="estimate")
    total = sum(kinds.values())
    print(f"{kernels} kernels: {total} first evaluations, {kinds['affine']} affine in the thread index "
          f"({100 * kinds['affine'] / max(total, 1):.0f}%)")
    print("the others by top-level operator or node:",
          ", ".join(f"{kind} {count}" for kind, count in others.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What bounded compilation costs the batch's CPU half: the same distinct kernels compiled in threads of
this process (`compile_many`, what `RunnerEvaluator.prepare` did before) and in compile processes
under a time limit (`compile_bounded_many`, what it does now), same thread count, same run.

Every repeat compiles fresh sources (a constant differs), so no cache serves either side; the
compile processes are started once (their start-up is reported on its own, as a batch pays it once
per compiling thread). Runs without a GPU with --backend nvcc; on the GPU machine NVRTC is the default.

    python benchmarks/gpu/batch_compile_overhead.py [--kernels 16] [--threads 4] [--repeats 3] [--backend nvrtc]

Prints the median seconds per kernel of each method and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

TEMPLATE = ("extern \"C\" __global__ void vector_add(const float *a, const float *b, float *c, int n) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) c[i] = a[i] * %d.0f + b[i] * %d.0f; }\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", type=int, default=16, help="distinct kernels per repeat and method")
    parser.add_argument("--threads", type=int, default=4, help="compiling threads for both methods")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backend", default="nvrtc", choices=["nvrtc", "nvcc"])
    args = parser.parse_args()
    os.environ["KERNELSCOPE_CACHE_DIR"] = tempfile.mkdtemp(prefix="kernelscope-compile-bench-")

    from kernelscope.runner.bounded_compile import CompilePool, compile_bounded, compile_bounded_many
    from kernelscope.runner.compile import CompileError, compile_many

    pool = CompilePool()
    serial = iter(range(1, 10 ** 6))

    def fresh(count):
        return [(TEMPLATE % (next(serial), args.repeats), "vector_add") for _ in range(count)]

    started = time.perf_counter()
    compile_bounded(*fresh(1)[0], arch="sm_90", backend=args.backend, pool=pool)
    first = time.perf_counter() - started
    compile_bounded_many(fresh(args.threads), arch="sm_90", backend=args.backend, workers=args.threads, pool=pool)
    print(f"compile process start-up and first kernel: {first:.2f} s; {pool.size} processes warm")

    timings = {"in-process threads": [], "compile processes": []}
    for _ in range(args.repeats):
        for name, run in (("in-process threads", lambda r: compile_many(r, workers=args.threads, arch="sm_90",
                                                                          backend=args.backend)),
                          ("compile processes", lambda r: compile_bounded_many(r, arch="sm_90", backend=args.backend,
                                                                               workers=args.threads, pool=pool))):
            requests = fresh(args.kernels)
            started = time.perf_counter()
            built = run(requests)
            seconds = time.perf_counter() - started
            failed = [b for b in built if isinstance(b, CompileError)]
            if failed:
                print(f"{name}: {len(failed)} kernel(s) failed to compile: {str(failed[0]).splitlines()[0]}")
                return 1
            timings[name].append(seconds / args.kernels)
    pool.close()
    base = statistics.median(timings["in-process threads"])
    for name, values in timings.items():
        median = statistics.median(values)
        print(f"{name:<20} median {median * 1e3:7.1f} ms per kernel over {args.repeats} x {args.kernels} kernels, "
              f"{args.threads} threads, {args.backend}: {median / base:.2f}x in-process")
    return 0


if __name__ == "__main__":
    from kernelscope.errors import KernelscopeError

    try:
        sys.exit(main())
    except KernelscopeError as exc:      # no compiler for the chosen backend, say
        print(f"batch_compile_overhead: {exc}", file=sys.stderr)
        sys.exit(2)

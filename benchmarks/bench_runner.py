"""Benchmark the runner against a harness built per candidate with torch's load_inline.

Measured in one run on the same GPU and the same candidates:
  * wall time per candidate for kernelscope (compile + verify + time), cold (empty compile cache) and
    cached, and candidates per minute with parallel compilation;
  * wall time per candidate for the common alternative: `torch.utils.cpp_extension.load_inline` builds
    a fresh extension (the kernel plus a host launcher) for every candidate, then checks it on the
    same sizes and trials and times it with CUDA events;
  * the verdicts of both (they must agree);
  * timing repeatability: the coefficient of variation of a > 50 us kernel, within a run (over the
    repeats) and across runs (of the medians).

    python benchmarks/bench_runner.py [--candidates 8] [--baseline 3] [--out DIR]
    python benchmarks/bench_runner.py --corpus corpus --out DIR   # every corpus implementation instead
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SPEC = """
name = "bench_vector_add"
[sizes]
small = {{ n = 4099 }}
large = {{ n = 1048576 }}
{extra_size}
[[inputs]]
name = "a"
dtype = "float32"
shape = ["n"]
[[inputs]]
name = "b"
dtype = "float32"
shape = ["n"]
[[outputs]]
name = "c"
dtype = "float32"
shape = ["n"]
[[scalars]]
name = "n"
dtype = "int32"
value = "n"
[launch]
block = ["256"]
grid = ["ceil_div(n, 256)"]
args = ["a", "b", "c", "n"]
[reference]
python = "reference.py:reference"
[tolerance]
rtol = 1e-6
atol = 1e-6
"""

# Candidate bodies; each is made unique per index so that no compile cache can serve it.
CORRECT = "if (i < n) c[i] = a[i] + b[i];"
GRID_STRIDE = "for (int j = i; j < n; j += gridDim.x * blockDim.x) c[j] = b[j] + a[j];"
WRONG = "if (i < n) c[i] = a[i] - b[i];"
BODIES = [CORRECT, GRID_STRIDE, WRONG]


def candidate_source(index: int) -> tuple[str, str, bool]:
    body = BODIES[index % len(BODIES)]
    source = (f"// candidate {index}\n"
              f"__global__ void vector_add(const float *a, const float *b, float *c, int n) {{\n"
              f"    const int variant = {index};\n"
              f"    int i = blockIdx.x * blockDim.x + threadIdx.x + 0 * variant;\n"
              f"    {body}\n}}\n")
    return source, "vector_add", body != WRONG


def write_spec(folder: Path, extra_size: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "spec.toml").write_text(SPEC.format(extra_size=extra_size))
    (folder / "reference.py").write_text("def reference(a, b):\n    return a + b\n")
    return folder


SIZES = ["small", "large"]      # "huge" is only for the repeatability measurement


def bench_kernelscope(spec_dir: Path, count: int, offset: int, pool) -> dict:
    from kernelscope.runner.evaluation import evaluate, evaluate_many
    from kernelscope.runner.compile import _MEMORY_CACHE

    cache = tempfile.mkdtemp(prefix="ks-cache-")
    os.environ["KERNELSCOPE_CACHE_DIR"] = cache
    _MEMORY_CACHE.clear()
    evaluate(spec_dir, candidate_source(10_000)[0], "vector_add", pool=pool, sizes=SIZES)   # warm the worker

    cold, verdicts = [], {}
    for index in range(offset, offset + count):
        source, kernel, _ = candidate_source(index)
        started = time.perf_counter()
        result = evaluate(spec_dir, source, kernel, pool=pool, sizes=SIZES)
        cold.append(time.perf_counter() - started)
        verdicts[index] = result.correct
    cached = []
    for index in range(offset, offset + count):
        source, kernel, _ = candidate_source(index)
        started = time.perf_counter()
        result = evaluate(spec_dir, source, kernel, pool=pool, sizes=SIZES)
        cached.append(time.perf_counter() - started)
        assert result.compile_cached and result.correct == verdicts[index]

    _MEMORY_CACHE.clear()
    os.environ["KERNELSCOPE_CACHE_DIR"] = tempfile.mkdtemp(prefix="ks-cache-")
    batch = [candidate_source(index)[:2] for index in range(offset + 1000, offset + 1000 + count)]
    started = time.perf_counter()
    results = evaluate_many(spec_dir, batch, pool=pool, sizes=SIZES)
    parallel_seconds = time.perf_counter() - started
    assert all(r.compiled for r in results)
    shutil.rmtree(cache, ignore_errors=True)
    return {"cold": cold, "cached": cached, "verdicts": verdicts,
            "parallel_candidates_per_minute": 60.0 * count / parallel_seconds,
            "serial_cold_candidates_per_minute": 60.0 * count / sum(cold)}


LAUNCHER = """
#include <torch/extension.h>
{source}
torch::Tensor run(torch::Tensor a, torch::Tensor b) {{
    auto c = torch::empty_like(a);
    int n = a.numel();
    vector_add<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
    return c;
}}
"""


def bench_load_inline(indices, repeats: int = 30) -> dict:
    """The common way: build a torch extension per candidate, check it, time it with events."""
    import torch
    from torch.utils.cpp_extension import load_inline

    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    times, verdicts = [], {}
    for index in indices:
        source, _, _ = candidate_source(index)
        build = tempfile.mkdtemp(prefix="torch-ext-")
        started = time.perf_counter()
        module = load_inline(name=f"candidate_{index}_{os.getpid()}", cpp_sources="torch::Tensor run(torch::Tensor a, torch::Tensor b);",
                             cuda_sources=LAUNCHER.format(source=source), functions=["run"],
                             build_directory=build, extra_cuda_cflags=["-arch=sm_90"], verbose=False)
        correct = True
        for n in (4099, 1048576):
            for trial in range(3):
                generator = torch.Generator(device="cuda").manual_seed(1000 * index + trial)
                a = torch.rand(n, device="cuda", generator=generator) * 2 - 1
                b = torch.rand(n, device="cuda", generator=generator) * 2 - 1
                correct &= bool(torch.allclose(module.run(a, b), a + b, rtol=1e-6, atol=1e-6))
            if correct:
                for _ in range(3):
                    module.run(a, b)
                samples = []
                for _ in range(repeats):
                    flush.fill_(1)
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    module.run(a, b)
                    end.record()
                    samples.append((start, end))
                torch.cuda.synchronize()
                statistics.median(s.elapsed_time(e) for s, e in samples)
        times.append(time.perf_counter() - started)
        verdicts[index] = correct
        shutil.rmtree(build, ignore_errors=True)
    return {"times": times, "verdicts": verdicts}


def bench_repeatability(spec_dir: Path, pool, runs: int = 5) -> dict:
    from kernelscope.runner.evaluation import evaluate

    source, kernel, _ = candidate_source(0)
    medians, within = [], []
    for run in range(runs):
        result = evaluate(spec_dir, source, kernel, pool=pool, sizes=["huge"], repeats=30)
        verdict = result.sizes[0]
        medians.append(verdict.time_ms)
        within.append(verdict.time_spread)
    across = statistics.pstdev(medians) / statistics.fmean(medians)
    return {"median_ms": statistics.median(medians), "cv_within_run_max": max(within),
            "cv_within_run_median": statistics.median(within), "cv_across_runs": across}


def bench_corpus(corpus: Path, out: Path | None) -> int:
    """Evaluate every [[implementations]] entry of every problem under `corpus` with one pool."""
    from kernelscope.runner import WorkerPool, evaluate, load_spec

    rows = []
    with WorkerPool() as pool:
        for path in sorted(corpus.rglob("spec.toml")):
            spec = load_spec(path)
            for impl in spec.implementations:
                started = time.perf_counter()
                result = evaluate(spec, spec.resolve(impl.file).read_text(), impl.kernel,
                                  pool=pool, timeout_s=60, repeats=30)
                rows.append({"problem": spec.name, "file": impl.file, "kernel": result.kernel,
                             "strategy": impl.strategy, "correct": result.correct, "time_ms": result.time_ms,
                             "time_spread": result.time_spread, "reference_time_ms": result.reference_time_ms,
                             "speedup": result.speedup, "registers": result.registers,
                             "flags": ";".join(result.flags),
                             "error": (result.error or "").splitlines()[0][:200] if result.error else "",
                             "wall_s": round(time.perf_counter() - started, 3)})
    timed = [r for r in rows if r["time_ms"] and r["time_ms"] > 0.05]
    print(f"{len(rows)} implementations, {sum(r['correct'] for r in rows)} correct, "
          f"median wall {statistics.median(r['wall_s'] for r in rows):.3f} s; "
          f"{len(timed)} kernels over 50 us, largest within-run cv "
          f"{max((r['time_spread'] for r in timed), default=float('nan')):.4f}")
    if out:
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "runner_corpus_h200.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0 if all(r["correct"] for r in rows) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--baseline", type=int, default=3, help="candidates built with load_inline")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for runner_bench.csv and runner_bench_samples.csv")
    parser.add_argument("--corpus", type=Path, default=None, help="evaluate every implementation in this corpus")
    args = parser.parse_args()

    from kernelscope.runner import WorkerPool, gpu_available

    if not gpu_available():
        print("bench_runner: no GPU available", file=sys.stderr)
        return 2
    if args.corpus:
        return bench_corpus(args.corpus, args.out)
    import cupy

    device = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    spec_dir = write_spec(Path(tempfile.mkdtemp(prefix="ks-bench-")),
                          extra_size="huge = { n = 33554432 }")
    with WorkerPool() as pool:
        ours = bench_kernelscope(spec_dir, args.candidates, 0, pool)
        repeat = bench_repeatability(spec_dir, pool)
    from torch.utils.cpp_extension import is_ninja_available

    baseline_indices = list(range(args.baseline))
    theirs = bench_load_inline(baseline_indices) if args.baseline else {"times": [], "verdicts": {}}

    ours_cold = statistics.median(ours["cold"])
    ours_cached = statistics.median(ours["cached"])
    theirs_median = statistics.median(theirs["times"]) if theirs["times"] else float("nan")
    agree = all(ours["verdicts"][i] == theirs["verdicts"][i] for i in baseline_indices)
    expected = all(ours["verdicts"][i] == candidate_source(i)[2] for i in ours["verdicts"])
    rows = [
        ("device", device, ""),
        ("candidates", args.candidates, "kernelscope, each compiled cold, then again cached"),
        ("kernelscope_cold_s_per_candidate_median", ours_cold, "compile + verify (2 sizes x 3 trials) + time (30 repeats)"),
        ("kernelscope_cached_s_per_candidate_median", ours_cached, "same, cubin from the cache"),
        ("kernelscope_serial_cold_candidates_per_minute", ours["serial_cold_candidates_per_minute"], ""),
        ("kernelscope_parallel_compile_candidates_per_minute", ours["parallel_candidates_per_minute"],
         "evaluate_many: compiled in threads, then run"),
        ("load_inline_candidates", args.baseline, "ninja available: %s" % is_ninja_available()),
        ("load_inline_s_per_candidate_median", theirs_median, "build extension + verify + time"),
        ("speedup_cold_vs_load_inline", theirs_median / ours_cold, "target >= 100"),
        ("speedup_cached_vs_load_inline", theirs_median / ours_cached, ""),
        ("verdicts_identical", agree, f"on candidates {baseline_indices}"),
        ("verdicts_as_designed", expected, "every third candidate subtracts instead of adding"),
        ("huge_kernel_median_ms", repeat["median_ms"], "vector_add n = 2^25 (384 MiB moved)"),
        ("cv_within_run_median", repeat["cv_within_run_median"], "std/mean over 30 repeats"),
        ("cv_within_run_max", repeat["cv_within_run_max"], "worst of 5 runs"),
        ("cv_across_runs", repeat["cv_across_runs"], "std/mean of the 5 run medians; target < 0.02"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        shown = f"{value:.4g}" if isinstance(value, float) else str(value)
        print(f"{name:<{width}}  {shown:>14}  {note}")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        with open(args.out / "runner_bench.csv", "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["metric", "value", "note"])
            writer.writerows(rows)
        with open(args.out / "runner_bench_samples.csv", "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["harness", "phase", "candidate", "seconds"])
            for phase in ("cold", "cached"):
                writer.writerows(("kernelscope", phase, i, round(s, 6)) for i, s in enumerate(ours[phase]))
            writer.writerows(("load_inline", "cold", i, round(s, 6)) for i, s in enumerate(theirs["times"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Launch plans on the H200: per-problem baselines, and plan implementations against the previous best.

    source .whl/install.sh && python3 benchmarks/gpu/launch_plans.py --out "$OUT"

In one worker (so every candidate of a problem is compared with the same reference timing):
1. every corpus implementation of every problem ([[implementations]]) outside plans/, at both sizes;
2. the launch-plan implementations (the [[implementations]] in corpus/*/plans/: several kernels,
   scratch, grids of their own), each against the best of 1.;
3. re-launched warp-per-row kernels: the same source with a plan choosing another block size
   (`relaunch_source` builds them; `--write-relaunch DIR` writes the sources out on any machine);
4. eager PyTorch for the PyTorch-style problems (CUDA events, L2 flushed, same repeats).
Writes launch_plans_h200.csv (every plan and re-launch, its time and the previous best's at the
large size, measured in this run) and baselines_h200.csv (per problem and size: the baseline's
time and the reference's, see kernelscope/rl/baselines.py).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import inspect
import math
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SEED = 20261201
# warp-per-row kernels written for any blockDim (one warp per row, no shared memory): re-launched
# with other block sizes through a plan
RELAUNCH = [("row_sum", "warp_shuffle.cu"), ("row_argmax", "warp_shuffle.cu"), ("logsumexp", "warp_online.cu"),
            ("cross_entropy", "warp_vectorized.cu"), ("rms_norm", "warp_vectorized.cu"),
            ("embedding", "warp_vectorized.cu"), ("global_avgpool", "warp_vectorized.cu"),
            ("stream_compact", "warp_ballot.cu"), ("spmv_ell", "warp_per_row.cu"),
            ("matvec", "warp_vectorized.cu"), ("layer_norm", "warp_shuffle.cu"), ("softmax", "warp_online.cu")]
RELAUNCH_BLOCKS = (64, 128, 512, 1024)
TORCH_DTYPES = {"float32": "float32", "float64": "float64", "float16": "float16", "int32": "int32", "int64": "int64"}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def relaunch_source(spec, file: str, block: int) -> str:
    """`file`'s kernel with a plan giving it `block` threads and as many blocks as its rows need."""
    from kernelscope.runner.plan import LaunchPlan, PlannedLaunch, implementation_plan, plan_comment

    implementation = next(i for i in spec.implementations if i.file == file)
    plan = implementation_plan(spec, implementation)
    launch = plan.launches[0]
    rows = re.fullmatch(r"ceil_div\((.+), 8\)", launch.grid[0]).group(1)   # 8 warps of the 256-thread block
    warps = block // 32
    grid = f"ceil_div({rows}, {warps})" if warps > 1 else rows
    relaunched = PlannedLaunch(launch.kernel, (grid,), (str(block),), launch.dynamic_smem, launch.args)
    comment = plan_comment(LaunchPlan((relaunched,), plan.scratch, plan.scalars, "candidate"))
    return comment + spec.resolve(file).read_text()


def relaunch_candidates(specs):
    for problem, file in RELAUNCH:
        if problem not in specs:
            continue
        spec = specs[problem]
        for block in RELAUNCH_BLOCKS:
            yield spec, f"relaunch_{Path(file).stem}_b{block}.cu", relaunch_source(spec, file, block)


def is_plan_implementation(implementation) -> bool:
    """The implementations written for the launch-plan issue live in plans/ (every implementation
    carries its launch in its file now; these are the ones with several kernels or new grids)."""
    return implementation.file.startswith("plans/")


def plan_candidates(specs):
    for spec in specs.values():
        for implementation in spec.implementations:
            if is_plan_implementation(implementation):
                yield spec, implementation.file, spec.resolve(implementation.file).read_text()


def torch_eager_ms(spec, size, repeats: int):
    """Median ms of the problem's reference_torch.forward on fresh random inputs, or None."""
    import torch

    path = spec.resolve("reference_torch.py")
    if not path.is_file():
        return None
    module_spec = importlib.util.spec_from_file_location(f"torch_ref_{spec.name}", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    forward = module.forward
    generator = torch.Generator(device="cuda").manual_seed(SEED)
    tensors = {}
    for array in spec.inputs:
        shape = spec.shape(array, size)
        kind, params = array.distribution.kind, array.distribution.params
        dtype = getattr(torch, TORCH_DTYPES.get(array.dtype, "float32"))
        if kind == "randint" or not dtype.is_floating_point:
            tensors[array.name] = torch.randint(int(params[0]), int(params[1]), shape, device="cuda",
                                                generator=generator).to(dtype)
        elif kind == "uniform":
            tensors[array.name] = torch.rand(shape, device="cuda", generator=generator).to(dtype) * (
                params[1] - params[0]) + params[0]
        else:
            tensors[array.name] = torch.randn(shape, device="cuda", generator=generator).to(dtype) * params[1] + params[0]
    names = list(inspect.signature(forward).parameters)
    if any(name not in tensors for name in names):
        return None

    def call(kwargs):
        with torch.no_grad():
            return forward(**kwargs)

    kwargs = {name: tensors[name] for name in names}
    try:
        call(kwargs)
    except RuntimeError:      # integer indices torch wants as int64
        kwargs = {n: (t.long() if not t.dtype.is_floating_point else t) for n, t in kwargs.items()}
        call(kwargs)
    flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device="cuda")
    for _ in range(3):
        call(kwargs)
    torch.cuda.synchronize()
    events = []
    for _ in range(repeats):
        flush.fill_(1)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call(kwargs)
        end.record()
        events.append((start, end))
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--budget", type=float, default=200.0, help="seconds; later stages are skipped after it")
    parser.add_argument("--problems", nargs="*", default=None,
                        help="only these problems (the baselines table is written only for a run over all)")
    parser.add_argument("--plans-csv", default="launch_plans_h200.csv", help="file name of the plans table")
    parser.add_argument("--write-relaunch", type=Path, default=None,
                        help="only write the re-launch sources into this folder (no GPU needed)")
    args = parser.parse_args()

    from kernelscope.runner import load_spec

    specs = {p.parent.name: load_spec(p) for p in sorted((ROOT / "corpus").glob("*/spec.toml"))
             if args.problems is None or p.parent.name in args.problems}
    if args.write_relaunch:
        args.write_relaunch.mkdir(parents=True, exist_ok=True)
        for spec, name, source in relaunch_candidates(specs):
            (args.write_relaunch / f"{spec.name}__{name}").write_text(source)
        return 0

    from kernelscope.runner import WorkerPool, evaluate

    began = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pool = WorkerPool(workers=1)
    results = []       # (problem, candidate, kind, RunResult)

    def run(spec, label, kind, source, kernel=None, launch=None):
        result = evaluate(spec, source, kernel, launch=launch, pool=pool, repeats=args.repeats, seed=SEED,
                          timeout_s=30.0, candidate=label)
        results.append((spec.name, label, kind, result))
        times = {v.size: v.time_ms for v in result.sizes}
        log(f"{spec.name:18s} {label:36s} {kind:14s} correct={result.correct} "
            f"large={times.get('large')} flags={result.flags} {result.error or ''}"[:240])
        return result

    for spec in specs.values():
        for implementation in spec.implementations:
            if not is_plan_implementation(implementation):
                run(spec, implementation.file, "implementation", spec.resolve(implementation.file).read_text(),
                    implementation.kernel)
    log(f"implementations done at {time.perf_counter() - began:.0f} s")
    for spec, label, source in plan_candidates(specs):
        run(spec, label, "plan", source)
    for spec, label, source in relaunch_candidates(specs):
        if time.perf_counter() - began > args.budget:
            log("budget reached: skipping the remaining re-launches")
            break
        run(spec, label, "relaunch", source)
    pool.close()

    write_plans_csv(out / args.plans_csv, results)
    if args.problems is not None:
        log(f"done in {time.perf_counter() - began:.0f} s (no baselines: not every problem was measured)")
        return 0
    torch_ms = {}
    try:
        import torch  # noqa: F401

        for spec in specs.values():
            if spec.style != "pytorch" or time.perf_counter() - began > args.budget + 30:
                continue
            for size in spec.sizes:
                try:
                    torch_ms[(spec.name, size)] = torch_eager_ms(spec, size, args.repeats)
                except Exception as exc:   # a module that does not run here has no torch baseline
                    log(f"torch eager {spec.name} {size}: {type(exc).__name__}: {exc}"[:200])
        log(f"torch eager timed for {len(torch_ms)} problem sizes")
    except ImportError:
        log("no torch here: baselines are the fastest implementations")

    write_baselines_csv(out / "baselines_h200.csv", results, torch_ms, specs)
    log(f"done in {time.perf_counter() - began:.0f} s")
    return 0


def _times(result):
    return {v.size: v for v in result.sizes} if result.correct else {}


def write_plans_csv(path, results) -> None:
    best = {}
    for problem, label, kind, result in results:
        verdict = _times(result).get("large")
        if kind == "implementation" and verdict is not None and verdict.time_ms:
            if problem not in best or verdict.time_ms < best[problem][1]:
                best[problem] = (label, verdict.time_ms)
    rows = []
    for problem, label, kind, result in results:
        if kind == "implementation":
            continue
        sizes = _times(result)
        large = sizes.get("large")
        previous, previous_ms = best.get(problem, ("", None))
        rows.append({"problem": problem, "candidate": label, "kind": kind, "kernels": result.kernel or "",
                     "correct": result.correct, "flags": ";".join(result.flags),
                     "small_ms": _round(sizes["small"].time_ms) if "small" in sizes else "",
                     "large_ms": _round(large.time_ms) if large else "",
                     "large_cv": _round(large.time_spread) if large else "",
                     "previous_best": previous, "previous_best_large_ms": _round(previous_ms),
                     "gain": _round(previous_ms / large.time_ms) if large and previous_ms else ""})
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    winners = {}
    for row in rows:
        if row["gain"] != "" and row["gain"] > 1.0:
            if row["problem"] not in winners or row["gain"] > winners[row["problem"]]["gain"]:
                winners[row["problem"]] = row
    log(f"problems with a plan or re-launch faster than their previous best: {len(winners)}")
    for row in sorted(winners.values(), key=lambda r: -r["gain"]):
        log(f"  {row['problem']:18s} {row['candidate']:36s} {row['large_ms']} ms vs {row['previous_best']} "
            f"{row['previous_best_large_ms']} ms: {row['gain']}x")


def write_baselines_csv(path, results, torch_ms, specs) -> None:
    fastest, reference = {}, {}
    for problem, label, kind, result in results:
        if kind == "relaunch":
            continue                 # the baselines are the corpus's known implementations and plans
        for size, verdict in _times(result).items():
            if verdict.reference_time_ms:
                reference.setdefault((problem, size), verdict.reference_time_ms)
            key = (problem, size)
            if verdict.time_ms and (key not in fastest or verdict.time_ms < fastest[key][1]):
                fastest[key] = (label, verdict.time_ms)
    rows = []
    for spec in specs.values():
        for size in spec.sizes:
            key = (spec.name, size)
            if key not in reference or key not in fastest:
                continue
            if spec.style == "pytorch" and torch_ms.get(key):
                kind, name, ms = "torch_eager", "reference_torch.py:forward", torch_ms[key]
            else:
                kind, (name, ms) = "fastest_implementation", fastest[key]
            rows.append({"problem": spec.name, "size": size, "kind": kind, "name": name,
                         "baseline_ms": _round(ms), "reference_ms": _round(reference[key]),
                         "fastest_implementation": fastest[key][0],
                         "fastest_implementation_ms": _round(fastest[key][1])})
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    log(f"baselines for {len({r['problem'] for r in rows})} problems")


def _round(value):
    return "" if value is None or not math.isfinite(value) else round(float(value), 6)


if __name__ == "__main__":
    sys.exit(main())

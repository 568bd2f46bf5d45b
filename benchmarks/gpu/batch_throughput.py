"""Throughput of `kernelscope.batch` with one GPU and with two, on the same batch, in one run
(with one GPU only: the one-GPU figure, the baseline a multi-GPU run compares with).

The batch: up to 64 corpus implementations (spread over the problems, launch-plan implementations of
corpus/*/plans/ included) plus the example vector_add's.
Every candidate is compiled once up front and every GPU worker is started before the clock starts,
so the timed part is what more GPUs can speed up: verification and timing on the GPU, plus the
orchestration around it. Both runs use the same seed, so their verdicts must agree; a third pass
evaluates a subset one by one with the runner's plain `evaluate` (its default pool, compiling again)
and checks that the batch gave the same verdicts.

    python benchmarks/gpu/batch_throughput.py [--candidates 64] [--one-by-one 16] [--out DIR]

Prints the medians and the ratio against the one-GPU run measured in the same process.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SEED = 20261130


def pick(prepared, count):
    """Round robin over the problems (first implementation of each, then second, ...), so that every
    problem, and so every kind of kernel, is in the batch."""
    by_problem = {}
    for p in prepared:
        by_problem.setdefault(p.item.spec.name, []).append(p)
    ordered = []
    for rank in range(max(len(group) for group in by_problem.values())):
        ordered += [group[rank] for group in by_problem.values() if rank < len(group)]
    return ordered[:count]


class Prewarmed:
    """An evaluator whose CPU half is already done and whose GPU sessions are already running."""

    def __init__(self, prepared, sessions):
        self.prepared = {p.item.index: p for p in prepared}
        self.sessions = sessions

    def prepare(self, item):
        return self.prepared[item.index]

    def open(self, device):
        return _Borrowed(self.sessions[device])


class _Borrowed:
    """A session the benchmark owns: the batch may use it but not close it."""

    def __init__(self, session):
        self.session = session

    def warm_up(self):
        pass

    def evaluate(self, prepared):
        return self.session.evaluate(prepared)

    def close(self):
        pass


def verdict(result) -> tuple:
    """What must not depend on how the batch was scheduled: correctness, failing flags, error counts."""
    from kernelscope.runner.results import FAILING_FLAGS

    return (result.correct, tuple(sorted(set(result.flags) & FAILING_FLAGS)),
            tuple((v.size, v.correct, v.mismatched_elements) for v in result.sizes))


def timed_batch(items, evaluator, devices):
    from kernelscope.batch.local import run_local

    started = time.perf_counter()
    first = None
    outcomes = {}
    for outcome in run_local(items, evaluator, devices, warm_up=False):
        first = first if first is not None else time.perf_counter() - started
        outcomes[outcome.index] = outcome
    return time.perf_counter() - started, first, outcomes


def with_sessions(body, evaluator, prepared, devices):
    """Start a worker on each device (outside the clock), run `body(evaluator, devices)`, stop them."""
    sessions = {device: evaluator.open(device) for device in devices}
    try:
        with ThreadPoolExecutor(len(devices)) as threads:
            list(threads.map(lambda s: s.warm_up(), sessions.values()))
        return body(Prewarmed(prepared, sessions), devices)
    finally:
        for session in sessions.values():
            session.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=64)
    parser.add_argument("--one-by-one", type=int, default=16, help="candidates re-run with plain evaluate()")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--budget", type=float, default=170.0, help="seconds after which the one-by-one pass stops")
    args = parser.parse_args()
    began = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    import cupy

    from kernelscope.batch import EvalOptions, RunnerEvaluator, load_items
    from kernelscope.batch.items import BatchItem
    from kernelscope.runner.evaluation import evaluate

    gpus = cupy.cuda.runtime.getDeviceCount()
    names = [cupy.cuda.runtime.getDeviceProperties(d)["name"].decode() for d in range(gpus)]
    print(f"GPUs: {gpus} ({', '.join(names)}); CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES')}")
    configurations = [[0]] + ([[0, 1]] if gpus >= 2 else [])

    options = EvalOptions(seed=SEED, timeout_s=30.0)
    evaluator = RunnerEvaluator(options)

    # launch-plan implementations (corpus/*/plans/) first, so that the round robin puts them in the batch too
    corpus = load_items(ROOT / "corpus")
    plans = [i for i in corpus if i.label.startswith("plans/")]
    pool_items = plans + [i for i in corpus if not i.label.startswith("plans/")] + \
        load_items(ROOT / "examples" / "problems" / "vector_add")
    started = time.perf_counter()
    with ThreadPoolExecutor(os.cpu_count()) as threads:
        prepared = list(threads.map(evaluator.prepare, pool_items))
    compile_seconds = time.perf_counter() - started
    runnable = [p for p in prepared if not p.finished]
    chosen = pick(runnable, args.candidates)
    # renumber: a batch's indices are its own positions
    items = [BatchItem(index=i, spec=p.item.spec, source=p.item.source, kernel=p.item.kernel, label=p.item.label,
                       launch=p.item.launch) for i, p in enumerate(chosen)]
    chosen = [type(p)(item=item, compiled=p.compiled) for item, p in zip(items, chosen)]
    print(f"{len(pool_items)} candidates compiled in {compile_seconds:.1f} s on {os.cpu_count()} cores "
          f"({len(prepared) - len(runnable)} did not compile); batch of {len(items)} over "
          f"{len({i.spec.name for i in items})} problems")

    # untimed: one candidate per problem on both GPUs, so that CuPy's on-disk kernel cache (the
    # references' elementwise kernels) is warm for whichever configuration runs first
    per_problem = {}
    for p in chosen:
        per_problem.setdefault(p.item.spec.name, p)
    started = time.perf_counter()
    with_sessions(lambda warm, devices: timed_batch([p.item for p in per_problem.values()], warm, devices),
                  evaluator, chosen, configurations[-1])
    print(f"warm-up pass ({len(per_problem)} candidates, {len(configurations[-1])} GPU(s), worker start included): "
          f"{time.perf_counter() - started:.1f} s")

    runs = {}
    for devices in configurations:    # fresh workers for each: no reference timings carried over
        wall, first, outcomes = with_sessions(lambda warm, devs: timed_batch(items, warm, devs),
                                              evaluator, chosen, devices)
        runs[len(devices)] = (wall, first, outcomes)
        per_gpu = {d: sum(1 for o in outcomes.values() if o.slot == d) for d in devices}
        print(f"{len(devices)} GPU(s): {wall:.2f} s for {len(items)} candidates "
              f"({len(items) / wall:.2f} candidates/s), first result after {first:.2f} s, per GPU {per_gpu}")

    one, two = runs[1][2], runs[max(runs)][2]
    same = [i for i in one if verdict(one[i].result) == verdict(two[i].result)]
    differing = [{"candidate": f"{items[i].spec.name}/{items[i].label}", "one_gpu": verdict(one[i].result),
                  "two_gpus": verdict(two[i].result)} for i in one if i not in same]
    ratio = runs[1][0] / runs[max(runs)][0]
    if len(runs) > 1:
        print(f"speedup with 2 GPUs: {ratio:.2f}x (target 1.8x); identical verdicts: {len(same)}/{len(items)}")
    for row in differing:
        print("  differs:", row)

    # one by one, as `kernelscope run` does it: plain evaluate(), its own default pool, compiling again
    checked = []
    for item in items[:args.one_by_one]:
        if time.perf_counter() - began > args.budget:
            print(f"stopping the one-by-one pass at {len(checked)} candidates (time budget)")
            break
        alone = evaluate(item.spec, item.source, item.kernel, launch=item.launch, seed=SEED, timeout_s=30.0,
                         candidate=item.label)
        checked.append(verdict(alone) == verdict(one[item.index].result))
    print(f"one-by-one evaluate() agrees with the batch on {sum(checked)}/{len(checked)} candidates")

    worker_seconds = [o.result.wall_seconds for o in one.values()]
    correct = sum(o.result.correct for o in one.values())
    rows = []
    for count, (wall, first, outcomes) in runs.items():
        rows.append({"gpus": count, "gpu_model": names[0], "candidates": len(items), "correct": correct,
                     "wall_s": round(wall, 3), "candidates_per_s": round(len(items) / wall, 3),
                     "first_result_s": round(first, 3), "speedup_vs_1gpu": round(runs[1][0] / wall, 3),
                     "median_candidate_s": round(statistics.median(worker_seconds), 4),
                     "identical_verdicts": len(same), "one_by_one_checked": len(checked),
                     "one_by_one_identical": sum(checked), "compile_s_all": round(compile_seconds, 2)})
    with open(out / f"batch_h200x{max(runs)}.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    details = {"candidates": [f"{i.spec.name}/{i.label}" for i in items], "differing": differing,
               "results_1gpu": [one[i].to_json() for i in sorted(one)],
               "slots_2gpu": {i: two[i].slot for i in sorted(two)}}
    (out / f"batch_h200x{max(runs)}_details.json").write_text(json.dumps(details, indent=1, default=str))
    print(f"median candidate wall time (1 GPU) {statistics.median(worker_seconds):.3f} s")
    if len(runs) == 1:
        return 0 if all(checked) else 1
    return 0 if ratio >= 1.8 and not differing else 1


if __name__ == "__main__":
    sys.exit(main())

"""Two measurements of the corpus (measure_corpus.py CSVs) side by side: did anything change?

    python3 benchmarks/gpu/compare_corpus_runs.py BEFORE.csv AFTER.csv
    python3 benchmarks/gpu/compare_corpus_runs.py BEFORE.json AFTER.json   # two `kernelscope eval` documents

Per (problem, implementation, size) in both: correct in each, and the ratio of the after time to the
before time. Prints the correct counts, the rows only one side has, the median and the extremes of the
time ratios, and every row whose time moved by more than --tolerance (default 10%): what a change
that should not touch the GPU (the corpus's launches moved from spec.toml into the files) must show.
For two eval documents: the correct counts and the ratio of each shared completion's speedup, per
problem too (a problem whose completions all move together points at its reference's timing).
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics


def read(path) -> dict:
    with open(path, newline="") as handle:
        return {(r["problem"], r["implementation"], r["size"]): r for r in csv.DictReader(handle)}


def compare_evals(before_path, after_path) -> None:
    import json

    before, after = ({c["id"]: c for c in json.load(open(p))["completions"]} for p in (before_path, after_path))
    shared = sorted(set(before) & set(after))
    print(f"completions: before {len(before)}, after {len(after)}, in both {len(shared)}; correct in both: "
          f"before {sum(before[i]['correct'] for i in shared)}, after {sum(after[i]['correct'] for i in shared)}")
    ratios = {i: after[i]["speedup"] / before[i]["speedup"] for i in shared
              if before[i].get("speedup") and after[i].get("speedup")}
    values = sorted(ratios.values())
    print(f"speedup after/before: median {statistics.median(values):.3f}, min {values[0]:.3f}, max {values[-1]:.3f}; "
          f"within 10%: {sum(abs(v - 1) <= 0.1 for v in values)}/{len(values)}")
    for p in (1.0, 1.5, 2.0):
        print(f"  fast_{p:g} among those in both: before {sum(before[i]['speedup'] >= p for i in ratios)}, "
              f"after {sum(after[i]['speedup'] >= p for i in ratios)}")
    problems = {}
    for i, ratio in ratios.items():
        problems.setdefault(before[i]["problem"], []).append(ratio)
    for problem, found in sorted(problems.items(), key=lambda kv: -abs(math.log(statistics.median(kv[1])))):
        if abs(statistics.median(found) - 1) > 0.1:
            print(f"  problem moved: {problem}: median {statistics.median(found):.2f} over {len(found)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--tolerance", type=float, default=0.10)
    args = parser.parse_args(argv)
    if args.before.endswith(".json"):
        compare_evals(args.before, args.after)
        return 0
    before, after = read(args.before), read(args.after)
    shared = sorted(set(before) & set(after))
    correct = lambda rows, keys: sum(rows[k]["correct"] == "True" for k in keys)
    print(f"runs: before {len(before)}, after {len(after)}, in both {len(shared)}")
    print(f"correct: before {correct(before, before)}/{len(before)}, after {correct(after, after)}/{len(after)}; "
          f"of the runs in both: before {correct(before, shared)}, after {correct(after, shared)}")
    for name, rows, other in (("before", before, after), ("after", after, before)):
        only = sorted(set(rows) - set(other))
        print(f"only {name}: {len(only)}" + "".join(f"\n  {p}/{i} {s} correct={rows[(p, i, s)]['correct']}"
                                                    for p, i, s in only))
    flips = [k for k in shared if before[k]["correct"] != after[k]["correct"]]
    print(f"verdicts that differ: {len(flips)}" + "".join(f"\n  {k}" for k in flips))
    ratios = {}
    for key in shared:
        try:
            old, new = float(before[key]["time_ms"]), float(after[key]["time_ms"])
        except ValueError:
            continue
        if old > 0 and new > 0 and math.isfinite(old) and math.isfinite(new):
            ratios[key] = new / old
    if not ratios:
        print("no timings to compare")
        return 0
    values = sorted(ratios.values())
    print(f"time after/before over {len(values)} runs: median {statistics.median(values):.3f}, "
          f"min {values[0]:.3f}, max {values[-1]:.3f}; "
          f"within {args.tolerance:.0%}: {sum(abs(v - 1) <= args.tolerance for v in values)}")
    for size in sorted({k[2] for k in ratios}):
        sized = [v for k, v in ratios.items() if k[2] == size]
        print(f"  {size}: median {statistics.median(sized):.3f} over {len(sized)}")
    moved = sorted(((k, v) for k, v in ratios.items() if abs(v - 1) > args.tolerance), key=lambda kv: -abs(math.log(kv[1])))
    for (problem, implementation, size), ratio in moved:
        print(f"  moved: {problem}/{implementation} {size}: {before[(problem, implementation, size)]['time_ms'][:8]} -> "
              f"{after[(problem, implementation, size)]['time_ms'][:8]} ms ({ratio:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

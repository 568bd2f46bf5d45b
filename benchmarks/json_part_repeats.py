"""How often each part of a kernel's JSON report repeats, in the realistic file and in the 40 real
programs: for each top-level field of the kernels' JSON (and the fields of sync, intensity and
resources), how many kernels have it, how many distinct texts and distinct objects it has, and its
share of the report's bytes. Tells whether encoding a part once per distinct value and splicing it,
as the occupancy sweeps are (kernelscope/report/analysis_json.py), would pay on real programs and not
only on the file of copies.

    PYTHONPATH=TREE python benchmarks/json_part_repeats.py [--top 25]

Measured on 8bf6515 (render24, 2026-12-05): beyond occupancy (60 distinct of 800 kernels, 47 of 149),
the real programs repeat little: params 97 distinct of 149, sync 76, intensity 84, resources 149
(realistic: 57, 744, 544, 50 of 800); accesses are all distinct (their lines), and no record but the
occupancy result and, in the realistic file, the resource usage is shared between kernels as an object.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_analyze  # noqa: E402
from kernelscope import analyze  # noqa: E402
from kernelscope.report import analysis_json  # noqa: E402

NESTED = ("sync", "intensity", "resources")


def documents(workload: str) -> list[dict]:
    if workload == "realistic":
        text, _ = bench_analyze.realistic_source(800)
        return [analyze.document([analyze.analyze_source(text, "realistic.cu", registers="estimate")])]
    return [analyze.document([analyze.analyze_path(str(path), registers="estimate")])
            for path in bench_analyze.real_programs()]


def part_statistics(docs: list[dict]) -> dict:
    """part name -> [uses, distinct texts, distinct objects, bytes]"""
    texts = collections.defaultdict(set)
    objects = collections.defaultdict(set)
    uses = collections.Counter()
    size = collections.Counter()

    def count(name, value):
        text = json.dumps(value, separators=(",", ":"))
        uses[name] += 1
        texts[name].add(text)
        objects[name].add(id(value))
        size[name] += len(text)

    for doc in docs:
        for file in doc["files"]:
            for kernel in file["kernels"]:
                for key, value in kernel.items():
                    count(key, value)
                    if key in NESTED and isinstance(value, dict):
                        for inner, inner_value in value.items():
                            count(f"{key}.{inner}", inner_value)
    return {name: [uses[name], len(texts[name]), len(objects[name]), size[name]] for name in uses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="parts shown, by bytes")
    args = parser.parse_args()
    for workload in ("realistic", "real"):
        docs = documents(workload)
        total = sum(len(analysis_json.render(doc)) for doc in docs)
        print(f"{workload}: {total} bytes of JSON")
        rows = sorted(part_statistics(docs).items(), key=lambda item: -item[1][3])[:args.top]
        for name, (uses, distinct, objects, size) in rows:
            print(f"  {name:32s} kernels {uses:5d}  distinct {distinct:5d}  objects {objects:5d}"
                  f"  bytes {size:8d} ({100 * size / total:4.1f}%)")


if __name__ == "__main__":
    main()

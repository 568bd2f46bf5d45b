"""How often the sync executor computes a value its memo (`sync.Memo`) could not give it although an equal
one was computed before: per kind of memo entry (a tuple of conditions, an expression, a loop), over one
warm pass of a workload.

    python benchmarks/sync_memo_repeats.py [distinct|real|all]

distinct = one copy of each hand-written kernel, real = the 40 real programs, all = every file of
examples/, tests/kernels/ and corpus/. For each value `Memo.recall` computes it counts:
- "again, equal values": computed before in the same analysis and block with equal (by content) values
  of the varying names it reads: what a memo keyed by content instead of identity would save;
- "again, other block": computed in another block of the same analysis, with equal values of the
  varying names and of the blockIdx components it reads (the key has the whole block);
- "structural twin in file": an expression or condition tuple of the same structure, with identical
  values of all its names and the same block size, computed earlier in the same file (another kernel,
  usually): what a memo shared by the kernels of a file could save.
(2026-12-05, 7cfd25c, real programs: conditions 187 computed, 0 / 0 / 80; expressions 492,
11 / 0 / 109; loops 104, 0 / 0 / -. Values whose key reads memory are computed every time and not
counted.)"""
from __future__ import annotations

import collections
import hashlib
import pathlib
import sys

import numpy as np

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_analyze  # noqa: E402

import kernelscope.analyze as analyze  # noqa: E402
from kernelscope import symbolic as sx  # noqa: E402
from kernelscope.analyses import sync  # noqa: E402
from kernelscope.gc_tuning import tuned_for_analysis  # noqa: E402


def workload_files(name: str) -> list:
    if name == "real":
        return [(str(p), p.read_text()) for p in bench_analyze.real_programs()]
    if name == "all":
        return [(str(p), p.read_text(errors="replace")) for root in ("examples", "tests/kernels", "corpus")
                for p in sorted((REPO / root).rglob("*")) if p.suffix in (".cu", ".cuh") and p.is_file()]
    return [("distinct.cu", bench_analyze.realistic_source(50)[0])]


def digest(value):
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, hashlib.md5(value.tobytes()).hexdigest()
    return repr(value)


def kind_of(what) -> str:
    if isinstance(what, tuple):
        return "conditions"
    return "expression" if isinstance(what, sx.Expr) else "loop"


def names_read(what):
    if isinstance(what, sx.Expr):
        return None if what._has_load else what._symbols
    if isinstance(what, tuple):
        return sync._conditions_read(what)
    return sync._names_read(sync._expressions_of(what))


def structure_of(what):
    if isinstance(what, tuple):
        return tuple((c.expr._key if isinstance(c.expr, sx.Expr) else repr(c.expr), c.negated) for c in what)
    return what._key if isinstance(what, sx.Expr) else None


def main(workload: str) -> None:
    files = workload_files(workload)

    def run(per_file=lambda: None):
        for path, text in files:
            per_file()
            with tuned_for_analysis():
                analyze.analyze_source(text, path, registers="estimate")

    run()       # the warm-up pass: what the measured pass finds kept is kept in every pass
    counts: collections.Counter = collections.Counter()
    in_analysis: dict = {}
    in_file: dict = {}
    alive: list = []        # the environments of the keys by identity, kept so that no id is reused
    recall = sync.Memo.recall

    def counting_recall(memo, what, env, block, compute, *args, also=None):
        computed = []

        def compute_noted(*inner):
            computed.append(True)
            return compute(*inner)

        result = recall(memo, what, env, block, compute_noted, *args, also=also)
        kind = kind_of(what)
        counts[kind, "asked"] += 1
        known = memo.names.get(id(what))
        if not computed or known[1] is None:
            return result
        counts[kind, "computed"] += 1
        varying = tuple(digest(env.get(name)) for name in known[1])
        block_parts = tuple(digest(env.get(name)) for name in sorted(sync._BLOCK_INDEX & (names_read(what) or set())))
        here = (id(memo), id(what), block if known[3] else None, varying, id(also))
        anywhere = (id(memo), id(what), varying, block_parts, id(also))
        if here in in_analysis:
            counts[kind, "again, equal values"] += 1
        elif anywhere in in_analysis:
            counts[kind, "again, other block"] += 1
        in_analysis[here] = in_analysis[anywhere] = True
        names = names_read(what)
        if kind != "loop" and names is not None and also is None:
            twin = (kind, structure_of(what), block_size(env),
                    tuple(sorted((n, id(env.get(n))) for n in names)))
            if twin in in_file:
                counts[kind, "structural twin in file"] += 1
            in_file[twin] = True
            alive.append(env)
        return result

    sync.Memo.recall = counting_recall
    try:
        run(in_file.clear)
    finally:
        sync.Memo.recall = recall
    for key in sorted(counts):
        print(f"{key[0]:12} {key[1]:28} {counts[key]}")


def block_size(env: dict) -> int:
    return env.get("blockDim.x", 1) * env.get("blockDim.y", 1) * env.get("blockDim.z", 1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "distinct")

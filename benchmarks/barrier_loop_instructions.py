"""Instructions (valgrind) the sync phase spends inside loops that hold a barrier, by how the executor
runs them (syncred24). One warm pass, as benchmarks/phase_instructions.sh makes it.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
        --toggle-collect=starmap_next python benchmarks/barrier_loop_instructions.py TREE WORKLOAD MODE

WORKLOAD: distinct | real.  MODE:
  sync    the whole sync phase (as phase_instructions.sh counts it)
  loops   only the outermost loops holding a barrier; CAT=repeat|batch|nest|other keeps one kind:
          repeat (a `_repeat_plan`: trips replayed), batch (`run_batched`, e.g. a tree reduction),
          nest (`run_nest_batched`, e.g. bitonic sort's k/j loops), other (walked trip by trip)
  part    PART=method (a BlockRun method or a sync function) counted only inside those loops
  stats   no valgrind needed: each such loop's (threads, line, counter, trips, batchable,
          nest_batchable, has a repeat plan) and how many times it is entered; closes in loops
OFF=NAME[,NAME] sets sync module switches to False first (e.g. SCREEN_INTERVALS, NEST_BATCHES).
"""
import collections
import itertools
import os
import sys

tree, workload, mode = sys.argv[1:4]
sys.path.insert(0, tree + "/benchmarks")
import bench_analyze  # noqa: E402
import kernelscope.analyze as analyze  # noqa: E402
from kernelscope.analyses import sync  # noqa: E402
from kernelscope.frontend import parse  # noqa: E402
from kernelscope.gc_tuning import tuned_for_analysis  # noqa: E402

parse._query()
if workload == "real":
    files = [(str(p), p.read_text()) for p in bench_analyze.real_programs()]
else:
    files = [("distinct.cu", bench_analyze.realistic_source(50)[0])]


def run():
    for path, text in files:
        with tuned_for_analysis():
            analyze.analyze_source(text, path, registers="estimate")


for flag in os.environ.get("OFF", "").split(","):
    if flag:
        setattr(sync, flag, False)
run()   # (the warm pass counted is the second)


def counted(call):
    """`call()` through itertools.starmap, whose next callgrind toggles collection on."""
    return next(itertools.starmap(call, [()]))


def kind(node) -> str:
    if sync._repeat_plan(node) is not None:
        return "repeat"
    return "batch" if node.batchable else "nest" if node.nest_batchable else "other"


depth = [0]
inside_part = [0]
entries: collections.Counter = collections.Counter()
closes: collections.Counter = collections.Counter()
original_iterate = sync.BlockRun.iterate


def iterate(self, node, env, *rest):
    wanted = os.environ.get("CAT")
    if depth[0] or node.quiet or not sync._holds_a_barrier(node.children) or wanted and kind(node) != wanted:
        return original_iterate(self, node, env, *rest)
    depth[0] += 1
    try:
        if mode == "loops":
            return counted(lambda: original_iterate(self, node, env, *rest))
        if mode == "stats":
            iterations, _ = self.iterations(node.loop, env)
            entries[(self.space.size, node.loop.line, node.loop.var, len(iterations) if iterations else None,
                     kind(node))] += 1
        return original_iterate(self, node, env, *rest)
    finally:
        depth[0] -= 1


sync.BlockRun.iterate = iterate
if mode == "part":
    for name in os.environ["PART"].split(","):
        owner = sync.BlockRun if hasattr(sync.BlockRun, name) else sync
        function = getattr(owner, name)

        def wrapped(*args, _function=function, **kwargs):
            if not depth[0] or inside_part[0]:
                return _function(*args, **kwargs)
            inside_part[0] = 1
            try:
                return counted(lambda: _function(*args, **kwargs))
            finally:
                inside_part[0] = 0
        setattr(owner, name, wrapped)
if mode == "stats":
    original_close = sync.BlockRun.close_interval

    def close_interval(self, barrier):
        closes["in loops" if depth[0] else "outside"] += 1
        return original_close(self, barrier)
    sync.BlockRun.close_interval = close_interval
if mode == "sync":
    inner = analyze._sync
    analyze._sync = lambda *a, **k: counted(lambda: inner(*a, **k))
run()
if mode == "stats":
    for key, count in sorted(entries.items(), key=lambda item: item[0][1]):
        print(count, key)
    print("closes", dict(closes))

"""Synchronization analysis: barriers, shared-memory races, atomics, warp intrinsics and fences.

The kernel's records (accesses, barriers, calls, early returns) are merged into program order and
grouped by the loops around them. That tree is then *executed* for every thread of a block at once:
loops are unrolled with concrete iteration values where they can be computed (per thread when the
trip count depends on the thread), conditions become per-thread masks, `return` removes threads.
On that trace

- a block barrier reached by some but not all live threads is divergent (KS201), and one reached
  after some threads returned is a return-before-barrier (KS206);
- barriers cut the trace into intervals; two accesses to the same shared word in one interval, by
  different threads, one of them a write, race (KS202). Lanes of one warp are ordered by a
  `__syncwarp` between their accesses; a race whose thread pairs all share a warp is reported as a
  missing `__syncwarp` (KS207);
- a barrier with no shared or global hazard between the intervals on its two sides is redundant
  (KS203);
- an atomic whose active lanes of one warp hit one address contends (KS204);
- a warp intrinsic whose mask names lanes that are not there, or misses lanes that are, is wrong
  (KS205); `__threadfence` calls are listed (KS208).

What cannot be evaluated (data-dependent conditions, unbound parameters, unknown grid) falls back to
the symbolic judgement of `kernelscope.analyses.uniformity`: a thread-dependent condition around a
barrier or intrinsic is reported, an unknown address is never reported as a race.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses.uniformity import EVALUATION_ERRORS, WARP_SIZE, ThreadSpace, per_thread, thread_space, truth
from kernelscope.model import FENCES, Diagnostic

BLOCK_BARRIERS = frozenset({"syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "cg_sync"})
VALUE_BARRIERS = frozenset({"syncthreads_count", "syncthreads_and", "syncthreads_or"})
FULL_MASK = 0xFFFFFFFF

MAX_TRIPS = 64           # iterations unrolled per loop before the rest is assumed to repeat the pattern
UNKNOWN_TRIPS = 3        # iterations tried when the bound is unknown: enough to see loop-carried pairs
UNKNOWN_DOUBLINGS = 11   # ... for a loop that multiplies its counter: 1 to 2048 spans block and tile sizes
MAX_BLOCKS = 8           # blocks executed when the grid is known
MAX_STEPS = 20000        # trace length cap per block
MAX_PAIRS = 4_000_000    # thread pairs compared per access pair
MAX_NOTES = 20           # reasons the result is approximate, kept for the JSON

RULES = {
    "KS201": ("divergent-barrier", "error"),
    "KS202": ("shared-memory-race", "error"),
    "KS203": ("redundant-barrier", "info"),
    "KS204": ("atomic-contention", "warning"),
    "KS205": ("shuffle-mask-mismatch", "error"),
    "KS206": ("return-before-barrier", "error"),
    "KS207": ("missing-syncwarp", "warning"),
    "KS208": ("threadfence", "info"),
}


# ------------------------------------------------------------------------------------------ results

@dataclass(frozen=True)
class DivergentBarrier:
    line: int
    column: int
    reason: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "reason": self.reason}


@dataclass(frozen=True)
class SharedRace:
    array: str
    kind: str                  # RAW | WAR | WAW, in program order of the two accesses
    first_line: int
    first_column: int
    second_line: int
    second_column: int
    scope: str                 # block: some racing pairs are in different warps; warp: all in one warp
    message: str

    def to_json(self) -> dict:
        return {"array": self.array, "kind": self.kind, "first_line": self.first_line,
                "second_line": self.second_line, "scope": self.scope, "message": self.message}


@dataclass(frozen=True)
class ReturnBeforeBarrier:
    line: int
    column: int
    barrier_line: int
    message: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "barrier_line": self.barrier_line,
                "message": self.message}


@dataclass(frozen=True)
class MaskMismatch:
    name: str
    line: int
    column: int
    message: str

    def to_json(self) -> dict:
        return {"name": self.name, "line": self.line, "column": self.column, "message": self.message}


@dataclass(frozen=True)
class AtomicContention:
    array: str
    line: int
    column: int
    lanes: int                 # most lanes of one warp on one address in one instruction
    in_loop: bool

    def to_json(self) -> dict:
        return {"array": self.array, "line": self.line, "column": self.column, "lanes": self.lanes,
                "in_loop": self.in_loop}


@dataclass(frozen=True)
class Site:
    name: str
    line: int
    column: int

    def to_json(self) -> dict:
        return {"name": self.name, "line": self.line, "column": self.column}


@dataclass(frozen=True)
class SyncResult:
    barriers: int
    divergent_barriers: tuple = ()
    shared_races: tuple = ()
    returns_before_barrier: tuple = ()
    redundant_barriers: tuple = ()     # Site
    mask_mismatches: tuple = ()
    atomic_count: int = 0
    atomics_in_loops: int = 0
    contention: tuple = ()
    fences: tuple = ()                 # Site
    exact: bool = True                 # every block, loop, condition and address evaluated concretely
    notes: tuple = ()

    def to_json(self) -> dict:
        return {
            "barriers": self.barriers,
            "divergent_barriers": [d.to_json() for d in self.divergent_barriers],
            "shared_races": [r.to_json() for r in self.shared_races],
            "returns_before_barrier": [r.to_json() for r in self.returns_before_barrier],
            "redundant_barriers": [s.to_json() for s in self.redundant_barriers],
            "mask_mismatches": [m.to_json() for m in self.mask_mismatches],
            "atomics": self.atomic_count,
            "atomic_details": {"in_loops": self.atomics_in_loops,
                               "same_address_contention": len(self.contention),
                               "contended": [c.to_json() for c in self.contention]},
            "threadfences": [s.to_json() for s in self.fences],
            "exact": self.exact,
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- program order and tree

@dataclass
class Event:
    kind: str                  # access | barrier | call | return
    record: object


@dataclass
class LoopNode:
    loop: object
    children: list = field(default_factory=list)
    carried: frozenset = frozenset()   # variables the loop updates (besides its counter) that records read


class _Unknown:
    """The value of a variable after a loop changed it: any use makes the expression unevaluable."""

    def _fail(self, *_):
        raise sx.Unevaluable("loop-carried value")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __lshift__ = __rlshift__ = __rshift__ = _fail
    __rrshift__ = __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __neg__ = __invert__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __bool__ = __int__ = __index__ = __abs__ = _fail
    __hash__ = object.__hash__


UNKNOWN = _Unknown()


def program_order(kernel) -> list[Event]:
    """Accesses, barriers, calls and early returns in the order the walker met them (`seq`, which
    also places code inlined from helpers at its call site); records without one sort by position."""
    events = [Event("access", a) for a in kernel.accesses] + [Event("barrier", b) for b in kernel.barriers] + \
        [Event("call", c) for c in kernel.calls] + [Event("return", r) for r in kernel.early_returns]
    return sorted(events, key=lambda e: _walk_position(e.record))


def loop_tree(events: list[Event]) -> list:
    root = _nest(events)
    _mark_carried(root)
    return root


def _mark_carried(nodes) -> frozenset:
    """Names of loop-updated variables (symbols with a first-iteration default) read under each loop."""
    names: set = set()
    for node in nodes:
        if isinstance(node, LoopNode):
            inner = _mark_carried(node.children)
            node.carried = frozenset(inner - {node.loop.var})
            names |= inner
        else:
            for expr in _expressions(node.record):
                names |= _carried_symbols(expr)
    return frozenset(names)


def _expressions(record):
    for name in ("address", "mask", "condition"):
        value = getattr(record, name, None)
        if isinstance(value, sx.Expr):
            yield value
    yield from (a for a in getattr(record, "args", ()) if isinstance(a, sx.Expr))
    yield from (c.expr for c in record.context.conditions)


def _carried_symbols(expr) -> frozenset:
    # kept on the expression's nodes: a walk per record would be exponential in shared subtrees
    return sx.carried_names(expr)


def _nest(events: list[Event]) -> list:
    root: list = []
    for event in events:
        children = root
        for loop in event.record.context.loops:
            if children and isinstance(children[-1], LoopNode) and children[-1].loop is loop:
                children = children[-1].children
            else:
                node = LoopNode(loop)
                children.append(node)
                children = node.children
        children.append(event)
    return root


# ------------------------------------------------------------------------------------ the execution

@dataclass
class Step:
    """One event executed by the threads in `mask` (per-thread values in `env`)."""
    event: Event
    env: dict
    mask: np.ndarray
    unknown: tuple             # conditions that could not be evaluated
    loops: tuple               # symbolic reasons from loops with unknown, thread-dependent trip counts
    loop_partial: bool         # some live thread skipped this iteration of an enclosing loop


@dataclass
class Instance:
    """One dynamic execution of an access."""
    access: object
    addresses: np.ndarray | None   # per thread (all threads of the block); None when unknown
    mask: np.ndarray
    epochs: np.ndarray             # __syncwarp count of each thread when it made the access

    @property
    def writes(self) -> bool:
        return self.access.op in ("store", "atomic")

    def footprint(self, granule: int):
        """(words, threads): every `granule`-byte word each active thread touches; computed once per
        granule, since the race and redundant-barrier checks ask for it again and again."""
        cache = self.__dict__.setdefault("_footprints", {})
        if granule not in cache:
            threads = np.flatnonzero(self.mask)
            base = self.addresses[threads]
            pieces = max(1, (self.access.elem_bytes or granule) // granule)
            if pieces == 1:
                cache[granule] = (base // granule, threads)
            else:
                words = (base[:, None] + granule * np.arange(pieces)[None, :]) // granule
                cache[granule] = (words.reshape(-1), np.repeat(threads, pieces))
        return cache[granule]


class Findings:
    """Everything found over all executed blocks, deduplicated by source location."""

    def __init__(self):
        self.divergent: dict = {}
        self.races: dict = {}
        self.returns: dict = {}
        self.mismatches: dict = {}
        self.contention: dict = {}
        self.fences: dict = {}
        self.barrier_needed: dict = {}     # (line, column) -> bool, over all its executions
        self.loop_trips: dict = {}         # id(loop) -> most iterations executed (0: not computable)
        self.inexact: list = []

    def note(self, text: str) -> None:
        if text not in self.inexact and len(self.inexact) < MAX_NOTES:
            self.inexact.append(text)


class BlockRun:
    """Executes the loop tree for all threads of one block."""

    def __init__(self, tree, space: ThreadSpace, env: dict, exit_lines: set, shapes: dict, findings: Findings):
        self.tree = tree
        self.shapes = shapes
        self.space = space
        self.env = env
        self.exit_lines = exit_lines
        self.found = findings
        self.alive = np.ones(space.size, dtype=bool)
        self.epochs = np.zeros(space.size, dtype=np.int64)
        self.exited: list = []            # (return record, how many threads left, symbolic)
        self.interval: list[Instance] = []
        self.previous: tuple | None = None   # (interval before the last barrier, that barrier record)
        self.steps = 0

    # -- walking ---------------------------------------------------------------------------------
    def run(self) -> None:
        everyone = np.ones(self.space.size, dtype=bool)
        for step in self.walk(self.tree, dict(self.env), everyone, (), False):
            self.execute(step)
        self.close_interval(None)

    def walk(self, nodes, env, loop_mask, loop_reasons, loop_partial):
        masks: dict = {}   # neighbouring statements under the same conditions share their evaluation
        for node in nodes:
            if self.steps >= MAX_STEPS:
                self.found.note(f"trace cut after {MAX_STEPS} steps")
                return
            if isinstance(node, LoopNode):
                yield from self.iterate(node, env, loop_mask, loop_reasons, loop_partial)
                masks.clear()   # the loop may have changed env (the values it carries out)
                continue
            self.steps += 1
            conditions = node.record.context.conditions
            key = tuple(map(id, conditions))
            if key not in masks:
                masks[key] = self.condition_mask(conditions, env)
            mask, unknown = masks[key]
            yield Step(node, env, loop_mask & mask & self.alive, unknown, loop_reasons, loop_partial)

    def iterate(self, node: LoopNode, env, loop_mask, loop_reasons, loop_partial):
        loop = node.loop
        iterations, bounded = self.iterations(loop, env)
        if not bounded and loop.thread_dependent:
            # the trip count is not computable and may differ between threads: judged symbolically
            loop_reasons = loop_reasons + (loop,)
        trips = len(iterations) if iterations is not None else 0
        self.found.loop_trips[id(loop)] = max(trips, self.found.loop_trips.get(id(loop), 0))
        if iterations is None:
            self.found.note(f"loop at line {loop.line}: iterations not computable, executed once")
            yield from self.walk(node.children, env, loop_mask, loop_reasons, loop_partial)
            return
        forgotten = {name: UNKNOWN for name in node.carried}
        for trip, (value, active) in enumerate(iterations):
            inner = dict(env) if trip == 0 else {**env, **forgotten}
            if loop.var is not None:
                inner[loop.var] = value
            mask = loop_mask & active
            partial = loop_partial or bool((loop_mask & self.alive & ~active).any())
            yield from self.walk(node.children, inner, mask, loop_reasons, partial)
        if len(iterations) > 1:
            env.update(forgotten)   # after the loop they hold their last-iteration values

    def iterations(self, loop, env):
        """([(value of the loop variable, threads still iterating)] or None when unknown, whether the
        bound was evaluated)."""
        size = self.space.size
        start = _value(loop.start, env) if loop.var is not None and loop.start is not None else None
        step = _value(loop.step, env) if loop.step is not None else None
        operator = getattr(loop, "step_op", None) or "+"
        if start is None or step is None:
            return None, False
        inner = dict(env)
        active = np.ones(size, dtype=bool)
        value = start
        result = []
        bounded = True
        guessed = UNKNOWN_DOUBLINGS if operator in ("*", "<<") else UNKNOWN_TRIPS
        for trip in range(MAX_TRIPS + 1):
            inner[loop.var] = value
            bound = _value(loop.bound, inner) if loop.bound is not None else None
            if bound is None:
                bounded = False
                if trip >= guessed:
                    self.found.note(f"loop at line {loop.line}: bound unknown, {guessed} iterations tried")
                    break
            else:
                still = _compare(loop.compare, value, bound, size)
                if still is None:
                    return None, False
                active = active & still
                if not (active & self.alive).any():
                    break
            if trip == MAX_TRIPS:
                self.found.note(f"loop at line {loop.line}: cut after {MAX_TRIPS} iterations")
                break
            result.append((value, active.copy()))
            try:
                value = sx.apply_binary(operator, value, step)
            except sx.Unevaluable:
                break
        return result, bounded

    def condition_mask(self, conditions, env):
        size = self.space.size
        mask = np.ones(size, dtype=bool)
        unknown = []
        for condition in conditions:
            holds = truth(condition.expr, env, size)
            if holds is None:
                unknown.append(condition)
                continue
            mask &= ~holds if condition.negated else holds
        return mask, tuple(unknown)

    # -- events ----------------------------------------------------------------------------------
    def execute(self, step: Step) -> None:
        kind = step.event.kind
        record = step.event.record
        if kind == "access":
            self.access(step, record)
        elif kind == "barrier":
            if record.kind in BLOCK_BARRIERS or record.kind == "grid_sync":
                self.block_barrier(step, record)
            elif record.kind == "syncwarp":
                if step.mask.any():
                    self.check_mask(step, record, "__syncwarp", record.mask)
                self.epochs = self.epochs + step.mask   # a new array: instances keep the old one
        elif kind == "call":
            if record.name in FENCES:
                self.found.fences[(record.line, record.column)] = Site(record.name, record.line, record.column)
            elif _is_warp_intrinsic(record.name) and record.args:
                self.check_mask(step, record, record.name, record.args[0])
        elif kind == "return":
            self.early_return(step, record)

    def access(self, step: Step, access) -> None:
        if access.space not in ("shared", "global"):
            return
        if access.op == "atomic":
            self.atomic(step, access)
        if not step.mask.any():
            return
        addresses = per_thread(access.address, step.env, self.space.size) if self.trusted(access) else None
        if addresses is None:
            self.found.note(f"line {access.line}: address of {access.text or access.array} unknown")
        else:
            addresses = np.asarray(addresses, dtype=np.int64)
        self.interval.append(Instance(access, addresses, step.mask.copy(), self.epochs))

    def trusted(self, access) -> bool:
        """A byte address is only as good as the element size and inner dimensions behind it (unknown
        for a template type or a template-sized array)."""
        if access.stride_hint_bytes is None:
            return False
        shape = self.shapes.get(access.array)
        return shape is None or all(d is not None for d in shape.dims[1:])

    def block_barrier(self, step: Step, barrier) -> None:
        live = self.alive
        reached = step.mask
        if not reached.any():
            return
        reason = self.divergence_reason(step, live, reached)
        if reason:
            self.found.divergent.setdefault((barrier.line, barrier.column),
                                            DivergentBarrier(barrier.line, barrier.column, reason))
        for record, count, symbolic in self.exited:
            key = (record.line, record.column)
            if key not in self.found.returns:
                who = "some threads" if symbolic else f"{count} thread(s) of the block"
                self.found.returns[key] = ReturnBeforeBarrier(
                    record.line, record.column, barrier.line,
                    f"{who} return at line {record.line} before the barrier at line {barrier.line}, "
                    "which the other threads wait at")
        if barrier.kind in BLOCK_BARRIERS:
            self.close_interval(barrier)

    def divergence_reason(self, step: Step, live, reached) -> str | None:
        for condition in step.unknown:
            if condition.line in self.exit_lines:
                continue
            if condition.expr.thread_dependent:
                return f"under the thread-dependent condition at line {condition.line}"
        for loop in step.loops:
            return f"inside the loop at line {loop.line}, whose trip count depends on the thread"
        if np.array_equal(reached & live, live):
            return None
        if step.event.record.kind == "cg_sync" and not self.splits_a_warp(live, reached):
            return None     # may be a warp tile's sync(), which whole warps may skip
        missing = int(np.count_nonzero(live & ~reached))
        if step.loop_partial:
            return f"{missing} of {int(live.sum())} threads skip it: the enclosing loop runs a " \
                   "thread-dependent number of iterations"
        lines = sorted({c.line for c in step.event.record.context.conditions})
        where = f"the condition at line {lines[-1]}" if lines else "control flow"
        return f"{missing} of {int(live.sum())} threads skip it: {where} differs between threads"

    def splits_a_warp(self, live, reached) -> bool:
        skipped = live & ~reached
        return bool(np.any(np.isin(self.space.warp[skipped], self.space.warp[reached & live])))

    def early_return(self, step: Step, record) -> None:
        leaving = step.mask
        symbolic = any(c.expr.thread_dependent for c in step.unknown)
        if symbolic:
            self.exited.append((record, 0, True))
            return
        count = int(np.count_nonzero(leaving))
        if count and np.any(self.alive & ~leaving):
            self.exited.append((record, count, False))
        self.alive = self.alive & ~leaving

    def atomic(self, step: Step, access) -> None:
        if not step.mask.any():
            return
        addresses = per_thread(access.address, step.env, self.space.size)
        if addresses is None:
            return
        worst = _most_lanes_on_one_address(np.asarray(addresses, dtype=np.int64), step.mask, self.space)
        if worst > 1:
            key = (access.line, access.column)
            old = self.found.contention.get(key)
            if old is None or old.lanes < worst:
                self.found.contention[key] = AtomicContention(access.array, access.line, access.column, worst,
                                                              bool(access.context.loops))

    def check_mask(self, step: Step, record, name: str, mask_expr) -> None:
        key = (record.line, record.column)
        if key in self.found.mismatches:
            return
        masks = np.full(self.space.size, FULL_MASK, dtype=np.int64) if mask_expr is None else \
            per_thread(mask_expr, step.env, self.space.size)
        if masks is None:
            return
        masks = np.asarray(masks, dtype=np.int64) & FULL_MASK
        for condition in step.unknown:
            if condition.expr.thread_dependent and condition.line not in self.exit_lines:
                self.found.mismatches[key] = MaskMismatch(
                    name, record.line, record.column,
                    f"{name} with mask {_hex(masks[step.mask][0]) if np.any(step.mask) else '?'} under the "
                    f"thread-dependent condition at line {condition.line}: lanes named in the mask may not "
                    "get here")
                return
        problem = _mask_problem(masks, step.mask, self.alive, self.space)
        if problem:
            self.found.mismatches[key] = MaskMismatch(name, record.line, record.column, f"{name}: {problem}")

    # -- intervals -------------------------------------------------------------------------------
    def close_interval(self, barrier) -> None:
        current = self.interval
        for race in races_within(current, self.space):
            self.found.races.setdefault((race.array, race.first_line, race.second_line), race)
        if self.previous is not None:
            before, between = self.previous
            key = (between.line, between.column)
            # needed once is needed for good: a barrier in a loop is not checked again each iteration
            if not self.found.barrier_needed.get(key, False):
                self.found.barrier_needed[key] = between.kind in VALUE_BARRIERS or \
                    _hazard_across(before, current, self.space)
        self.previous = (current, barrier) if barrier is not None else None
        self.interval = []


# ------------------------------------------------------------------------------------- pair checks

def races_within(instances: list[Instance], space: ThreadSpace):
    """Racing access pairs of one barrier interval. A vectorised pass over every (word, thread) touch
    finds the words that race at all; only the accesses touching them are compared pairwise, to name
    the two source lines."""
    for group in _by_array(i for i in instances if i.access.space == "shared" and i.addresses is not None):
        if not any(i.writes for i in group) or not _shared_by_threads(group):
            continue
        table = _touches(group, space)
        racy = _racy_words(table)
        if not racy.size:
            continue
        involved = set(np.unique(table["instance"][np.isin(table["word"], racy)]).tolist())
        # Naming the racing pairs is quadratic; a generated kernel with thousands of accesses in one
        # interval gets its races named among the first accesses only (that it races is known).
        candidates = [instance for k, instance in enumerate(group) if k in involved]
        if len(candidates) > MAX_PAIRWISE_CANDIDATES:
            candidates = candidates[:MAX_NAMED_CANDIDATES]
        for a_index, first in enumerate(candidates):
            for second in candidates[a_index:]:
                if not (first.writes or second.writes) or (first is second and not first.writes):
                    continue
                if first.access.op == "atomic" and second.access.op == "atomic":
                    continue
                scope = _conflict(first, second, space, ordered_by_syncwarp=True)
                if scope:
                    yield _race(first, second, scope)


def _hazard_across(before: list[Instance], after: list[Instance], space: ThreadSpace) -> bool:
    """Whether some thread's access before a barrier conflicts with another thread's after it."""
    arrays_after = {i.access.array for i in after}
    for group in _by_array(i for i in before if i.access.array in arrays_after):
        later = [i for i in after if i.access.array == group[0].access.array]
        both = group + later
        if not any(i.writes for i in both):
            continue
        if any(i.addresses is None for i in both):
            return True     # cannot rule it out
        if not _shared_by_threads(both):
            continue
        table = _touches(both, space)
        side = table["instance"] >= len(group)
        starts, table = _grouped(table, ("word",))
        kinds = table["kind"]
        side = side[table["order"]]
        write, atomic = kinds == STORE, kinds == ATOMIC
        thread = table["thread"]
        # (rows before, rows after) that conflict; atomics only against loads, and most tables have none
        pairs = [lambda: (write & ~side, side), lambda: (write & side, ~side)]
        if atomic.any():
            load = kinds == LOAD
            pairs += [lambda: (atomic & ~side, load & side), lambda: (load & ~side, atomic & side)]
        if any(np.any(_pair_exists(starts, *pair(), thread)) for pair in pairs):
            return True
    return False


LOAD, STORE, ATOMIC = 0, 1, 2
MAX_PAIRWISE_CANDIDATES = 256   # beyond this many racing accesses in one interval, name pairs among
MAX_NAMED_CANDIDATES = 48       # the first ones only


def _by_array(instances) -> list[list[Instance]]:
    groups: dict = {}
    for instance in instances:
        groups.setdefault(instance.access.array, []).append(instance)
    return list(groups.values())


def _granule(group: list[Instance]) -> int:
    """The word size the accesses of one array are compared in: 4 bytes, less for narrower elements."""
    return min([4] + [i.access.elem_bytes or 4 for i in group])


def _shared_by_threads(group: list[Instance]) -> bool:
    """Whether two different threads touch one word. Every race and hazard needs that; an interval
    whose threads each keep to their own slots is ruled out by one sort instead of the grouped table."""
    granule = _granule(group)
    footprints = [i.footprint(granule) for i in group]
    words = np.concatenate([words for words, _ in footprints])
    threads = np.concatenate([threads for _, threads in footprints])
    order = np.argsort(words)
    words, threads = words[order], threads[order]
    # within a run of equal words, two different threads are adjacent somewhere
    return bool(np.any((words[1:] == words[:-1]) & (threads[1:] != threads[:-1])))


def _touches(group: list[Instance], space: ThreadSpace) -> dict:
    """One row per (instance, thread, word touched): the columns the race rules group by."""
    granule = _granule(group)
    columns = {"word": [], "thread": [], "epoch": [], "kind": [], "instance": []}
    for index, instance in enumerate(group):
        words, threads = instance.footprint(granule)
        kind = {"load": LOAD, "store": STORE}.get(instance.access.op, ATOMIC)
        columns["word"].append(words)
        columns["thread"].append(threads)
        columns["epoch"].append(instance.epochs[threads])
        columns["kind"].append(np.full(words.size, kind))
        columns["instance"].append(np.full(words.size, index))
    table = {name: np.concatenate(parts) if parts else np.zeros(0, np.int64) for name, parts in columns.items()}
    table["warp"] = space.warp[table["thread"]]
    return table


def _grouped(table: dict, keys: tuple):
    """The table sorted by `keys` (plus `order`, the permutation), and where each key group starts."""
    order = np.lexsort([table[k] for k in reversed(keys)])
    ordered = {name: column[order] for name, column in table.items()}
    ordered["order"] = order
    change = np.zeros(order.size, dtype=bool)
    if order.size:
        change[0] = True
        for key in keys:
            change[1:] |= ordered[key][1:] != ordered[key][:-1]
    return np.nonzero(change)[0], ordered


def _pair_exists(starts, x, y, key) -> np.ndarray:
    """Per group: some row in x and some row in y differ in `key` (both sets non-empty and, between
    them, at least two distinct keys, which is the same thing)."""
    if not starts.size:
        return np.zeros(0, dtype=bool)
    either = x | y
    low = np.minimum.reduceat(np.where(either, key, np.iinfo(np.int64).max), starts)
    high = np.maximum.reduceat(np.where(either, key, -1), starts)
    return np.logical_or.reduceat(x, starts) & np.logical_or.reduceat(y, starts) & (low != high)


def _racy_words(table: dict) -> np.ndarray:
    """Words touched by two threads, one writing (atomic pairs excepted), with nothing ordering them:
    threads of different warps in one interval never are; lanes of one warp are, by a __syncwarp
    between them (a different epoch)."""
    found = []
    for keys, between in ((("word",), "warp"), (("word", "warp", "epoch"), "thread")):
        starts, rows = _grouped(table, keys)
        kinds = rows["kind"]
        write, atomic = kinds == STORE, kinds == ATOMIC
        racy = _pair_exists(starts, write, np.ones_like(write), rows[between])
        if atomic.any():
            racy |= _pair_exists(starts, atomic, kinds == LOAD, rows[between])
        found.append(rows["word"][starts[racy]])
    return np.unique(np.concatenate(found))


def _conflict(first: Instance, second: Instance, space: ThreadSpace, ordered_by_syncwarp: bool) -> str | None:
    """'block' or 'warp' when two different threads touch a common byte range unordered, else None."""
    granule = min(4, first.access.elem_bytes or 4, second.access.elem_bytes or 4)
    words_a, threads_a = first.footprint(granule)
    words_b, threads_b = second.footprint(granule)
    if not words_a.size or not words_b.size:
        return None
    order = np.argsort(words_b, kind="stable")
    words_b, threads_b = words_b[order], threads_b[order]
    low = np.searchsorted(words_b, words_a, "left")
    high = np.searchsorted(words_b, words_a, "right")
    counts = high - low
    total = int(counts.sum())
    if total == 0:
        return None
    if total > MAX_PAIRS:
        keep = np.cumsum(counts) <= MAX_PAIRS
        words_a, threads_a, low, counts = words_a[keep], threads_a[keep], low[keep], counts[keep]
        total = int(counts.sum())
    left = np.repeat(np.arange(words_a.size), counts)
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    u = threads_a[left]
    v = threads_b[low[left] + offsets]
    racing = u != v
    same_warp = space.warp[u] == space.warp[v]
    if ordered_by_syncwarp:
        racing &= ~(same_warp & (first.epochs[u] != second.epochs[v]))
    if not np.any(racing):
        return None
    return "block" if np.any(racing & ~same_warp) else "warp"


def _race(first: Instance, second: Instance, scope: str) -> SharedRace:
    """`first` executed before `second`: the kind follows execution order, which for a pair carried
    around a loop is the reverse of source order."""
    a, b = first.access, second.access
    kind = "WAW" if first.writes and second.writes else "RAW" if first.writes else "WAR"
    fix = "__syncwarp()" if scope == "warp" else "__syncthreads()"
    who = "another lane of the same warp" if scope == "warp" else "another thread"
    if first is second or (a.line, a.column) == (b.line, b.column):
        message = f"{kind} race on {a.array}: threads at line {a.line} write slots that other threads of the " \
                  f"same access also write, with no {fix} between them"
    else:
        later = " in the next iteration" if _walk_position(b) < _walk_position(a) else ""
        did = "read" if kind == "WAR" else "stored"
        does = "reads" if kind == "RAW" else "overwrites"
        message = f"{kind} race on {a.array}: line {b.line}{later} {does} what {who} {did} at line {a.line}, " \
                  f"with no {fix} in between"
    return SharedRace(a.array, kind, a.line, a.column, b.line, b.column, scope, message)


def _walk_position(record) -> tuple:
    return (getattr(record, "seq", None) or 0, record.line, record.column)


def _most_lanes_on_one_address(addresses: np.ndarray, mask: np.ndarray, space: ThreadSpace) -> int:
    worst = 0
    for warp in range(space.warps):
        lanes = mask & (space.warp == warp)
        if np.count_nonzero(lanes) < 2:
            continue
        _, counts = np.unique(addresses[lanes], return_counts=True)
        worst = max(worst, int(counts.max()))
    return worst


def _mask_problem(masks: np.ndarray, active: np.ndarray, alive: np.ndarray, space: ThreadSpace) -> str | None:
    """CUDA's rule for the *_sync intrinsics: each calling lane is in its mask, and every lane the mask
    names that has not exited executes the same call. Lanes past the block's end count as exited."""
    for warp in range(space.warps):
        in_warp = space.warp == warp
        lanes = active & in_warp
        if not np.any(lanes):
            continue
        present = _bits(space.lane[lanes])
        waiting = _bits(space.lane[alive & in_warp]) & ~present
        for mask, lane in zip(masks[lanes], space.lane[lanes]):
            mask, lane = int(mask), int(lane)
            if not (mask >> lane) & 1:
                return f"lane {lane} of warp {warp} calls it with mask {_hex(mask)}, which leaves it out"
            if mask & waiting:
                return f"mask {_hex(mask)} names lanes {_lane_list(mask & waiting)} of warp {warp}, which do " \
                       f"not execute this call (lanes here: {_hex(present)})"
    return None


def _bits(lanes: np.ndarray) -> int:
    return int(np.bitwise_or.reduce(np.left_shift(np.int64(1), lanes))) if lanes.size else 0


# ------------------------------------------------------------------------------------------ helpers

def _value(expr, env):
    if expr is None:
        return None
    try:
        value = expr.evaluate(env)
    except EVALUATION_ERRORS:
        return None
    try:
        return value.astype(np.int64) if isinstance(value, np.ndarray) else int(value)
    except EVALUATION_ERRORS:
        return None


def _compare(operator: str, value, bound, size: int):
    try:
        result = sx.apply_binary(operator, value, bound)
    except sx.Unevaluable:
        return None
    return np.broadcast_to(np.asarray(result) != 0, (size,))


def _is_warp_intrinsic(name: str) -> bool:
    return name.startswith("__") and name.endswith("_sync") and not name.startswith("__syncthreads")


def _hex(mask) -> str:
    return f"0x{int(mask):08x}"


def _lane_list(bits: int) -> str:
    lanes = [k for k in range(WARP_SIZE) if (bits >> k) & 1]
    runs, start = [], lanes[0]
    for previous, current in zip(lanes, lanes[1:] + [None]):
        if current != previous + 1:
            runs.append(f"{start}" if start == previous else f"{start}..{previous}")
            start = current
    return ", ".join(runs)


def _blocks(grid):
    """Block indices to execute: all of them for small grids, else the first two, a middle and the last."""
    x, y, z = grid
    total = x * y * z
    if total <= MAX_BLOCKS:
        return list(product(range(x), range(y), range(z)))
    linear = sorted({0, 1, total // 2, total - 2, total - 1})
    return [(k % x, (k // x) % y, k // (x * y)) for k in linear]


def _grid(bindings: dict):
    dims = [bindings.get(f"gridDim.{axis}") for axis in "xyz"]
    if dims[0] is None:
        return None
    return tuple(int(d) if d is not None else 1 for d in dims)


# ------------------------------------------------------------------------------------------- public

def _depends_on_block_index(kernel) -> bool:
    """Whether any condition, loop bound or shared address reads blockIdx: if none does, every block
    behaves alike here and one block stands for all."""
    expressions = [b.condition for b in kernel.branches] + [b.condition for b in kernel.early_returns]
    expressions += [e for loop in kernel.loops for e in (loop.start, loop.bound, loop.step) if e is not None]
    expressions += [a.address for a in kernel.accesses if a.space == "shared"]
    for record in list(kernel.accesses) + list(kernel.barriers) + list(kernel.calls):
        expressions += [c.expr for c in record.context.conditions]
    return any(name.startswith("blockIdx") for expr in expressions for name in sx.free_names(expr))


def _has_synchronization(kernel) -> bool:
    """Whether there is anything for this analysis to look at: barriers, shared memory, atomics,
    warp intrinsics or fences. Most element-wise kernels have none, and simulating their blocks
    would only confirm it."""
    return bool(kernel.barriers) or any(a.space == "shared" or a.op == "atomic" for a in kernel.accesses) or \
        any(c.name in FENCES or _is_warp_intrinsic(c.name) for c in kernel.calls)


def analyze(kernel, block=(256, 1, 1), bindings: dict | None = None, grid=None) -> SyncResult:
    """Synchronization facts for one kernel, for one block shape and the given scalar bindings
    (parameter name -> value). A grid (or `gridDim.x/y/z` bindings) makes every block's conditions
    concrete; without one, conditions that read blockIdx are judged symbolically."""
    if not _has_synchronization(kernel):
        return SyncResult(barriers=0, divergent_barriers=(), shared_races=(), returns_before_barrier=(),
                          redundant_barriers=(), mask_mismatches=(), atomic_count=0, atomics_in_loops=0,
                          contention=(), fences=(), exact=True, notes=())
    bindings = {**getattr(kernel, "template_bindings", {}), **(bindings or {})}
    if grid is not None:
        bindings.update({f"gridDim.{axis}": int(size) for axis, size in zip("xyz", tuple(grid) + (1, 1))})
    space = thread_space(block)
    tree = loop_tree(program_order(kernel))
    exit_lines = {r.context.conditions[-1].line for r in kernel.early_returns if r.context.conditions}
    shapes = {array.name: array for array in kernel.shared_arrays}
    found = Findings()
    grid = _grid(bindings)
    base_env = {**bindings, **space.env}
    if grid is None:
        found.note("grid unknown: conditions on blockIdx judged symbolically")
        BlockRun(tree, space, base_env, exit_lines, shapes, found).run()
    else:
        for index in (_blocks(grid) if _depends_on_block_index(kernel) else [(0, 0, 0)]):
            env = {**base_env, "blockIdx.x": index[0], "blockIdx.y": index[1], "blockIdx.z": index[2]}
            BlockRun(tree, space, env, exit_lines, shapes, found).run()

    block_barriers = [b for b in kernel.barriers if b.kind in BLOCK_BARRIERS]
    # a barrier in a loop that ran once here may still order one iteration against the next
    looped_once = {(b.line, b.column) for b in block_barriers
                   if any(found.loop_trips.get(id(loop), 0) < 2 for loop in b.context.loops)}
    positions = sorted({(b.line, b.column, b.kind) for b in block_barriers})
    redundant = tuple(Site(f"__{kind}", line, column) for line, column, kind in positions
                      if found.barrier_needed.get((line, column)) is False and (line, column) not in looped_once)
    atomics = [a for a in kernel.accesses if a.op == "atomic"]
    return SyncResult(
        barriers=len(block_barriers),
        divergent_barriers=tuple(sorted(found.divergent.values(), key=lambda d: (d.line, d.column))),
        shared_races=tuple(sorted(found.races.values(), key=lambda r: (r.first_line, r.second_line, r.kind))),
        returns_before_barrier=tuple(sorted(found.returns.values(), key=lambda r: (r.line, r.column))),
        redundant_barriers=redundant,
        mask_mismatches=tuple(sorted(found.mismatches.values(), key=lambda m: (m.line, m.column))),
        atomic_count=len(atomics),
        atomics_in_loops=sum(1 for a in atomics if a.context.loops),
        contention=tuple(sorted(found.contention.values(), key=lambda c: (c.line, c.column))),
        fences=tuple(sorted(found.fences.values(), key=lambda s: (s.line, s.column))),
        exact=not found.inexact,
        notes=tuple(found.inexact),
    )


def _one_race_per_access(races) -> list:
    """A racing access is reported once, against its nearest earlier partner."""
    chosen: dict = {}
    for race in races:
        key = (race.array, race.second_line)
        if key not in chosen or race.first_line > chosen[key].first_line:
            chosen[key] = race
    return list(chosen.values())


def diagnostics(result: SyncResult, kernel, path: str) -> list[Diagnostic]:
    """The lint findings of one kernel's synchronization analysis."""
    name = kernel.name
    out: list[Diagnostic] = []

    def emit(code, line, column, message, related=()):
        severity = RULES[code][1]
        out.append(Diagnostic(code, severity, path, line, column, message, name, related=related))

    for d in result.divergent_barriers:
        emit("KS201", d.line, d.column, f"barrier is divergent: {d.reason}")
    for r in _one_race_per_access(result.shared_races):
        code = "KS207" if r.scope == "warp" else "KS202"
        emit(code, r.second_line, r.second_column, r.message,
             related=((r.first_line, r.first_column, "the other access"),))
    for r in result.returns_before_barrier:
        emit("KS206", r.line, r.column, r.message, related=((r.barrier_line, 1, "the barrier"),))
    for m in result.mask_mismatches:
        emit("KS205", m.line, m.column, m.message)
    for c in result.contention:
        where = " inside a loop" if c.in_loop else ""
        emit("KS204", c.line, c.column, f"up to {c.lanes} lanes of a warp update the same address of {c.array} "
             f"in one atomic{where}; reduce within the warp first (shuffles) and issue one atomic per warp")
    for s in result.redundant_barriers:
        emit("KS203", s.line, s.column, f"{s.name}() orders no shared or global access between threads; "
             "it can be removed")
    for s in result.fences:
        emit("KS208", s.line, s.column, f"{s.name}() orders this thread's memory writes for other threads; "
             "it does not synchronize and is only needed when other blocks read these writes")
    return sorted(out, key=lambda d: (d.line, d.column, d.rule))

"""Synchronization analysis: barriers, shared-memory races, atomics, warp intrinsics and fences.

The kernel's records (accesses, barriers, calls, early returns) are merged into program order and
grouped by the loops around them. That tree is then *executed* for every thread of a block at once:
loops are unrolled with concrete iteration values where they can be computed (per thread when the
trip count depends on the thread; `kernelscope.analyses.loops` simulates them), conditions become
per-thread masks, `return` removes threads.
On that trace

- a block barrier reached by some but not all live threads is divergent (KS201), and one reached
  after some threads returned is a return-before-barrier (KS206);
- barriers cut the trace into intervals; two accesses to the same shared word in one interval, by
  different threads, one of them a write, race (KS202). Lanes of one warp are ordered by a
  `__syncwarp` between their accesses; a race whose thread pairs all share a warp is reported as a
  missing `__syncwarp` (KS207), unless it is one store whose lanes write one address, which no
  barrier can order (KS202, with that fix);
- global memory is checked the same way within a block (KS209), and between blocks: every access
  of one block against every access of another between grid-wide barriers (`this_grid().sync()`),
  since nothing else orders blocks. Neighbour reads such as `y[i] = y[i + 1]` and a store to one
  address from every block are found there. Global accesses under conditions that read memory are
  left out (a flag or a ticket protocol may order them);
- an atomic's result is bound where it decides an index: `atomicAdd(&n, k)` hands each thread its
  own slot (in thread order: one interleaving stands for all);
- a barrier with no shared or global hazard between the intervals on its two sides is redundant
  (KS203);
- an atomic whose active lanes of one warp hit one address contends (KS204);
- a warp intrinsic whose mask names lanes that are not there, or misses lanes that are, is wrong
  (KS205); `__threadfence` calls are listed (KS208).

Without a grid, block 0 and its neighbour along each axis the kernel reads are executed: blockIdx is
the same for every thread of a block, so races inside a block do not depend on the grid, and the
neighbours show races between blocks. What cannot be evaluated (data-dependent conditions, unbound
parameters, gridDim without a grid) falls back to the symbolic judgement of
`kernelscope.analyses.threads`: a thread-dependent condition around a barrier or intrinsic is
reported, an unknown address is never reported as a race.
"""

from __future__ import annotations

from dataclasses import field
from itertools import accumulate, product
from operator import attrgetter

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses.batched_intervals import interval_numbers, intervals_sharing_a_word
from kernelscope.analyses.batched_trips import MIXED, counter_column, repeated, values_for_trips
from kernelscope.analyses.loops import UNKNOWN, executed_iterations
from kernelscope.analyses.threads import UNEVALUABLE, WARP_SIZE, ThreadSpace, as_truth, one_per_thread, per_thread, \
    thread_space
from kernelscope.analyses.threads import count_nonzero as _count_nonzero
from kernelscope.identity_cache import IdentityCache
from kernelscope.model import FENCES, Loop
from kernelscope.records import record

BLOCK_BARRIERS = frozenset({"syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "cg_sync"})
GRID_BARRIER = "grid_sync"
# atomics whose old values are distinct slots: (name, sign of the value operand)
SLOT_ATOMICS = {"atomicAdd": 1, "atomicAdd_block": 1, "atomicAdd_system": 1, "atomicSub": -1, "atomicInc": 0}
VALUE_BARRIERS = frozenset({"syncthreads_count", "syncthreads_and", "syncthreads_or"})
FULL_MASK = 0xFFFFFFFF

MAX_BLOCKS = 8           # blocks executed when the grid is known
MAX_STEPS = 20000        # trace length cap per block
MAX_PAIRS = 4_000_000    # thread pairs compared per access pair
MAX_NOTES = 20           # reasons the result is approximate, kept for the JSON
SKIM_SUMMARIES = True    # a quiet loop nest skimmed again leaves behind what it left the last time
NEST_BATCHES = True      # loops of batchable and quiet loops run as one batch of all inner iterations
BARRIER_FREE_NESTS = True   # ... also a nest with no barrier at all in it (register tiles' unrolled loops)
REUSE_WALKED = True      # a nest's look-ahead takes the iterations the walk computed already
EARLY_TOO_FEW = True     # a nest with no barrier too short to batch is told so before its look-ahead
REPEATED_TRIPS = True    # a nest's look-ahead asks an inner loop that does the same in every trip once
MIN_NEST_ROWS = 32       # rows (outer and inner iterations) worth a nest's batch: it costs more to set up
MAX_BATCH_CELLS = 1 << 20   # (rows x threads) of one nest's batch at most
SCREEN_INTERVALS = True  # a batched loop's barrier intervals are screened for shared words at once
GROUPED_ATOMICS = True   # an atomic's slots and contention found for all addresses at once, not one by one
SPANS_APART = True       # footprints of rising words in ranges apart are known not to share a word
MAX_APART = 12           # ... asked of this many footprints at most (more cost less looked at together)
SHARE_FOOTPRINTS = True  # instances with the same addresses and threads share one footprint (`Footprints`)
MIN_BATCH = 8            # iterations worth evaluating at once (fewer cost about as much one by one)
HAZARD_OWNERS = True     # the barrier hazard check compares one remembered thread per word and side (dense words)
RECORD_ROWS = True       # a batch records its rows of known int64 addresses without a `record_access` call each
UNSHARED_ROWS = True     # ... and keeps their footprints out of the shared table (`Footprints`)
BLOCK_ROWS = True        # ... and those kept for comparing blocks have their footprints found at once
NO_MEETING_FIRST = True  # block pairs whose accesses' word ranges do not meet are told so by their whole ranges
                         # or in one reduction
REUSE_SCREENS = True     # a batch screened again with equal rows (a later block's) takes the screens found before
SAME_ROWS_APART = True   # the barrier hazard check tells the same strictly rising rows on both sides apart at once
PAIRS_AT_ONCE = True     # which block pairs have accesses whose word ranges meet, found for all pairs of an array at once
MAX_PAIRS_TABLE = 1 << 18   # (blocks x blocks x accesses x accesses) of that table at most
NO_PAIR_TO_NAME = True   # a race check skips a group of one access whose every pair the naming loop would skip
PLAIN_SHORTCUTS = True   # a kernel without barriers, shared memory, atomics, fences and warp intrinsics skips the
                         # bookkeeping only those need; one without loops, the loop tree
REPEAT_TRIPS = True      # a loop whose trips all repeat its first runs one trip (see `_repeat_plan`)
REPEAT_UNKNOWN_WRITES = True   # ... also one whose trips write at addresses unknown in every trip (`_unknown_writes`)
IDLE_WARP_CALLS = True   # a warp intrinsic whose mask and conditions no trip changes leaves later trips idle
                         # (see `_idle_candidates`)



# ------------------------------------------------------------------------------------------ results

@record(frozen=True)
class DivergentBarrier:
    line: int
    column: int
    reason: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "reason": self.reason}


@record(frozen=True)
class SharedRace:
    array: str
    kind: str                  # RAW | WAR | WAW, in program order of the two accesses
    first_line: int
    first_column: int
    second_line: int
    second_column: int
    scope: str                 # block: some racing pairs are in different warps; warp: all in one warp;
                               # grid: the pairs are in different blocks (global memory)
    message: str
    one_store: bool = False    # lanes of one store write one address: no barrier can order them

    def to_json(self) -> dict:
        return {"array": self.array, "kind": self.kind, "first_line": self.first_line,
                "second_line": self.second_line, "scope": self.scope, "message": self.message}


@record(frozen=True)
class ReturnBeforeBarrier:
    line: int
    column: int
    barrier_line: int
    message: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "barrier_line": self.barrier_line,
                "message": self.message}


@record(frozen=True)
class MaskMismatch:
    name: str
    line: int
    column: int
    message: str

    def to_json(self) -> dict:
        return {"name": self.name, "line": self.line, "column": self.column, "message": self.message}


@record(frozen=True)
class AtomicContention:
    array: str
    line: int
    column: int
    lanes: int                 # most lanes of one warp on one address in one instruction
    in_loop: bool

    def to_json(self) -> dict:
        return {"array": self.array, "line": self.line, "column": self.column, "lanes": self.lanes,
                "in_loop": self.in_loop}


@record(frozen=True)
class Site:
    name: str
    line: int
    column: int

    def to_json(self) -> dict:
        return {"name": self.name, "line": self.line, "column": self.column}


@record(frozen=True)
class SyncResult:
    barriers: int
    divergent_barriers: tuple = ()
    shared_races: tuple = ()
    global_races: tuple = ()
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
        # Most of these tuples are empty (149 real kernels: 2 have races, 6 redundant barriers):
        # `[] if not x` skips making and calling a comprehension for nothing
        # (tests/test_docfast11_document.py compares with the plain comprehensions).
        contention = self.contention
        return {
            "barriers": self.barriers,
            "divergent_barriers": [d.to_json() for d in self.divergent_barriers] if self.divergent_barriers else [],
            "shared_races": [r.to_json() for r in self.shared_races] if self.shared_races else [],
            "global_races": [r.to_json() for r in self.global_races] if self.global_races else [],
            "returns_before_barrier": ([r.to_json() for r in self.returns_before_barrier]
                                       if self.returns_before_barrier else []),
            "redundant_barriers": [s.to_json() for s in self.redundant_barriers] if self.redundant_barriers else [],
            "mask_mismatches": [m.to_json() for m in self.mask_mismatches] if self.mask_mismatches else [],
            "atomics": self.atomic_count,
            "atomic_details": {"in_loops": self.atomics_in_loops,
                               "same_address_contention": len(contention),
                               "contended": [c.to_json() for c in contention] if contention else []},
            "threadfences": [s.to_json() for s in self.fences] if self.fences else [],
            "exact": self.exact,
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- program order and tree

class Event:
    """One record in program order, with what the executor asks of it every time it runs: its
    conditions (and their identities, the key their masks are shared under) and whether executing it
    can find anything (most calls are maths functions: they only count as a step)."""
    __slots__ = ("kind", "record", "conditions", "condition_key", "inert", "plain_access", "block_barrier",
                 "warp_call", "read_only", "trusted", "unbound_address")

    def __init__(self, kind: str, record, inert: bool, plain_access: bool, block_barrier: bool,
                 warp_call: bool):
        # (the flags come from `program_order`, which works them out a record kind at a time)
        self.kind = kind                  # access | barrier | call | return
        self.record = record
        conditions = self.conditions = record.context.conditions
        # (most records are under no condition or one: `tuple(map(id, ...))` costs three times these)
        self.condition_key = () if not conditions else (id(conditions[0]),) if len(conditions) == 1 else \
            tuple(map(id, conditions))
        self.inert = inert
        # a shared or global load or store: the executor's most frequent event, handled inline
        self.plain_access = plain_access
        # a barrier of the whole block: what executing it does depends only on who reaches it
        self.block_barrier = block_barrier
        # a warp intrinsic with a lane mask: executing it only checks the mask
        self.warp_call = warp_call
        self.read_only = False            # set by `mark_read_only`
        self.trusted = None               # whether its byte address can be trusted, once asked
        self.unbound_address = False      # its address reads a name that is never bound


def mark_read_only(events: list[Event]) -> None:
    """Flags the accesses to arrays that no access writes. Two loads never race and nothing can
    make a load of such an array race or keep a barrier (every race and hazard check asks for a
    write to the array first), so executing one only ever notes that its address is unknown."""
    written = {e.record.array for e in events if e.kind == "access" and not e.inert and e.record.op != "load"}
    for event in events:
        if event.plain_access and event.record.array not in written:
            event.read_only = True


_EXECUTED_SPACES = ("shared", "global")   # the memory whose accesses the executor follows


def _inert(kind: str, record) -> bool:
    """Executing the event changes nothing: an access outside shared and global memory, or a call
    that is neither a fence nor a warp intrinsic with a mask (an atomic's call record is inert too:
    its access record does the work)."""
    if kind == "access":
        return record.space not in _EXECUTED_SPACES
    if kind == "call":
        return not (record.name in FENCES or (_is_warp_intrinsic(record.name) and record.args))
    return False


@record
class LoopNode:
    loop: object
    children: list = field(default_factory=list)
    carried: frozenset = frozenset()   # variables the loop updates (besides its counter) that records read
    quiet: bool = False                # every event under it is inert (see `BlockRun.skim`)
    batchable: bool = False            # innermost, only loads, stores and block barriers: see `BlockRun.run_batched`
    nest_batchable: bool = False       # loads, stores, block barriers and loops that are batchable or quiet:
                                       # see `BlockRun.run_nest_batched`
    read_after: list | None = None     # see `_read_after`
    plain_steps: int | None = None     # when quiet: its events' count if no loop is nested in it


def program_order(kernel) -> list[Event]:
    """Accesses, barriers, calls and early returns in the order the walker met them (`seq`, which
    also places code inlined from helpers at its call site); records without one sort by position."""
    events = []
    for access in kernel.accesses:
        inert = access.space not in _EXECUTED_SPACES
        events.append(Event("access", access, inert, not inert and access.op != "atomic", False, False))
    for barrier in kernel.barriers:
        events.append(Event("barrier", barrier, False, False, barrier.kind in BLOCK_BARRIERS, False))
    for call in kernel.calls:
        inert = _inert("call", call)
        events.append(Event("call", call, inert, False, False, not inert and call.name not in FENCES))
    events += [Event("return", branch, False, False, False, False) for branch in kernel.early_returns]
    events.sort(key=_EVENT_POSITION)
    return events


def loop_tree(events: list[Event]) -> list:
    root = _nest(events)
    by_conditions: dict = {}
    for node in root:
        # (what the events outside every loop read is carried by no loop: only loops are marked)
        if type(node) is LoopNode:
            _mark_loop(node, by_conditions)
    return root


def _mark_loop(node: LoopNode, by_conditions: dict) -> set:
    """Marks `node` and the loops under it as `_mark_carried` and `_mark_quiet` do, in one pass over
    its children (those two went through every subtree once each, and `_mark_quiet` through each
    loop's children up to four times); returns the names `_mark_carried` returns for [node].
    tests/test_syncfast18_mark_loop.py compares the marks with theirs."""
    var = node.loop.var
    children = node.children
    names: set = set()
    quiet = True          # every event under it inert
    simple = True         # every event child one a batch handles (inert, a load or store, a barrier, a warp call)
    nested = False        # a loop among the children
    fits_nest = True      # every loop child quiet or batchable, with a counter of its own
    batches: list = []    # the batchable loop children
    for child in children:
        if type(child) is LoopNode:
            names |= _mark_loop(child, by_conditions)
            nested = True
            if child.batchable:
                batches.append(child)
            elif not child.quiet:
                fits_nest = False
            if child.loop.var == var:
                fits_nest = False
            quiet = quiet and child.quiet
            continue
        names |= _OWN_CARRIED[child.kind](child.record)
        names |= _carried_by_conditions(child, by_conditions)
        if not child.inert:
            quiet = False
            if not (child.plain_access or child.block_barrier or child.warp_call):
                simple = False
    node.carried = frozenset(names - {var})
    node.quiet = quiet
    looping = var is not None and not quiet
    node.batchable = batchable = looping and simple and not nested
    if quiet and not nested:
        node.plain_steps = len(children)
    node.nest_batchable = looping and not batchable and simple and fits_nest and \
        any(any(e.block_barrier for e in child.children) or
            BARRIER_FREE_NESTS and not _holds_a_barrier(children)
            for child in batches)
    return names


def _mark_quiet(nodes) -> bool:
    """Marks the loops whose events are all inert, and the innermost loops whose events are
    inert or plain loads and stores; whether all of `nodes` are inert. (`loop_tree` marks them
    with `_mark_loop`; this is the reference its test compares with.)"""
    quiet = True
    for node in nodes:
        if isinstance(node, LoopNode):
            node.quiet = _mark_quiet(node.children)
            node.batchable = node.loop.var is not None and not node.quiet and \
                all(not isinstance(child, LoopNode) and
                    (child.inert or child.plain_access or child.block_barrier or child.warp_call)
                    for child in node.children)
            if node.quiet and not any(isinstance(child, LoopNode) for child in node.children):
                node.plain_steps = len(node.children)
            node.nest_batchable = node.loop.var is not None and not node.quiet and not node.batchable and \
                any(isinstance(child, LoopNode) and child.batchable and
                    (any(e.block_barrier for e in child.children) or
                     BARRIER_FREE_NESTS and not _holds_a_barrier(node.children))
                    for child in node.children) and \
                all(child.inert or child.plain_access or child.block_barrier or child.warp_call
                    if not isinstance(child, LoopNode) else
                    (child.quiet or child.batchable) and child.loop.var != node.loop.var
                    for child in node.children)
            quiet = quiet and node.quiet
        else:
            quiet = quiet and node.inert
    return quiet


def _holds_a_barrier(nodes) -> bool:
    """Whether a barrier of any kind is among `nodes` or in their loops.

    A nest with a barrier only pays as a batch when an inner loop holds one (a reduction's or a
    sorting network's steps): a tile loop with its barriers in its own body is walked, since its
    iterations' addresses repeat across blocks as the memo's arrays, whose footprints the race
    checks share, where a batch's rows are fresh every time. A nest with no barrier at all (the
    unrolled register-tile loops after a tile is loaded) adds all its rows to one interval, and
    walking it costs an address look-up per access and inner iteration."""
    for node in nodes:
        if isinstance(node, LoopNode):
            if _holds_a_barrier(node.children):
                return True
        elif node.kind == "barrier":
            return True
    return False


def _mark_carried(nodes, by_conditions: dict | None = None) -> frozenset:
    """Names of loop-updated variables (symbols with a first-iteration default) read under each loop.
    `by_conditions`: the names each tuple of conditions reads, by their identities (the events of
    one block share theirs). (`loop_tree` marks them with `_mark_loop`; this is the reference its
    test compares with.)"""
    by_conditions = {} if by_conditions is None else by_conditions
    names: set = set()
    for node in nodes:
        if isinstance(node, LoopNode):
            inner = _mark_carried(node.children, by_conditions)
            node.carried = frozenset(inner - {node.loop.var})
            names |= inner
        else:
            names |= _OWN_CARRIED[node.kind](node.record)
            names |= _carried_by_conditions(node, by_conditions)
    return frozenset(names)


def _carried_by_conditions(node, by_conditions: dict) -> frozenset:
    """Loop-updated names the conditions around an event read, kept in `by_conditions` by the
    conditions' identity (the events of one block share their condition tuples)."""
    read = by_conditions.get(node.condition_key)
    if read is None:
        read = by_conditions[node.condition_key] = \
            frozenset().union(*(sx.carried_names(c.expr) for c in node.conditions))
    return read


def _carried_read_by(value) -> frozenset:
    return sx.carried_names(value) if isinstance(value, sx.Expr) else frozenset()


def _carried_read_by_args(call) -> set:
    names: set = set()
    for arg in call.args:
        if isinstance(arg, sx.Expr):
            names |= sx.carried_names(arg)
    return names


# The loop-updated names a record's own expressions read (its conditions aside), by record kind:
# the one field each kind has that can read one (the names are kept on the expressions' nodes,
# since a walk per record would be exponential in shared subtrees). Asking every record for every
# such field, as this once did, raised and caught an AttributeError per missing slot
# (tests/test_syncfast9_events.py compares with that).
_OWN_CARRIED = {
    "access": lambda access: _carried_read_by(access.address),
    "barrier": lambda barrier: _carried_read_by(barrier.mask),
    "call": _carried_read_by_args,
    "return": lambda branch: _carried_read_by(branch.condition),
}


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

class Step:
    """One event executed by the threads in `mask` (per-thread values in `env`)."""
    __slots__ = ("event", "env", "mask", "unknown", "loops", "loop_partial")

    def __init__(self, event: Event, env: dict, mask: np.ndarray, unknown: tuple, loops: tuple, loop_partial: bool):
        self.event = event
        self.env = env
        self.mask = mask
        self.unknown = unknown          # conditions that could not be evaluated
        self.loops = loops              # symbolic reasons from loops with unknown, thread-dependent trip counts
        self.loop_partial = loop_partial    # some live thread skipped this iteration of an enclosing loop


class Memo:
    """Values already computed in one analysis, for the executor to look up instead of evaluating
    again: an expression's value depends only on the environment entries it reads (its symbols, for
    an expression that loads nothing: atomics' results are loads), so a loop body's expressions that
    do not read the loop's variable are evaluated once, not once per iteration, and a second block
    reuses what does not read blockIdx.

    Within one block only the `varying` names (loop counters and what loops carry) ever change
    value, so only they are looked up: by the identity of their values (arrays are never changed in
    place, a loop's counter values are the same objects each time its iterations are looked up
    again, and the entry keeps them alive so that no other object can take their identity; an equal
    value in another object only misses); blockIdx, the one thing that differs between blocks,
    enters the key of what reads it."""

    LIMIT = 4096         # entries kept (the oldest go first): per-thread arrays of a block each

    def __init__(self, varying: frozenset):
        self.varying = varying
        self.entries: dict = {}
        self.names: dict = {}        # id(what) -> (what, varying names read or None, as many _ABSENTs,
                                     #              whether it reads blockIdx)
        # what `BlockRun.evaluate` found can never be evaluated while this analysis' blocks run
        # (they have the same names bound: blockIdx differs in value only): id(expression) -> it
        self.hopeless: dict = {}
        # what `BlockRun.screens_for` found, for a later block whose batch has the same rows
        self.screens = ScreensSeen()
        # id(loop node) -> (node, `_idle_plan` of it): see `BlockRun.idle_from_here`
        self.idle_candidates: dict = {}
        # id(loop node) -> (node, `_repeat_plan` of it): see `BlockRun.repeats_from_here`
        self.repeat_plans: dict = {}

    def recall(self, what, env: dict, block, compute, *args, also=None):
        """`compute(*args)`, the value of `what` (an expression, a loop or a tuple of conditions:
        kinds that never share an identity) in `env` of `block`, from the memo when it was computed
        before with the same values of what it reads; `also`, when given, is one more object the
        value depends on by identity. Computed every time when `what` may read more than its
        symbols."""
        ident = id(what)
        known = self.names.get(ident)
        if known is None or known[0] is not what:
            known = self.names[ident] = self.reading(what)
        changing = known[1]
        if changing is None:
            return compute(*args)
        if changing:
            values = tuple(map(env.get, changing, known[2]))
            key = (ident, block if known[3] else None, tuple(map(id, values)), id(also))
        else:
            values = ()
            key = (ident, block if known[3] else None, (), id(also))
        entry = self.entries.get(key)
        if entry is not None:
            return entry[1]
        result = compute(*args)
        if len(self.entries) >= self.LIMIT:
            del self.entries[next(iter(self.entries))]
        # the entry keeps what the key names by identity alive
        self.entries[key] = ((values, also), result)
        return result

    def known(self, what, env: dict, block, also=None):
        """What `recall` would find for `what` in `env` without computing it, or None when it was
        not computed (the key is `recall`'s: a key built differently would only miss)."""
        known = self.names.get(id(what))
        if known is None or known[0] is not what or known[1] is None:
            return None
        values = tuple(map(env.get, known[1], known[2]))
        entry = self.entries.get((id(what), block if known[3] else None, tuple(map(id, values)), id(also)))
        return None if entry is None else entry[1]

    def reading(self, what) -> tuple:
        """(what, the varying names it reads or None when it may read more than its symbols, as many
        _ABSENTs, whether it reads blockIdx). The varying names are in any order: it is the same for
        every look-up of `what`, the only thing the key needs."""
        if isinstance(what, sx.Expr):       # (most: an address, a condition or a lane mask)
            # (the node's slots, read without the method calls: every node has them)
            names = None if what._has_load else what._symbols
        elif type(what) is tuple:           # conditions: `_names_read` of their expressions, inline
            names = _conditions_read(what)
        else:
            names = _names_read(_expressions_of(what))
        if names is None:
            return what, None, None, False
        changing = tuple(self.varying.intersection(names))
        absent = _ABSENTS[len(changing)] if len(changing) < len(_ABSENTS) else (_ABSENT,) * len(changing)
        return what, changing, absent, not _BLOCK_INDEX.isdisjoint(names)


def _conditions_read(conditions: tuple):
    """`_names_read(_expressions_of(conditions))` for a tuple of conditions, without the tuple of
    their expressions and the calls: `Memo.reading` asks it of every tuple a block meets."""
    names: set = set()
    for condition in conditions:
        expr = condition.expr
        if expr is None:
            continue
        if not isinstance(expr, sx.Expr) or expr._has_load:
            return None
        names |= expr._symbols
    return names


def _expressions_of(what) -> tuple:
    """The expressions a memo entry's value is computed from: a loop's bounds, a tuple of
    conditions' expressions, or the expression itself."""
    if isinstance(what, tuple):
        return tuple(condition.expr for condition in what)
    if isinstance(what, Loop):
        return what.start, what.step, what.bound
    if isinstance(what, LoopNode):
        return tuple(expr for loop in _loops_under(what) for expr in (loop.start, loop.step, loop.bound))
    return (what,)


_BLOCK_INDEX = frozenset({"blockIdx.x", "blockIdx.y", "blockIdx.z"})   # what differs between block runs


class ScreensSeen(dict):
    """Interval screens of batches already screened: (the batch's events by identity, intervals
    closed, whether the block did something before it) -> ([(addresses, threads reaching, interval
    per row)] of its entries, the screens).
    The screens are a function of those arrays' contents (and the events' arrays and element
    sizes), so a batch whose arrays are equal, typically the same loop in a later block when its
    addresses do not read blockIdx, takes them instead of screening again. Arrays are compared by
    content, not identity: a later block computes its own, equal, arrays (its look-ahead memo is
    its own, and masks are ANDed anew)."""

    LIMIT = 32          # batches kept (the oldest go first): few loops are batched per kernel

    def find(self, key: tuple, rows: list):
        """The screens remembered under `key` for equal `rows`, or None."""
        known = self.get(key)
        if known is None or not all(map(_same_screen_rows, known[0], rows)):
            return None
        return known[1]

    def keep(self, key: tuple, rows: list, screens: list) -> None:
        if len(self) >= self.LIMIT and key not in self:
            del self[next(iter(self))]
        self[key] = (rows, screens)


def _same_screen_rows(kept: tuple, rows: tuple) -> bool:
    """Whether two (addresses, threads reaching, interval per row) of a screened entry are equal."""
    return all(a is b or type(a) is np.ndarray and type(b) is np.ndarray and _equal(a, b)
               for a, b in zip(kept, rows))


def _loops_under(node: LoopNode) -> list:
    """The loops of `node` and of the loops in it."""
    loops = [node.loop]
    for child in node.children:
        if type(child) is LoopNode:
            loops += _loops_under(child)
    return loops


class UnboundFailures(dict):
    """Expressions that failed to evaluate for want of names, by structure: structure key -> {the
    names missing when it failed}. Which nodes an evaluation reaches depends only on which names are
    bound (a name's default is evaluated when it has no value), so an expression built alike fails
    again whenever the same of its names are missing, and raising `Unbound` up its evaluation
    costs several times as much as asking. (An evaluation that first met a value it cannot use,
    not a missing name, raises something else and is not recorded; the expression has no value
    either way.) Shared by every analysis: kernels build the same conditions and addresses on the
    same unbound sizes (`i < n`); the oldest keys go first."""

    LIMIT = 4096

    def add(self, key: int, missing: frozenset) -> None:
        failed = self.get(key)
        if failed is None:
            if len(self) >= self.LIMIT:
                del self[next(iter(self))]
            failed = self[key] = set()
        failed.add(missing)


UNBOUND_FAILURES = UnboundFailures()


class _Writes(dict):
    """A copy of an environment that remembers which names were written into it (a skim forgets
    the values its loops carry out)."""

    def __init__(self, env: dict):
        super().__init__(env)
        self.written: dict = {}

    def __setitem__(self, name, value):
        super().__setitem__(name, value)
        self.written[name] = True

    def update(self, other=(), **more):
        for name, value in dict(other, **more).items():
            self[name] = value


def varying_names(tree) -> frozenset:
    """The environment entries the executor changes within a block: loop counters and the
    variables loops carry (forgotten after their first iteration)."""
    names: set = set()
    for node in tree:
        if isinstance(node, LoopNode):
            if node.loop.var is not None:
                names.add(node.loop.var)
            names |= node.carried
            names |= varying_names(node.children)
    return frozenset(names)


_ABSENT = object()
_ABSENTS = [(_ABSENT,) * n for n in range(16)]     # (_ABSENT,) * n, made once (see `Memo.reading`)


def _repeat_plan(node: LoopNode) -> tuple | None:
    """For a loop whose every trip records the same instances and closes its intervals alike, so that
    trips after the first need not be walked (`BlockRun.repeats_from_here`): the accesses whose
    address or conditions read its counter or what it carries, each as (its event, whether it is in
    the loop's own body (not in a loop in it), None for a read-only access or for an access of a
    written array its `_unknown_writes` segment); None for any other loop. Such a loop's body is plain
    loads and stores, block barriers (one of them under no condition, so that every trip closes an
    interval where anyone is alive) and loops of those; and no barrier's conditions and no inner
    loop's bounds read the counter or what the loop carries (an inner loop's own counter excepted
    within it), nor does a written array's address or conditions but as `_unknown_writes` allows.
    Its trips then differ only in the read-only accesses, which record nothing but the note of an
    unknown address (see `mark_read_only`), and in those watched accesses of written arrays, which
    `BlockRun.trips_alike` compares trip by trip."""
    var = node.loop.var
    if var is None:
        return None
    if not any(type(child) is not LoopNode and child.block_barrier and not child.conditions
               for child in node.children):
        return None
    watched: list = []
    if not _repeats_alike(node.children, frozenset(node.carried | {var}), watched, node.children):
        return None
    if any(segment is not None for _, _, segment in watched):
        return _unknown_writes(node, watched)
    return tuple(watched)


_WRITTEN = -1   # (`_repeats_alike`'s segment of an access to a written array, until `_unknown_writes` finds it)


def _unknown_writes(node: LoopNode, watched: list) -> tuple | None:
    """`watched` (of a `_repeat_plan`) with the segment of each access to a written array whose
    address or conditions read what the loop changes (REPEAT_UNKNOWN_WRITES): how many barriers come
    before it in the body. Such an access is repeated only where, in every trip replayed, it records
    the same instance (addresses, threads, certainty), none, or one at an unknown address (checked by
    `BlockRun.trips_alike`). The race checks leave those at unknown addresses out, and the hazard
    check asks only whether an interval holds an access of an array at an unknown address, and
    whether one of its accesses writes; so which of them records may change from trip to trip
    (stencil_3d's z_march: `out[c]` stored in one branch or the other) as long as each segment's
    (array, operation) of them stays the same. The body must then be events only (no loop, whose
    values carried out would change what the events after it read) with every barrier under no
    condition, so that the segments are its intervals; None for any other loop."""
    segments, segment = {}, 0
    for child in node.children:
        if type(child) is LoopNode or child.block_barrier and child.conditions:
            return None
        if child.block_barrier:
            segment += 1
        segments[id(child)] = segment
    return tuple((event, direct, segments[id(event)] if segment is not None else None)
                 for event, direct, segment in watched)


_AT_UNKNOWN, _AT_KNOWN = "unknown", "known"     # what `BlockRun.recorded_write` finds an access records


def _recorded_alike(recorded: list, other: list) -> bool:
    """Whether two trips' `BlockRun.recorded_write` records (per access: None, (_AT_UNKNOWN, segment,
    memory, array, operation) or (_AT_KNOWN, addresses, threads, certain)) are alike: each access
    records the same known instance in both or none in either, and the (segment, memory, array,
    operation) of those at unknown addresses are the same."""
    unknown_here, unknown_there = set(), set()
    for here, there in zip(recorded, other):
        if here is not None and here[0] is _AT_UNKNOWN:
            unknown_here.add(here[1:])
        if there is not None and there[0] is _AT_UNKNOWN:
            unknown_there.add(there[1:])
        known_here = here is not None and here[0] is _AT_KNOWN
        if known_here != (there is not None and there[0] is _AT_KNOWN):
            return False
        if known_here and not (here[3] == there[3] and _equal_arrays(here[1], there[1]) and
                               _equal_arrays(here[2], there[2])):
            return False
    return unknown_here == unknown_there


def _equal_arrays(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays have the same shape and values."""
    return a is b or (a.shape == b.shape and bool(np.array_equal(a, b)))


def _repeats_alike(children, changed: frozenset, watched: list, own_body) -> bool:
    """Whether `children` (of a loop with a `_repeat_plan`, or of a loop in it) record the same
    instances whatever the names in `changed` hold; the read-only accesses that read one of them are
    added to `watched` as (event, whether it is in `own_body`, None), and so are the accesses of written
    arrays in `own_body` that read one (with _WRITTEN for `_unknown_writes`), when REPEAT_UNKNOWN_WRITES.
    (A module-level function, not a closure that calls itself: such a closure is a reference cycle,
    which would keep the loop's nodes alive until a full collection; tests/test_gc_tuning.py.)"""
    for child in children:
        if type(child) is LoopNode:
            inner = changed - {loop.var for loop in _loops_under(child)} if child.quiet else \
                changed - {child.loop.var}
            read = _names_read(_expressions_of(child if child.quiet else child.loop))
            if read is None or not inner.isdisjoint(read):
                return False
            if not child.quiet and not _repeats_alike(child.children, inner, watched, own_body):
                return False
            continue
        if child.inert:
            continue
        if child.kind == "access" and child.plain_access:
            read = _names_read(_expressions_of(child.conditions))
            address = child.record.address
            if isinstance(address, sx.Expr):
                read = None if read is None or address._has_load else read | address._symbols
            if child.read_only:
                if read is None or not changed.isdisjoint(read):
                    watched.append((child, children is own_body, None))
            elif read is None or not changed.isdisjoint(read):
                if not (REPEAT_UNKNOWN_WRITES and children is own_body):
                    return False
                watched.append((child, True, _WRITTEN))
            continue
        if child.kind == "barrier" and child.block_barrier:
            read = _names_read(_expressions_of(child.conditions))
            if read is None or not changed.isdisjoint(read):
                return False
            continue
        return False
    return True


def _idle_candidates(node: LoopNode) -> tuple | None:
    """For a loop whose body is only events that are inert or plain loads and stores: per access,
    (its event, whether its address surely fails to evaluate once the loop has forgotten what it
    carries: `_fails_where_unknown`); None for any other loop, which is never idle."""
    candidates = []
    for child in node.children:
        if type(child) is LoopNode:
            return None
        if child.inert:
            continue
        if child.warp_call and IDLE_WARP_CALLS and _mask_fixed(child, node.carried | {node.loop.var}):
            candidates.append((child, False))
            continue
        if not child.plain_access:
            return None
        candidates.append((child, _fails_where_unknown(child.record.address, node.carried)))
    return tuple(candidates)


def _mask_fixed(event: Event, changed: frozenset) -> bool:
    """Whether a warp intrinsic's lane mask and conditions read only symbols, none of them in
    `changed` (a loop's counter and what it carries): in every trip of that loop in which the same
    threads iterate, its mask check is then asked the same question (the masks, the threads
    reaching it and the conditions not evaluated), and answers as in the first trip, whose mismatch,
    if any, is recorded already (`BlockRun.idle_from_here`). The warp reductions' shuffle loops."""
    read = _names_read((event.record.args[0], *(condition.expr for condition in event.conditions)))
    return read is not None and changed.isdisjoint(read)


def _idle_nest(node: LoopNode) -> tuple | None:
    """`_idle_candidates` for a loop with loops in it: for a body of inert events, plain loads and
    stores and innermost loops of such events whose bounds read nothing this loop changes (its
    counter or what it carries, so that they run as many trips, with the same notes, in each of its
    iterations as in its first): (per access, in the loop or in one of its loops, its event and
    whether its address surely fails to evaluate once this loop has forgotten what it carries, the
    inner loop's counter being bound; the inner loops); None for any other loop."""
    changed = node.carried | {node.loop.var}
    candidates, inner = [], []
    for child in node.children:
        if type(child) is not LoopNode:
            if child.inert:
                continue
            if not child.plain_access:
                return None
            candidates.append((child, _fails_where_unknown(child.record.address, node.carried)))
            continue
        if child.quiet or not _bounds_read_none_of(child.loop, changed):
            return None
        forgotten = node.carried - {child.loop.var}
        for event in child.children:
            if type(event) is LoopNode or not (event.inert or event.plain_access):
                return None
            if not event.inert:
                candidates.append((event, _fails_where_unknown(event.record.address, forgotten)))
        inner.append(child)
    return tuple(candidates), tuple(inner)


def _bounds_read_none_of(loop, names: set) -> bool:
    """Whether `loop`'s bounds read only symbols, none of them in `names`."""
    read = _names_read(_expressions_of(loop))
    return read is not None and names.isdisjoint(read)


def _same_every_trip(child: LoopNode, outer_var: str) -> bool:
    """Whether what `BlockRun.prepare_nest` finds ahead for the loop `child` (its iterations, or
    what skimming it leaves behind: steps, notes, trip counts, values it forgets) is the same in
    every trip of the outer loop counting `outer_var`: the trips' environments differ in that
    counter only, and the bounds of `child` (and, for a quiet one, of every loop in it) read
    only symbols, none of them the counter. (The threads alive and the block, the rest of what
    the answers depend on, are the same in every trip. Whether `child` carries the counter
    does not matter: what it forgets, `prepare_nest`'s `changed`, is then the counter in every
    trip or in none.)"""
    read = _names_read(_expressions_of(child if child.quiet else child.loop))
    return read is not None and outer_var not in read


def _idle_plan(node: LoopNode) -> tuple | None:
    """(`_idle_candidates` or `_idle_nest`'s candidates, the loops in `node`, whether a warp intrinsic
    is among the candidates), or None when no iteration of `node` is ever found idle (see
    `BlockRun.idle_from_here`)."""
    if any(type(child) is LoopNode for child in node.children):
        nest = _idle_nest(node)
        return None if nest is None else (*nest, False)
    candidates = _idle_candidates(node)
    return None if candidates is None else (candidates, (), any(event.warp_call for event, _ in candidates))


# The binary operators that use both operand values whatever they are (`&&` and `||` may not look
# at their right one), so that an operand equal to loops.UNKNOWN makes them raise an error that
# `BlockRun.evaluate` turns into no value (tests/test_syncfast14_idle_trips.py tries each on ints,
# floats and arrays)
_STRICT_OPERATORS = frozenset(("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!="))
_RAISES, _IS_UNKNOWN = "raises", "unknown"     # what `_unknown_effect` knows of a node
_EAGER_NODES = (sx.Binary, sx.Unary, sx.Select, sx.Call)     # evaluate all their operands first
_DEEPEST_JUDGED = 40


def _fails_where_unknown(expr, names: frozenset) -> bool:
    """Whether evaluating `expr` (through `BlockRun.evaluate`) surely fails in any environment that
    binds each of `names` to loops.UNKNOWN, whatever the other names hold: a node that uses an
    operand's value in arithmetic raises, and so does every node that evaluates it. False when
    that cannot be told from its structure (a `?:` or a function of an unknown value, loads)."""
    if not isinstance(expr, sx.Expr) or expr.has_load() or expr._depth > _DEEPEST_JUDGED or \
            names.isdisjoint(expr.symbols()):
        return False
    # (the answer depends on the structure alone: every copy of a kernel, and every analysis of a
    # file parsed again, asks it of equal trees)
    key = (expr._key, names)
    fails = _FAILING_STRUCTURES.get(key)
    if fails is None:
        if len(_FAILING_STRUCTURES) >= _FAILING_STRUCTURES_LIMIT:
            del _FAILING_STRUCTURES[next(iter(_FAILING_STRUCTURES))]
        fails = _FAILING_STRUCTURES[key] = _unknown_effect(expr, names, {}) is _RAISES
    return fails


_FAILING_STRUCTURES: dict = {}      # (structure key, names) -> `_fails_where_unknown`'s answer
_FAILING_STRUCTURES_LIMIT = 4096    # (the oldest go first)


def _unknown_effect(node, names: frozenset, seen: dict):
    """_RAISES when evaluating `node` surely raises with `names` bound to UNKNOWN, _IS_UNKNOWN
    when its value is surely UNKNOWN itself, None when it may be anything."""
    known = seen.get(id(node), _ABSENT)
    if known is not _ABSENT:
        return known
    kind = type(node)
    effect = None
    if kind is sx.Sym:
        # (bound, so its default is not evaluated)
        effect = _IS_UNKNOWN if node.name in names else None
    elif kind in _EAGER_NODES:
        effects = [_unknown_effect(child, names, seen) for child in node.children()]
        if _RAISES in effects:
            effect = _RAISES
        elif _IS_UNKNOWN in effects:
            if kind is sx.Binary:
                effect = _RAISES if node.op in _STRICT_OPERATORS else None
            elif kind is sx.Unary:
                # -, ~ and ! raise on UNKNOWN; any other unary operator passes its value on
                effect = _RAISES if node.op in ("-", "~", "!") else _IS_UNKNOWN
    seen[id(node)] = effect
    return effect


def _inner_trips_fixed(node: LoopNode) -> bool:
    """Whether the bounds of the batchable loops in `node` do not read its counter (each iteration
    of it then runs them as many times, for the same threads)."""
    for child in node.children:
        if type(child) is LoopNode and not child.quiet:
            for expr in (child.loop.start, child.loop.step, child.loop.bound):
                if isinstance(expr, sx.Expr) and node.loop.var in expr.symbols():
                    return False
    return True


def _surely_too_few_rows(node: LoopNode, count: int) -> bool:
    """Whether `prepare_nest` would find a batch of `count` trips of this nest too small to pay
    whatever its inner loops' trip counts, told before it evaluates any (EARLY_TOO_FEW). In a nest
    with no barrier, an inner loop of MIN_BATCH trips or more is left to `run_batched`, so each
    inner loop adds MIN_BATCH - 1 rows per trip at most; an outer loop of two or three trips
    around one or two short loops (a real program's unrolled pairs) cannot reach MIN_NEST_ROWS."""
    if not EARLY_TOO_FEW:
        return False
    inner = sum(1 for child in node.children if type(child) is LoopNode and not child.quiet)
    return count * (1 + (MIN_BATCH - 1) * inner) < MIN_NEST_ROWS and not _holds_a_barrier(node.children)


def _read_after(node: LoopNode, index: int) -> frozenset:
    """What the children of `node` after the `index`th may read (`_names_read_by`), kept on it."""
    if node.read_after is None:
        reads = [frozenset()]
        for child in reversed(node.children[1:]):
            reads.append(reads[-1] | _names_read_by(child))
        node.read_after = reads[::-1]
    return node.read_after[index]


def _names_read_by(node) -> frozenset:
    """Every name executing `node` in a nest's batch may read: a plain access's address and
    conditions, a barrier's conditions, the bounds of a loop and, unless it is quiet (skimmed: only
    its loops' bounds are evaluated), what its events read."""
    if type(node) is LoopNode:
        names: set = set()
        for expr in (node.loop.start, node.loop.step, node.loop.bound):
            if isinstance(expr, sx.Expr):
                names |= expr.symbols()
        for child in node.children:
            if type(child) is LoopNode or not node.quiet:
                names |= _names_read_by(child)
        return frozenset(names)
    if node.inert:
        return frozenset()
    names = set()
    for condition in node.conditions:
        names |= condition.expr.symbols()
    if node.plain_access and isinstance(node.record.address, sx.Expr):
        names |= node.record.address.symbols()
    return frozenset(names)


def _certain(unknown: tuple) -> bool:
    """Whether an access under these conditions not evaluated is certain to execute: none of them
    reads memory (a flag or a ticket may decide it). (A loop, not any() over a generator: a
    generator left unfinished is closed by raising GeneratorExit in it, which costs more than the
    rest of the question.)"""
    for condition in unknown:
        if condition.expr.has_load():
            return False
    return True


def _any_writes(instances) -> bool:
    """Whether one of the instances writes (a loop for the reason `_certain` gives)."""
    for instance in instances:
        if instance.writes:
            return True
    return False


def _walk_key(event: Event) -> tuple:
    """What `walk` shares the threads reaching a statement under: its conditions' identities."""
    return event.condition_key


def _fresh(entry: tuple, alive: np.ndarray) -> bool:
    """Whether a `walk` masks entry was found for the threads alive now (a return since changes who
    reaches a statement, not whether its conditions hold). The statements after a return carry
    its negated condition, so they do not share an entry with those before it; this keeps a
    return that does not change their conditions right all the same."""
    return entry[2] is alive


def _both(a: np.ndarray, b: np.ndarray, everyone: np.ndarray) -> np.ndarray:
    """a & b, or the other one itself when one of them is the all-true mask `everyone` (threads
    masks are never changed in place, so sharing one is safe, and an unchanged mask keeps its
    identity for the tables that look it up by it)."""
    if a is everyone:
        return b
    if b is everyone:
        return a
    return a & b


def _reaches_all(reached: np.ndarray, live: np.ndarray, everyone: np.ndarray) -> bool:
    """Whether every live thread is among those `reached` (np.array_equal(reached & live, live)).
    Until a thread returns the live threads are the all-true mask `everyone`, and the question is
    whether every thread is reached: one count instead of an and, a comparison and a reduction,
    asked at every barrier executed."""
    if reached is live:
        return True
    if live is everyone:
        return _count_nonzero(reached) == reached.size
    return not _count_nonzero(live & ~reached)


def _address_key(event: Event) -> int:
    """What a batch plan shares an access's addresses under: its address expression."""
    return id(event.record.address)


def _same_rows(entry: tuple, other: tuple) -> bool:
    """Whether two (addresses, threads reaching, intervals, words per element) of a batch screen's
    entries give the same (interval, word, thread) rows: the same address array, equal threads and
    intervals. (The threads are compared by content: the load and the store of `v[i] = ...` under
    a condition that reads memory, which narrows nothing, have equal masks found apart.)"""
    return entry[0] is other[0] and entry[3] == other[3] and \
        (entry[1] is other[1] or _equal(entry[1], other[1])) and _equal(entry[2], other[2])


def _touched_cells(reached: np.ndarray, number: np.ndarray) -> tuple:
    """(flat indices, trips, threads) of the cells of a batch entry's (trip, thread) table that a
    thread reaches in a trip inside some interval (`number` >= 0), in row-major order (see
    `BlockRun.screens_for`)."""
    if number.size and not _count_nonzero(number < 0):
        touch = reached.ravel().nonzero()[0]    # (every trip is in an interval: no mask to apply)
    else:
        touch = (reached & (number >= 0)[:, None]).ravel().nonzero()[0]
    size = reached.shape[1]
    if size > 0 and size & (size - 1) == 0:
        # a block of 2**k threads (the usual): a shift and a mask instead of a division
        shift = size.bit_length() - 1
        return touch, touch >> shift, touch & (size - 1)
    trip = touch // size
    return touch, trip, touch - trip * size    # (a product costs less than a remainder)


def _cells_of(addresses, touch: np.ndarray, thread: np.ndarray) -> np.ndarray:
    """The int64 addresses of a batch entry's (trip, thread) table at the flat indices `touch`
    (whose threads are `thread`). Addresses that are the same in every trip (a stride-0 view
    the batch made, `s[tid]` in a reduction) are gathered from their one row, without the copy that
    flattening the view makes; others from the flat table (a gather by (trip, thread) pairs costs
    more)."""
    addresses = np.asarray(addresses, dtype=np.int64)
    if addresses.ndim == 2 and addresses.strides[0] == 0:
        return addresses[0][thread]
    return addresses.ravel()[touch]


def _floor_divided(values: np.ndarray, divisor: int) -> np.ndarray:
    """values // divisor for int64 values and a positive int divisor; a power of two by an
    arithmetic shift, which floors as // does (negative values included) at a fraction of its cost."""
    if divisor > 0 and divisor & (divisor - 1) == 0:
        return values >> (divisor.bit_length() - 1)
    return values // divisor


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    """np.array_equal of two arrays, without its asarray calls and Python wrapper (and without
    `.all()`'s: no element differs, counted by the C function)."""
    return a.shape == b.shape and not _count_nonzero(a != b)


def _screenable(entry) -> bool:
    """Whether a batch plan's entry is an access the race checks compare: its address known and, in
    global memory, not under a condition that reads memory."""
    event, addresses, _, unknown, _ = entry
    return event.plain_access and addresses is not None and (event.record.space == "shared" or _certain(unknown))
_NOTHING = frozenset()
_INT64 = np.dtype(np.int64)
# reductions called as the ufuncs' own methods: ndarray.min/max/any/all go through a Python wrapper
# (numpy/_core/_methods.py) first, most of the cost of reducing a block's few hundred elements
_MINIMUM, _MAXIMUM = np.minimum.reduce, np.maximum.reduce
_ANY, _ALL = np.logical_or.reduce, np.logical_and.reduce


def _names_read(expressions):
    """Every environment entry the expressions read, or None when one of them loads (its value may
    then depend on an atomic's result, which is not a symbol)."""
    names: set = set()
    for expr in expressions:
        if expr is None:
            continue
        if not isinstance(expr, sx.Expr) or expr._has_load:    # (the slots: see `Memo.reading`)
            return None
        names |= expr._symbols
    return names


class _MixedValues(Exception):
    """A value of a batch of iterations may differ in kind between them (see `run_batched`)."""


class Instance:
    """One dynamic execution of an access."""
    __slots__ = ("access", "addresses", "mask", "epochs", "certain", "tile_epochs", "tile_width", "writes",
                 "_footprints", "shared")

    def __init__(self, access, addresses, mask, epochs, certain: bool = True, tile_epochs=None, tile_width=None,
                 shared: Footprints | None = None):
        self.access = access
        self.addresses = addresses      # per thread (all threads of the block); None when unknown
        self.mask = mask
        self.epochs = epochs            # __syncwarp count of each thread when it made the access
        self.certain = certain          # not under a condition that reads memory
        self.tile_epochs = tile_epochs  # count of narrower-than-warp tile syncs, and each thread's
        self.tile_width = tile_width    # tile width then: they order lanes of one tile only
        self.writes = access.op in ("store", "atomic")
        self._footprints = None         # granule -> _Footprint
        self.shared = shared            # the analysis' footprints, shared between instances (or None)

    def footprint(self, granule: int):
        """(words, threads): every `granule`-byte word each active thread touches; computed once per
        granule, since the race and redundant-barrier checks ask for it again and again."""
        return self.entry(granule).pair

    def entry(self, granule: int) -> _Footprint:
        """The `_Footprint` behind `footprint(granule)`."""
        cache = self._footprints
        if cache is None:
            cache = self._footprints = {}
        entry = cache.get(granule)
        if entry is None:
            full = _count_nonzero(self.mask) == self.mask.size
            pieces = _pieces(self.access, granule)
            if self.shared is not None:
                entry = self.shared.find(self.addresses, self.mask, full, granule, pieces)
            if entry is None:
                entry = _Footprint(self.addresses, self.mask, _footprint(self.addresses, self.mask, full, granule,
                                                                           pieces), pieces)
                if self.shared is not None:
                    self.shared.keep(entry, full, granule)
            cache[granule] = entry
        return entry


def _footprint(addresses, mask, full: bool, granule: int, pieces: int) -> tuple:
    """(words, threads) of addresses reached by the threads in `mask` (every thread when `full`)."""
    if full:
        threads, base = _every_thread(mask.size), addresses     # the usual case
    else:
        threads = mask.nonzero()[0]
        base = addresses[threads]
    if pieces == 1:
        return base // granule, threads
    words = (base[:, None] + granule * np.arange(pieces)[None, :]) // granule
    return words.reshape(-1), np.repeat(threads, pieces)


class _Footprint:
    """The footprint of one address array reached by one set of threads, in one word size, with what
    the checks derive from it once: the rows `_touching` keeps, whether two different threads share a
    word among them (`alone`) and the distinct words (`_distinct`). Instances with the same
    addresses and threads (a load and a store of `t[i] += ...`, or the same access in the next block
    when its address does not read blockIdx) share one."""
    __slots__ = ("addresses", "mask", "pair", "pieces", "touch", "alone", "distinct")

    def __init__(self, addresses, mask, pair: tuple, pieces: int):
        self.addresses = addresses      # (kept alive: the shared table knows them by identity)
        self.mask = mask
        self.pair = pair                # (words, threads)
        self.pieces = pieces
        self.touch = None               # see `touching`
        self.alone = None               # whether two different threads touch one of its words
        self.distinct = None            # its words, each once

    def touching(self) -> tuple:
        """`pair` without the rows that only repeat that several threads touch a word (see `_touching`)."""
        touch = self.touch
        if touch is None:
            words, threads = self.pair
            pieces = self.pieces
            if self.addresses.strides == (0,) and words.size > 2 * pieces:
                touch = (np.concatenate([words[:pieces], words[-pieces:]]),
                         np.concatenate([threads[:pieces], threads[-pieces:]]))
            else:
                touch = self.pair
            self.touch = touch
        return touch


class Footprints:
    """The footprints of one analysis, by the identity of the address array and of the threads
    reaching it (none for every thread), the word size and the words per element: instances that
    share them compute them once. The entry keeps the arrays alive, so no other array can take
    their identity; the oldest go first."""

    LIMIT = 1024

    def __init__(self):
        self.entries: dict = {}
        self.alone: dict = {}       # id((words, threads)) -> (it, whether two threads share a word of it)
        self.spans = IdentityCache(self.LIMIT)      # (words, threads) -> whether its words rise strictly

    def rising(self, pair: tuple) -> bool:
        """`_rising` of the footprint's words, asked once per footprint."""
        return self.spans.get(pair, _rising_words)

    def remember_alone(self, pair: tuple, answer: bool) -> None:
        if len(self.alone) >= self.LIMIT:
            del self.alone[next(iter(self.alone))]
        self.alone[id(pair)] = (pair, answer)

    def find(self, addresses, mask, full: bool, granule: int, pieces: int):
        return self.entries.get((id(addresses), None if full else id(mask), granule, pieces))

    def keep(self, entry: _Footprint, full: bool, granule: int) -> None:
        if len(self.entries) >= self.LIMIT:
            del self.entries[next(iter(self.entries))]
        self.entries[(id(entry.addresses), None if full else id(entry.mask), granule, entry.pieces)] = entry


def _footprints(instances: list, granule: int) -> list:
    """[i.footprint(granule) for i in instances], computing those not yet known for all of them
    at once when every thread of the block makes them (most accesses): one division of their
    stacked addresses instead of one per access."""
    return [entry.pair for entry in _entries(instances, granule)]


def _entries(instances: list, granule: int) -> list:
    """[i.entry(granule) for i in instances], those not yet known that every thread of the block
    makes computed at once (see `_footprints`). One pass reads the known ones off the instances'
    caches: a batched loop's interval holds one instance per trip, and a method call apiece was
    most of the cost of asking again."""
    entries = []
    missing = []    # positions of the instances without an entry in this word size
    for instance in instances:
        cache = instance._footprints
        entry = cache.get(granule) if cache is not None else None
        if entry is None:
            missing.append(len(entries))
        entries.append(entry)
    if not missing:
        return entries
    if len(missing) > 1:
        _stack_footprints([instances[k] for k in missing], granule)
    for k in missing:
        # (the entry the stacking gave it, read off its cache; `entry` finds any other)
        instance = instances[k]
        cache = instance._footprints
        entry = cache.get(granule) if cache is not None else None
        entries[k] = entry if entry is not None else instance.entry(granule)
    return entries


def _stack_footprints(missing: list, granule: int) -> None:
    """Gives the instances that every thread of the block makes and that have no entry in this word
    size one, their addresses divided all at once (instances with the same address array share
    one): the stacked path of `_entries`. The others are left to `Instance.entry`."""
    by_pieces: dict = {}    # pieces -> {id(addresses): [instances]}
    pieces_of: dict = {}    # id(access) -> its pieces (the instances of a loop's trips share one access)
    for instance in missing:
        if _count_nonzero(instance.mask) != instance.mask.size:
            continue
        access = instance.access
        pieces = pieces_of.get(id(access))
        if pieces is None:
            pieces = pieces_of[id(access)] = _pieces(access, granule)
        if instance.shared is not None:
            entry = instance.shared.find(instance.addresses, instance.mask, True, granule, pieces)
            if entry is not None:
                _remember_entry(instance, granule, entry)
                continue
        # (setdefault would build a dict and a list for every instance to throw most away)
        by_addresses = by_pieces.get(pieces)
        if by_addresses is None:
            by_addresses = by_pieces[pieces] = {}
        same = by_addresses.get(id(instance.addresses))
        if same is None:
            by_addresses[id(instance.addresses)] = [instance]
        else:
            same.append(instance)
    for pieces, by_addresses in by_pieces.items():
        if len(by_addresses) < 2:
            continue    # one division either way
        groups = list(by_addresses.values())
        threads = _every_thread(groups[0][0].mask.size)
        words = _stacked([same[0].addresses for same in groups]) // granule
        if pieces > 1:
            # (a + granule * k) // granule is a // granule + k
            words = (words[:, :, None] + np.arange(pieces)).reshape(len(groups), -1)
            threads = np.repeat(threads, pieces)
        for same, row in zip(groups, words):
            first = same[0]
            entry = _Footprint(first.addresses, first.mask, (row, threads), pieces)
            if first.shared is not None:
                first.shared.keep(entry, True, granule)
            for instance in same:
                _remember_entry(instance, granule, entry)


def _remember_entry(instance, granule: int, entry: _Footprint) -> None:
    if instance._footprints is None:
        instance._footprints = {}
    instance._footprints[granule] = entry


def _pieces(access, granule: int) -> int:
    """The `granule`-byte words one element of the access covers."""
    return max(1, (access.elem_bytes or granule) // granule)


def _touching(instances: list, granule: int) -> list:
    """For each instance, (words, threads) of its footprint without the rows that only repeat that
    several threads touch a word: an access whose active threads all use one address (a broadcast
    read of a shared tile) keeps the rows of its first and its last thread. Whether two different
    threads touch a word, within these instances or with others (`_two_threads_on_a_word`,
    `_meeting`), stays the same: a word two threads touch still has two, and every word is kept.
    Instances that share a footprint get the same (words, threads) object."""
    # (the kept rows read off each entry, the method called only where they are not known yet)
    return [entry.touch or entry.touching() for entry in _entries(instances, granule)]


_EVERY_THREAD: dict = {}


def _every_thread(size: int) -> np.ndarray:
    """0 .. size - 1, shared (read only): the threads of a footprint every thread makes."""
    threads = _EVERY_THREAD.get(size)
    if threads is None:
        threads = _EVERY_THREAD[size] = np.arange(size, dtype=np.int64)
        threads.flags.writeable = False
    return threads


class _TripCapture:
    """What a loop's first trip did to the intervals, for `BlockRun.replay_trips`: the steps, the length
    of the open interval and of each list of footprints kept for comparing blocks when it started,
    and the (interval, barrier) of each interval it closed (`BlockRun.close_interval` adds them); and the
    accesses whose unknown address the later trips note first, in order (`BlockRun.trips_alike`); and
    which trip it is (0, or 1 for a loop whose later trips repeat its second)."""
    __slots__ = ("steps", "start", "kept", "closes", "first_noted", "trip")

    def __init__(self, steps: int, start: int, kept: dict, trip: int = 0):
        self.trip = trip
        self.steps = steps
        self.start = start
        self.kept = kept
        self.closes: list = []
        self.first_noted: list = []


class Findings:
    """Everything found over all executed blocks, deduplicated by source location."""

    def __init__(self):
        self.divergent: dict = {}
        self.races: dict = {}
        self.global_races: dict = {}
        self.block_footprints: list = []   # per executed block: {(grid interval, array): [(access, words)]}
        self.atomic_totals: dict = {}      # (array, address) -> sum handed out so far, over the blocks
        self.returns: dict = {}
        self.mismatches: dict = {}
        self.contention: dict = {}
        self.fences: dict = {}
        self.barrier_needed: dict = {}     # (line, column) -> bool, over all its executions
        self.loop_trips: dict = {}         # id(loop) -> most iterations executed (0: not computable)
        self.inexact: list = []
        self.unknown_addresses: set = set()   # id(access) of accesses whose unknown address was noted
        # shared between the instances of all blocks (None: each instance computes its own)
        self.footprints = Footprints() if SHARE_FOOTPRINTS else None
        self.captures: list = []           # the `_TripCapture`s of the loops in their first trip (innermost last)

    def note(self, text: str) -> None:
        if text not in self.inexact and len(self.inexact) < MAX_NOTES:
            self.inexact.append(text)


def _stacked(rows: list) -> np.ndarray:
    """np.stack of 1-d arrays of one length, without its Python work per row (a conversion and an
    expand_dims each): one concatenation, seen as rows."""
    return np.concatenate(rows).reshape(len(rows), -1)


def _every_thread_iterates(iterations: list, everyone: np.ndarray) -> bool:
    """Whether every thread runs every one of a loop's `iterations` (a uniform bound)."""
    for _, active in iterations:
        if active is not everyone:
            return False
    return True


def _iteration_env(env: dict, forgotten: dict, var, trip: int, value) -> dict:
    """The environment of a loop's iteration `trip`: after the first, what the loop carries is
    forgotten (it holds an earlier iteration's value); the counter, if any, is `value`."""
    inner = dict(env) if trip == 0 else {**env, **forgotten}
    if var is not None:
        inner[var] = value
    return inner


_STARTS: dict = {}
_FULL_MASKS: dict = {}


def _full_masks(size: int) -> np.ndarray:
    """Every lane's mask naming the whole warp (an intrinsic without one), shared, read only."""
    masks = _FULL_MASKS.get(size)
    if masks is None:
        masks = _FULL_MASKS[size] = np.full(size, FULL_MASK, dtype=np.int64)
        masks.flags.writeable = False
    return masks


def _block_start(size: int) -> tuple:
    """(all threads, no syncs per thread, warp-wide tiles per thread): what every block run starts
    from, built once per block size and read only. Sharing `all threads` between the blocks of a
    kernel also lets a loop's iterations, looked up by the identity of the threads alive, be found
    again in the next block when its bounds do not read blockIdx."""
    start = _STARTS.get(size)
    if start is None:
        start = _STARTS[size] = (np.ones(size, dtype=bool), np.zeros(size, dtype=np.int64),
                                 np.full(size, WARP_SIZE, dtype=np.int64))
        for array in start:
            array.flags.writeable = False
    return start


class BlockRun:
    """Executes the loop tree for all threads of one block.

    A run has 29 attributes; keep it at 30 at most (tests/test_syncfast8_run_attributes.py): 5 more
    cost the sync phase over the distinct kernels 164.6 -> 168.7 M instructions with the same
    calls, most likely as CPython 3.11 shares at most 30 attribute keys between instances and
    reads those of an instance with more the slow way. More state belongs in an object of its own."""

    def __init__(self, tree, space: ThreadSpace, env: dict, exit_lines: set, shapes: dict, findings: Findings,
                 atomic_calls: dict | None = None, granules: dict | None = None, memo: Memo | None = None):
        self.tree = tree
        self.atomic_calls = atomic_calls or {}
        self.granules = granules      # None: blocks are not compared, so no footprints are kept
        self.grid_interval = 0
        self.footprint: dict = {}         # (grid interval, array) -> [(access, words)] of certain global accesses
        self.shapes = shapes
        self.space = space
        self.env = env
        self.exit_lines = exit_lines
        self.found = findings
        # the all-true mask (a loop every thread iterates passes it on unchanged), the threads alive
        # until one returns, and each thread's syncs so far, shared: they are replaced, never changed
        self.everyone, no_syncs, self.tile_width = _block_start(space.size)
        self.alive = self.everyone
        self.epochs = self.tile_epochs = no_syncs
        self.exited: list = []            # (return record, how many threads left, symbolic)
        self.interval: list[Instance] = []
        self.unknown_in_interval: set = set()   # id(event) of accesses in `interval` with an unknown address
        self.previous: tuple | None = None   # (interval before the last barrier, that barrier record)
        self.steps = 0
        self.memo = memo if memo is not None else Memo(varying_names(tree))
        self.walk_memo = self.memo        # (`memo` is the look-ahead's while a nest looks ahead)
        self.block = (env.get("blockIdx.x"), env.get("blockIdx.y"), env.get("blockIdx.z"))
        self.unbound = UNBOUND_FAILURES   # what failed to evaluate, by structure (see `evaluate`)
        self.node_kinds: dict = {}        # see batched_trips.values_for_trips
        self.hopeless = self.memo.hopeless
        self.mask_checks: dict = {}       # id(intrinsic record) -> its last `mask_problem`
        self.ahead_memo: Memo | None = None   # the memo of `run_nest_batched`'s look-ahead
        self.unshared = _NOTHING          # (memory, array) pairs the next interval closed is known not to
                                          # share a word in (see `interval_screens`)

    # -- walking ---------------------------------------------------------------------------------
    def run(self) -> None:
        self.walk(self.tree, dict(self.env), self.everyone, (), False)
        self.close_interval(None)
        self.found.block_footprints.append(self.footprint)

    def walk(self, nodes, env, loop_mask, loop_reasons, loop_partial) -> None:
        """Executes `nodes` in order, each event as soon as it is reached (an early return or a
        barrier changes what the next one sees)."""
        # neighbouring statements under the same conditions share their evaluation: condition key ->
        # (threads for which they hold, conditions not evaluated, self.alive when the next two were
        # found, the threads reaching them, whether any does (None until asked))
        masks: dict = {}
        everyone = self.everyone
        for node in nodes:
            if self.steps >= MAX_STEPS:
                self.found.note(f"trace cut after {MAX_STEPS} steps")
                return
            if type(node) is LoopNode:
                if node.quiet:
                    self.skim(node, env)
                else:
                    self.iterate(node, env, loop_mask, loop_reasons, loop_partial)
                masks.clear()   # the loop may have changed env (the values it carries out)
                continue
            self.steps += 1
            if node.inert:
                continue
            if node.plain_access:
                if node.read_only and id(node.record) in self.found.unknown_addresses:
                    continue    # all it could do is done (see worth_recording)
                addresses = self.addresses(node, env)
                # (a known address of an array that is written is always worth recording)
                if (addresses is None or node.read_only) and not self.worth_recording(node, addresses):
                    continue
            key = _walk_key(node)
            entry = masks.get(key)
            if entry is None or not _fresh(entry, self.alive):
                mask, unknown = self.condition_mask(node.conditions, env) if entry is None else entry[:2]
                # (shared by the statements under these conditions: nobody changes it)
                reached = _both(_both(loop_mask, mask, everyone), self.alive, everyone)
                entry = masks[key] = (mask, unknown, self.alive, reached, None)
            _, unknown, _, reached, reaches = entry
            if node.plain_access:
                if reaches is None:
                    reaches = bool(_count_nonzero(reached))
                    masks[key] = entry[:4] + (reaches,)
                if reaches:
                    self.record_access(node, reached, unknown, addresses)
                continue
            self.execute(Step(node, env, reached, unknown, loop_reasons, loop_partial))

    def enter_loop(self, loop, env):
        """`iterations` of a loop being entered, its trip count recorded (the most over its entries)
        and a note made when they are not computable (the body then runs once)."""
        iterations, bounded = self.iterations(loop, env)
        trips = len(iterations) if iterations is not None else 0
        self.found.loop_trips[id(loop)] = max(trips, self.found.loop_trips.get(id(loop), 0))
        if iterations is None:
            self.found.note(f"loop at line {loop.line}: iterations not computable, executed once")
        return iterations, bounded

    def iterate(self, node: LoopNode, env, loop_mask, loop_reasons, loop_partial) -> None:
        loop = node.loop
        iterations, bounded = self.enter_loop(loop, env)
        if not bounded and loop.thread_dependent:
            # the trip count is not computable and may differ between threads: judged symbolically
            loop_reasons = loop_reasons + (loop,)
        if iterations is None:
            self.walk(node.children, env, loop_mask, loop_reasons, loop_partial)
            return
        forgotten = {name: UNKNOWN for name in node.carried}
        # the iterations that run in one environment but for the counter: all, or all but the first
        alike_from = 1 if forgotten else 0
        idle = self.idle_plan(node)
        # (a loop whose later trips repeat its first: see `repeats_from_here`; its plan is made and what its
        # first trip does is kept once that trip is walked, not when the loop runs as one batch)
        repeatable = REPEAT_TRIPS and len(iterations) > 2
        first = None
        for trip, (value, active) in enumerate(iterations):
            if first is not None and trip == first.trip + 1:
                self.end_capture(first)
                if self.repeats_from_here(node, env, forgotten, iterations, first, loop_mask):
                    self.replay_trips(len(iterations) - trip, first)
                    break
                # (a first trip that takes another branch than the later ones: they may repeat the second)
                first = self.start_capture(1) if trip == 1 and self.repeats_second(node) else None
            if trip and idle is not None and self.idle_from_here(idle[0]) and \
                    (not idle[2] or _every_thread_iterates(iterations, self.everyone)):
                # this trip and every later one change nothing (see `idle_from_here`): only their steps count
                steps = self.idle_trip_steps(node, idle[1], env, forgotten, trip, value)
                if steps is not None:
                    self.take_steps(steps * (len(iterations) - trip))
                    break
                idle = None     # (walked trip by trip: see `idle_trip_steps`)
            if trip == alike_from and (
                    node.batchable and self.run_batched(node, env, forgotten, iterations[trip:], loop_mask,
                                                        loop_reasons, loop_partial) or
                    node.nest_batchable and NEST_BATCHES and
                    self.run_nest_batched(node, env, forgotten, iterations[trip:], loop_mask, loop_reasons,
                                          loop_partial)):
                break
            inner = _iteration_env(env, forgotten, loop.var, trip, value)
            if active is self.everyone:
                # every thread iterates (a uniform bound): nobody skips this iteration
                mask, partial = loop_mask, loop_partial
            else:
                mask = loop_mask & active
                partial = self.skipped_by_some(active, loop_mask, loop_partial)
            if trip == 0 and repeatable and self.repeat_plan(node) is not None:
                first = self.start_capture()
            self.walk(node.children, inner, mask, loop_reasons, partial)
        if first is not None:
            self.end_capture(first)     # (the loop ran as one batch from its second trip, or a cut ended it)
        if len(iterations) > 1:
            env.update(forgotten)   # after the loop they hold their last-iteration values

    def repeat_plan(self, node: LoopNode):
        """`_repeat_plan(node)`, worked out once per loop node of the analysis."""
        known = self.memo.repeat_plans.get(id(node))
        if known is None or known[0] is not node:
            known = self.memo.repeat_plans[id(node)] = (node, _repeat_plan(node))
        return known[1]

    def repeats_second(self, node: LoopNode) -> bool:
        """Whether a loop whose later trips do not repeat its first may repeat its second: its plan
        watches accesses of written arrays (`trips_alike`), whose conditions may hold in the first
        trip only (`k == 0`)."""
        return REPEAT_UNKNOWN_WRITES and any(segment is not None for _, _, segment in self.repeat_plan(node))

    def start_capture(self, trip: int = 0) -> _TripCapture:
        """Starts keeping what the coming trip (`trip`) does to the intervals (see `close_interval`)."""
        capture = _TripCapture(self.steps, len(self.interval),
                               {key: len(kept) for key, kept in self.footprint.items()}, trip)
        self.found.captures.append(capture)
        return capture

    def end_capture(self, capture: _TripCapture) -> None:
        """Stops keeping what a trip does (`start_capture`), if it is kept still."""
        captures = self.found.captures
        for index in range(len(captures) - 1, -1, -1):
            if captures[index] is capture:
                del captures[index]
                return

    def repeats_from_here(self, node: LoopNode, env, forgotten: dict, iterations: list, first: _TripCapture,
                          loop_mask) -> bool:
        """Whether the trips after `first.trip` (0, or 1: `repeats_second`) of a loop with a `_repeat_plan`
        would find only what that trip (as `first` kept it) found and what `replay_trips` finds from it.
        Its trips record the same instances when every thread runs each of them (the same masks): its
        trips differ from trip 0 in names nothing recorded reads but the plan's accesses
        (`trips_alike`). That trip must have closed an interval (every trip then closes the same
        ones); trips that would reach the step cap are left to the walk, which cuts the trace where it
        always did."""
        everyone = self.everyone
        if not first.closes or not _every_thread_iterates(iterations, everyone):
            return False
        steps = self.steps - first.steps
        if self.steps + steps * (len(iterations) - 1 - first.trip) >= MAX_STEPS:
            return False
        return self.trips_alike(self.repeat_plan(node), env, forgotten, node.loop.var, iterations, first,
                                _both(loop_mask, self.alive, everyone))

    def trips_alike(self, plan: tuple, env, forgotten: dict, var, iterations: list, first: _TripCapture,
                    reaching) -> bool:
        """Whether the trips from `first.trip` on of a loop record alike the accesses of its `plan`,
        `reaching` being the threads that reach its body. A read-only access records nothing but the
        note of an unknown address: after `first.trip`, it must have that noted already, or be in the
        loop's own body and have a known address or reach no thread, or else it notes it there. An
        access of a written array (see `_unknown_writes`) that some thread reaches must record, in
        every one of those trips, the same instance (the same addresses, threads and certainty), or one
        at an unknown address; and the (segment, array, operation) of the latter must be the same in
        all of them. The accesses whose unknown address the trips after `first.trip` note first are
        kept, in the walk's order, in `first.first_noted` for `replay_trips`. (Each access of the body
        is in an interval of its segment that holds no earlier instance of it, so that the walk
        records it wherever it reaches anyone.)"""
        everyone = self.everyone
        noted = self.found.unknown_addresses
        first_noted: list = []
        in_first = None
        for trip in range(first.trip, len(iterations)):
            trip_env = None
            recorded = []
            for event, direct, segment in plan:
                if segment is None:     # (a read-only access)
                    if trip == first.trip or id(event.record) in noted or event in first_noted:
                        continue
                    if not direct:
                        return False
                    if trip_env is None:
                        trip_env = _iteration_env(env, forgotten, var, trip, iterations[trip][0])
                    if self.addresses(event, trip_env) is None and \
                            _count_nonzero(_both(reaching, self.condition_mask(event.conditions, trip_env)[0],
                                                 everyone)):
                        first_noted.append(event)
                    continue
                if trip_env is None:
                    trip_env = _iteration_env(env, forgotten, var, trip, iterations[trip][0])
                recorded.append(self.recorded_write(event, segment, trip_env, reaching))
                if trip > first.trip and recorded[-1] is not None and recorded[-1][0] is _AT_UNKNOWN and \
                        id(event.record) not in noted and event not in first_noted:
                    first_noted.append(event)
            if in_first is None:
                in_first = recorded
            elif not _recorded_alike(recorded, in_first):
                return False
        first.first_noted = first_noted
        return True

    def recorded_write(self, event: Event, segment: int, env, reaching):
        """What the walk records of an access of a written array in `env`, for `_recorded_alike`."""
        mask, unknown = self.condition_mask(event.conditions, env)
        reached = _both(reaching, mask, self.everyone)
        if not _count_nonzero(reached):
            return None
        addresses = self.addresses(event, env)
        if addresses is None:
            return _AT_UNKNOWN, segment, event.record.space, event.record.array, event.record.op
        return _AT_KNOWN, np.asarray(addresses, dtype=np.int64), reached, not unknown or _certain(unknown)

    def replay_trips(self, count: int, first: _TripCapture) -> None:
        """Stands for `count` more trips like trip 0 (see `repeats_from_here`), which closed the
        intervals `first.closes` and left the interval `tail` open. Each later trip closes the same
        intervals but its first, which holds the previous trip's tail and its own head (what trip 0
        recorded before its first close): that one is closed here, and the barriers it meets are
        checked, the one before it (the trip's last) and the one after it (the trip's second close,
        or for a trip of one close the same barrier between two such intervals: what it compares is
        mostly compared by trip 0's check and the one after the loop too, but in other word sizes
        where their intervals hold narrower elements); every other check of a later trip repeats one
        of trip 0's. Their steps are counted and the footprints of global accesses trip 0 kept for
        comparing blocks are kept again for each; the unknown addresses they note first are noted.
        (Trip 0 here is `first.trip`: 1 for a loop that repeats its second trip.)"""
        self.take_steps((self.steps - first.steps) * count)
        for event in first.first_noted:
            self.note_unknown_address(event.record)
        for key, kept in self.footprint.items():
            added = kept[first.kept.get(key, 0):]
            if added:
                kept.extend(added * count)
        head_interval, first_barrier = first.closes[0]
        head = head_interval[first.start:]
        tail, unknown, unshared, last = self.interval, self.unknown_in_interval, self.unshared, self.previous
        self.interval = tail + head
        self.unshared = _NOTHING
        self.close_interval(first_barrier)      # (the interval across the loop's back edge)
        if len(first.closes) > 1:
            self.check_barrier(self.previous, first.closes[1][0])
            self.previous = last
        else:
            # (a trip of one close: the barrier is met again between two intervals across the back edge)
            self.check_barrier(self.previous, tail + head)
        self.interval, self.unknown_in_interval, self.unshared = list(tail), unknown, unshared

    def idle_plan(self, node: LoopNode):
        """`_idle_plan(node)`, worked out once per loop node of the analysis."""
        known = self.memo.idle_candidates.get(id(node))
        if known is None or known[0] is not node:
            known = self.memo.idle_candidates[id(node)] = (node, _idle_plan(node))
        return known[1]

    def idle_trip_steps(self, node: LoopNode, inner: tuple, env, forgotten: dict, trip: int, value):
        """The steps walking an idle iteration `trip` of `node` takes, `inner` being the loops in
        it (`_idle_nest`); None when that is left to the walk: a loop in it whose iterations are
        not computable (its body would run once without its counter), or a trace cut already.
        Each loop in it is entered as the walk would, in this iteration's environment: its bounds
        read the same values as in the first iteration, which entered it already (no cut came
        before), so that its trip count and notes, recorded again, change nothing."""
        if not inner:
            return len(node.children)
        if self.steps >= MAX_STEPS:
            return None
        trip_env = _iteration_env(env, forgotten, node.loop.var, trip, value)
        steps = len(node.children) - len(inner)
        for child in inner:
            iterations, _ = self.enter_loop(child.loop, trip_env)
            if iterations is None:
                return None
            steps += len(iterations) * len(child.children)
        return steps

    def idle_from_here(self, candidates: tuple) -> bool:
        """Whether walking the loop's body in an iteration after its first changes nothing but the
        step count, `candidates` being its `_idle_plan` candidates. The walk would skip every access
        before its mask is computed: a read-only array's access whose unknown address is noted
        already, or an access of a written array that is in this interval with an unknown address
        already and whose address is unknown again (its address reads a value the loop carries,
        which every iteration after the first has forgotten, in a way that cannot evaluate; or it
        reads a name never bound; or it cannot be trusted). Such a trip changes none of what this
        asks, so every later trip of the same loop entry is idle too. (A warp intrinsic among them, a
        `_mask_fixed` one, checks its mask as in the first trip when every thread iterates every trip
        of the entry, which `iterate` asks: the threads alive cannot change in a body without returns.)"""
        noted = self.found.unknown_addresses
        in_interval = self.unknown_in_interval
        for event, fails_when_forgotten in candidates:
            if event.warp_call:
                continue    # (a `_mask_fixed` intrinsic: `iterate` asks whether every thread iterates)
            if event.read_only:
                if id(event.record) not in noted:
                    return False
            elif id(event) not in in_interval or not (fails_when_forgotten or event.unbound_address or
                                                      event.trusted is False):
                return False
        return True

    def run_batched(self, node: LoopNode, env, forgotten: dict, trips: list, loop_mask, loop_reasons: tuple,
                    loop_partial: bool) -> bool:
        """Executes `trips` (iterations after which the environment differs only in the counter)
        of an innermost loop of loads, stores and block barriers with every address and condition
        evaluated for all of them at once (`batched_trips`), then records the accesses and passes
        the barriers in the order the iterations would have; False, having changed nothing, when
        some value may differ in kind between iterations (the caller then runs them one by one).
        `loop_reasons` and `loop_partial` are as `walk` has them."""
        count = len(trips)
        if count < MIN_BATCH or self.steps + count * len(node.children) > MAX_STEPS:
            return False    # (a trace cut inside the loop is left to `walk`)
        column = counter_column([value for value, _ in trips], self.space.size)
        if column is None:
            return False
        batch_env = {**env, **forgotten, node.loop.var: column}
        try:
            plan = self.batched_plan(node, batch_env, frozenset(forgotten), trips, loop_mask)
        except _MixedValues:
            return False
        barriers = any(e.block_barrier for e, *_ in plan)
        partial = self.partial_trips(trips, loop_mask, loop_partial) if barriers else None
        screens = self.interval_screens(plan, count) if barriers and SCREEN_INTERVALS else None
        closed = 0
        self.steps += count * len(node.children)
        # (each entry with its recorder, joined once: a zip per trip made a tuple per entry and trip)
        steps = [entry + (self.row_recorder(entry),) for entry in plan]
        # per entry whose rows are kept for comparing blocks: their footprints found at once
        kept_rows = {id(step[0]): self.rows_for_blocks(step) for step in steps
                     if step[5] is not None and step[5][2]} if BLOCK_ROWS else {}
        # (whether any thread reaches each entry in each trip, as Python bools: the loop below reads
        # one per entry and trip, and reading a numpy array's element makes a scalar)
        steps = [step[:4] + (step[4].tolist(),) + step[5:] for step in steps]
        # A row is a view made for its one instance: no other instance has its identity, so the
        # shared footprint table, which knows arrays by identity, is neither asked nor filled for it.
        footprints = None if UNSHARED_ROWS else self.found.footprints
        for trip in range(count):
            for event, addresses, reached, unknown, nonempty, recorder in steps:
                if recorder is not None:
                    # (`record_access` written out for a known int64 address: its checks hold for every row)
                    if nonempty[trip]:
                        instance = Instance(recorder[0], addresses[trip], reached[trip], self.epochs, recorder[1],
                                            self.tile_epochs, self.tile_width, footprints)
                        self.interval.append(instance)
                        if recorder[2]:
                            rows = kept_rows.get(id(event))
                            self.keep_for_blocks(instance, None if rows is None else rows[trip])
                elif event.block_barrier:
                    if nonempty[trip]:
                        if screens is not None:
                            self.unshared = screens[closed]
                            closed += 1
                        self.block_barrier(Step(event, env, reached[trip], unknown, loop_reasons, partial[trip]),
                                           event.record)
                elif event.warp_call:
                    self.check_masks(Step(event, env, reached[trip], unknown, loop_reasons, False), event.record,
                                     event.record.name, None if addresses is None else addresses[trip])
                elif nonempty[trip] and (addresses is not None or self.worth_recording(event, None)):
                    self.record_access(event, reached[trip], unknown, None if addresses is None else addresses[trip])
        return True

    def run_nest_batched(self, node: LoopNode, env, forgotten: dict, trips: list, loop_mask, loop_reasons: tuple,
                         loop_partial: bool) -> bool:
        """`run_batched` for a loop whose body also holds loops: innermost ones that `run_batched`
        could run and quiet ones (`skim`). Each inner loop's iterations in every one of `trips`
        become rows of one batch, its counter and the outer one bound to a column each; the quiet
        loops are skimmed ahead for the steps they take and the notes they make (held back and made
        where the walk would make them). False, having changed nothing, when a value may differ in
        kind, an inner loop's iterations are not computable or its trip count is unknown and
        thread-dependent, a loop forgets a value the rest of the body reads, the trace would be
        cut, or the batch is too small to pay.

        The look-ahead evaluates loops through a memo of its own (`iterations`), which keeps the
        notes that computing each entry made and makes them again at every look-up: the notes of
        an iteration list found ahead for a batch that then gave up are not lost to a later batch.
        (The main memo makes them once, when it computes the entry: the walk after a batch gave up
        computes its own. An entry the walk computed already is taken from the main memo, with no
        notes, as the walk's look-up would: REUSE_WALKED.)"""
        if _surely_too_few_rows(node, len(trips)):
            return False
        saved = self.steps, self.memo, self.found.loop_trips
        if self.ahead_memo is None:
            self.ahead_memo = Memo(self.memo.varying)
        # (trip counts found ahead count only if the batch runs: the walk finds its own)
        self.memo, self.found.loop_trips = self.ahead_memo, dict(self.found.loop_trips)
        prepared = None
        try:
            prepared = self.prepare_nest(node, env, forgotten, trips, loop_mask, loop_partial)
        finally:
            self.found.__dict__.pop("note", None)     # the method again
            self.steps, self.memo = saved[0], saved[1]
            if prepared is None:
                self.found.loop_trips = saved[2]
        if prepared is None:
            return False
        order, steps = prepared
        # (a nest with no barrier closes no interval: `nest_screens` would go through the whole order
        # to find none, the register tiles' unrolled loops)
        screens = self.nest_screens(order) if SCREEN_INTERVALS and _holds_a_barrier(node.children) else None
        closed = 0
        self.steps += steps
        # (as in `run_batched`: rows of known int64 addresses are recorded without a call each, and
        # their footprints, views made for one instance, stay out of the shared table)
        # id(plan entry) -> (its `row_recorder`, whether any thread reaches each of its rows as Python
        # bools: read once per row, where a numpy array's element would be a new scalar each time)
        recorders: dict = {}
        footprints = None if UNSHARED_ROWS else self.found.footprints
        for entry, row, row_partial in order:
            if entry is None:
                for text in row:
                    self.found.note(text)
                continue
            known = recorders.get(id(entry))
            if known is None:
                known = recorders[id(entry)] = (self.row_recorder(entry), entry[4].tolist())
            recorder, nonempty = known
            if recorder is not None:
                if nonempty[row]:
                    instance = Instance(recorder[0], entry[1][row], entry[2][row], self.epochs, recorder[1],
                                        self.tile_epochs, self.tile_width, footprints)
                    self.interval.append(instance)
                    if recorder[2]:
                        self.keep_for_blocks(instance)
                continue
            event, addresses, reached, unknown, _ = entry
            if event.warp_call:
                self.check_masks(Step(event, env, reached[row], unknown, loop_reasons, row_partial), event.record,
                                 event.record.name, None if addresses is None else addresses[row])
                continue
            if not nonempty[row]:
                continue
            if event.block_barrier:
                if screens is not None:
                    self.unshared = screens[closed]
                    closed += 1
                self.block_barrier(Step(event, env, reached[row], unknown, loop_reasons, row_partial), event.record)
            elif addresses is not None or self.worth_recording(event, None):
                self.record_access(event, reached[row], unknown, None if addresses is None else addresses[row])
        return True

    def prepare_nest(self, node: LoopNode, env, forgotten: dict, trips: list, loop_mask, loop_partial: bool):
        """(execution order, steps taken) of `run_nest_batched`'s batch, or None when it gives up. The
        order lists (plan entry, row, whether some live thread skips that iteration) for accesses and
        barriers and (None, notes) for the notes an inner loop made."""
        count = len(trips)
        size = self.space.size
        var = node.loop.var
        outer_env = {**env, **forgotten}
        # What each inner loop does in each iteration: the batchable loops' iterations first (their
        # first trip tells whether the batch is worth it), then the quiet loops' skims.
        ahead = [{} for _ in trips]     # per trip: {child index: (iterations or None, held notes)}
        barrier_free = not _holds_a_barrier(node.children)
        steps = count * sum(1 for child in node.children if type(child) is not LoopNode)
        rows = count
        # child index -> (its `ahead` entry, steps, rows) of the first trip, for a loop that does the
        # same in every trip (`_same_every_trip`): the later trips take them without asking again
        repeated_trips: dict = {}
        for quiet in (False, True):
            for trip, ((value, _), found) in enumerate(zip(trips, ahead)):
                trip_env = None     # (built for the first child that asks: often none in a later trip)
                for index, child in enumerate(node.children):
                    if type(child) is not LoopNode or child.quiet is not quiet:
                        continue
                    if trip and index in repeated_trips:
                        found[index], child_steps, child_rows = repeated_trips[index]
                        steps += child_steps
                        rows += child_rows
                        continue
                    if trip_env is None:
                        trip_env = {**outer_env, var: value}
                    steps_before, rows_before = steps, rows
                    held: list = []
                    self.found.note = held.append
                    if quiet:
                        scratch = dict(trip_env)
                        self.steps = 0
                        self.skim(child, scratch)
                        steps += self.steps
                        found[index] = (None, held)
                        changed = [name for name in child.carried if scratch.get(name, _ABSENT) is not
                                   trip_env.get(name, _ABSENT)]
                        if child.loop.var is not None and scratch.get(child.loop.var, _ABSENT) is not \
                                trip_env.get(child.loop.var, _ABSENT):
                            changed.append(child.loop.var)
                    else:
                        iterations, bounded = self.enter_loop(child.loop, trip_env)
                        if iterations is None or not bounded and child.loop.thread_dependent:
                            return None
                        if barrier_free and len(iterations) >= MIN_BATCH:
                            # `run_batched` takes this loop whole in every trip already, and its
                            # rows there record without a call each: a nest would only add set-up
                            return None
                        steps += len(iterations) * len(child.children)
                        rows += len(iterations)
                        found[index] = (iterations, held)
                        changed = [name for name in child.carried if trip_env.get(name) is not UNKNOWN] \
                            if len(iterations) > 1 else ()
                    # a loop may forget values (an inner loop may carry the outer counter): the batch
                    # stands if the rest of the body does not read them
                    if changed and not _read_after(node, index).isdisjoint(changed):
                        return None
                    if trip == 0 and REPEATED_TRIPS and _same_every_trip(child, var):
                        repeated_trips[index] = (found[index], steps - steps_before, rows - rows_before)
                if trip == 0 and not quiet and count * (rows - count + 1) < MIN_NEST_ROWS and \
                        _inner_trips_fixed(node):
                    return None     # every trip has as many inner iterations: too few to pay
            if not quiet and rows < MIN_NEST_ROWS:
                return None
        if self.steps + steps >= MAX_STEPS:
            return None
        column = counter_column([value for value, _ in trips], size)
        if column is None:
            return None
        shape = (count, size)
        live = loop_mask & self.alive
        actives = [active for _, active in trips]
        everyone_iterates = all(active is self.everyone for active in actives)
        barriers = any(type(c) is LoopNode and not c.quiet and any(e.block_barrier for e in c.children) or
                       type(c) is not LoopNode and c.block_barrier for c in node.children)
        partial = [self.skipped_by_some(active, loop_mask, loop_partial) for active in actives] if barriers \
            else [loop_partial] * count
        try:
            outer_plan = self.plan_for([c for c in node.children if type(c) is not LoopNode],
                                       {**outer_env, var: column}, frozenset(forgotten), shape,
                                       repeated(live, shape) if everyone_iterates else _stacked(actives) & live)
            inner_plans = {}    # child index -> per trip, [(plan, row, partial)] of its iterations in order
            for index, child in enumerate(node.children):
                if type(child) is not LoopNode or child.quiet:
                    continue
                inner_plans[index] = self.inner_rows(child, var, ahead, index, trips, outer_env, forgotten,
                                                     loop_mask, partial, barriers)
                if inner_plans[index] is None:
                    return None
        except _MixedValues:
            return None
        outer_entries = {id(entry[0]): entry for entry in outer_plan}
        order = []
        for trip in range(count):
            for index, child in enumerate(node.children):
                if type(child) is not LoopNode:
                    entry = outer_entries.get(id(child))
                    if entry is not None:
                        order.append((entry, trip, partial[trip]))
                    continue
                held = ahead[trip][index][1]
                if held:
                    order.append((None, held, None))
                if child.quiet:
                    continue
                for plan, row, row_partial in inner_plans[index][trip]:
                    for entry in plan:
                        order.append((entry, row, row_partial))
        return order, steps

    def inner_rows(self, child: LoopNode, outer_var: str, ahead: list, index: int, trips: list, outer_env: dict,
                   forgotten: dict, loop_mask, partial: list, barriers: bool):
        """Per trip of the outer loop, [(plan, row, partial)] for the iterations of the inner loop
        `child` (see `prepare_nest`), or None when they do not fit in a batch."""
        size = self.space.size
        var = child.loop.var
        # an inner loop that reads the outer counter carries it: from its second iteration on, the
        # counter is forgotten there, so those iterations are rows of a plan of their own
        split = outer_var in child.carried
        groups: dict = {}   # later iteration or not -> [(trip, counter value, threads, partial)]
        for trip, (value, active_outer) in enumerate(trips):
            mask = loop_mask if active_outer is self.everyone else loop_mask & active_outer
            for j, (inner_value, active) in enumerate(ahead[trip][index][0]):
                groups.setdefault(split and j > 0, []).append(
                    (trip, inner_value, mask if active is self.everyone else mask & active,
                     barriers and self.skipped_by_some(active, mask, partial[trip])))
        where = [[] for _ in trips]
        for later, members in groups.items():
            if len(members) * size > MAX_BATCH_CELLS:
                return None
            inner_column = counter_column([inner for _, inner, _, _ in members], size)
            if inner_column is None:
                return None
            if later:
                group_env = {**outer_env, **{name: UNKNOWN for name in child.carried}}
                group_forgotten = frozenset(forgotten) | child.carried
            else:
                outer_column = counter_column([trips[trip][0] for trip, _, _, _ in members], size)
                if outer_column is None:
                    return None
                group_env = {**outer_env, outer_var: outer_column}
                group_forgotten = frozenset(forgotten)
            group_env[var] = inner_column
            plan = self.plan_for(child.children, group_env, group_forgotten - {var}, (len(members), size),
                                 _stacked([m for _, _, m, _ in members]) & self.alive)
            for row, (trip, _, _, row_partial) in enumerate(members):
                where[trip].append((plan, row, row_partial))
        # (the first iterations' group is made first: each trip lists its iterations in order)
        return where

    def nest_screens(self, order: list) -> list | None:
        """`interval_screens` for a nest's batch in execution `order` (see `run_nest_batched`)."""
        closed = 0
        numbers: dict = {}      # id(entry) -> (entry, interval per row, a list until the end)
        # id(entry) -> for a barrier, whether any thread reaches each of its rows; for an entry
        # screened, its `numbers`; None for any other (Python lists: one element read or written per
        # row, where a numpy array's would cost a scalar each)
        kinds: dict = {}
        for entry, row, _ in order:
            if entry is None:
                continue
            kind = kinds.get(id(entry), _ABSENT)
            if kind is _ABSENT:
                if entry[0].block_barrier:
                    kind = entry[4].tolist()
                elif _screenable(entry):
                    kind = numbers[id(entry)] = (entry, [-1] * len(entry[4]))
                else:
                    kind = None
                kinds[id(entry)] = kind
            if type(kind) is list:
                closed += kind[row]
            elif kind is not None:
                kind[1][row] = closed
        if not closed:
            return None
        numbered = []
        for entry, rows in numbers.values():
            number = np.array(rows, dtype=np.int64)
            number[number >= closed] = -1
            numbered.append((entry, number))
        return self.reused_screens(numbered, closed)

    def interval_screens(self, plan: list, count: int) -> list:
        """Per block barrier that the batch of `count` iterations runs, in order: the (memory,
        array) pairs whose accesses in the interval it closes have no word that two threads touch,
        found for all intervals at once (`batched_intervals`); the race checks at that barrier skip
        them, as they would have after asking. The interval that the batch's first barrier closes
        also holds what the block did before the loop: it is screened only when that was nothing."""
        barrier_runs = [nonempty if event.block_barrier else None for event, _, _, _, nonempty in plan]
        chosen = [k for k, entry in enumerate(plan) if _screenable(entry)]
        numbers, closed = interval_numbers(barrier_runs, chosen, count)
        return self.reused_screens([(plan[k], number) for k, number in zip(chosen, numbers)], closed)

    def reused_screens(self, numbered: list, closed: int) -> list:
        """`screens_for`, taken from an earlier batch with equal rows when there was one, typically
        the same loop in an earlier block, its addresses and threads not reading blockIdx
        (REUSE_SCREENS: see `ScreensSeen`)."""
        if not REUSE_SCREENS:
            return self.screens_for(numbered, closed)
        # (whether the block did something before the batch decides the first screen)
        key = (tuple(id(entry[0]) for entry, _ in numbered), closed, bool(self.interval))
        rows = [(entry[1], entry[2], number) for entry, number in numbered]
        screens = self.walk_memo.screens.find(key, rows)
        if screens is None:
            screens = self.screens_for(numbered, closed)
            self.walk_memo.screens.keep(key, rows, screens)
        return screens

    def screens_for(self, numbered: list, closed: int) -> list:
        """`interval_screens` from [(plan entry, interval of each of its rows or -1)] and the number
        of intervals the batch closes."""
        screens = [set() for _ in range(closed)]
        by_array: dict = {}
        for entry, number in numbered:
            event = entry[0]
            by_array.setdefault((event.record.space, event.record.array), []).append((entry, number))
        for key, entries in by_array.items():
            granules = {min(4, entry[0].record.elem_bytes or 4) for entry, _ in entries}
            if len(granules) > 1:
                continue    # the word size of an interval would depend on which accesses it holds
            granule = granules.pop()
            intervals, words, threads = [], [], []
            seen: list = []     # (addresses, threads reaching, intervals, pieces) of the entries taken
            for (event, addresses, reached, _, _), number in entries:
                pieces = _pieces(event.record, granule)
                if any(_same_rows((addresses, reached, number, pieces), taken) for taken in seen):
                    continue    # the same rows again (the load and the store of `t[i] += ...`)
                seen.append((addresses, reached, number, pieces))
                touch, trip, thread = _touched_cells(reached, number)
                word = _floor_divided(_cells_of(addresses, touch, thread), granule)
                interval = number[trip]
                if pieces > 1:
                    word = (word[:, None] + np.arange(pieces)).reshape(-1)
                    interval, thread = np.repeat(interval, pieces), np.repeat(thread, pieces)
                intervals.append(interval)
                words.append(word)
                threads.append(thread)
            shared = intervals_sharing_a_word(np.concatenate(intervals), np.concatenate(words),
                                              np.concatenate(threads), closed)
            for interval in (~shared).nonzero()[0].tolist():
                screens[interval].add(key)
        if self.interval and screens:
            screens[0] = set()
        return screens

    def partial_trips(self, trips: list, loop_mask, loop_partial: bool) -> list:
        """Per trip, whether some live thread skips it (as `iterate` tells it, for `walk`)."""
        return [self.skipped_by_some(active, loop_mask, loop_partial) for _, active in trips]

    def skipped_by_some(self, active, loop_mask, loop_partial: bool) -> bool:
        """Whether some live thread under `loop_mask` skips an iteration that the `active` threads
        run, or an enclosing loop's iteration was already partial (`walk`'s loop_partial)."""
        return loop_partial or (active is not self.everyone and
                                bool(_count_nonzero(loop_mask & self.alive & ~active)))

    def batched_plan(self, node: LoopNode, env, forgotten: frozenset, trips: list, loop_mask) -> list:
        """Per access of the body that may be recorded, and per block barrier: (event, addresses
        per iteration or None, threads reaching it per iteration, conditions not evaluated, whether
        any thread does)."""
        shape = (len(trips), self.space.size)
        live = loop_mask & self.alive
        actives = [active for _, active in trips]
        if all(active is self.everyone for active in actives):
            live = repeated(live, shape)
        else:
            live = _stacked(actives) & live
        return self.plan_for(node.children, env, forgotten, shape, live)

    def plan_for(self, events: list, env, forgotten: frozenset, shape: tuple, live) -> list:
        """`batched_plan` for `events`, one row per iteration of `shape` (rows, threads), with `live`
        the threads that reach each row before conditions."""
        plan = []
        masks: dict = {}    # condition key -> (threads reaching, conditions not evaluated, whether any thread does)
        # an address shared by several events (the load and the store of `t[i] += ...`) is evaluated
        # once: the events then share their arrays, which later checks tell by identity
        addresses_of: dict = {}     # id(address expression) -> its values
        for event in events:
            if event.block_barrier:
                addresses = None
            elif event.warp_call:
                # in place of addresses: the lane masks, as `check_mask` evaluates them
                addresses = self.batched_values(event.record.args[0], env, shape, forgotten)
                if addresses is not None:
                    addresses = np.asarray(addresses, dtype=np.int64) & FULL_MASK
            elif event.plain_access:
                if not self.address_trusted(event):
                    addresses = None
                elif _address_key(event) in addresses_of:
                    addresses = addresses_of[_address_key(event)]
                else:
                    addresses = addresses_of[_address_key(event)] = \
                        self.batched_values(event.record.address, env, shape, forgotten)
                if event.read_only and (addresses is not None or id(event.record) in self.found.unknown_addresses):
                    continue
            else:
                continue
            entry = masks.get(event.condition_key)
            if entry is None:
                mask, unknown = self.batched_condition_mask(event.conditions, env, shape, forgotten)
                reached = live if mask is None else live & mask
                entry = masks[event.condition_key] = (reached, unknown, _ANY(reached, axis=1))
            reached, unknown, nonempty = entry
            plan.append((event, addresses, reached, unknown, nonempty))
        return plan

    def batched_values(self, expr, env, shape: tuple, forgotten: frozenset):
        values = values_for_trips(expr, env, shape, forgotten, self.node_kinds)
        if values is MIXED:
            raise _MixedValues
        return values

    def batched_condition_mask(self, conditions, env, shape: tuple, forgotten: frozenset):
        """`condition_mask` for every iteration at once (None: no conditions)."""
        if not conditions:
            return None, ()
        return self.conditions_holding(
            conditions, lambda expr: as_truth(self.batched_values(expr, env, shape, forgotten)),
            np.ones(shape, dtype=bool))

    def skim(self, node: LoopNode, env) -> None:
        """`iterate` for a loop whose events are all inert, keeping only what executing it leaves
        behind: the steps it takes (the trace is cut at MAX_STEPS, here as in `walk`), the notes on
        its iterations and those of the loops in it, and the values it carries out. Masks need
        not be computed: nothing under it reads them (the fmaf loops of an unrolled tile).

        A loop with loops in it is skimmed once per set of values its loops' bounds read (and
        threads alive): the memo keeps what skimming it left behind (`skim_summary`) for the next
        time, when it is left behind again without walking the loops."""
        if node.plain_steps is None and SKIM_SUMMARIES:
            computed: list = []
            summary = self.memo.recall(node, env, self.block, self.skim_summary, node, env, computed,
                                       also=self.alive)
            if computed:
                return      # skimmed just now
            if summary is not None and self.steps + summary[0] < MAX_STEPS:
                steps, notes, trips, written = summary
                self.steps += steps
                for text in notes:
                    self.found.note(text)
                loop_trips = self.found.loop_trips
                for key, count in trips:
                    if count > loop_trips.get(key, 0):
                        loop_trips[key] = count
                for name in written:
                    env[name] = UNKNOWN
                return
        self.skim_loop(node, env)

    def skim_summary(self, node: LoopNode, env, computed: list):
        """Skims `node` and returns what that left behind, for `skim` to leave behind again: (steps
        taken, notes made, trip counts of the loops in it, names it made unknown in `env`); None when
        the trace was cut (what a cut leaves depends on where it happens). The notes are the ones
        computing them made: made again, they change nothing but where the walk would have made them
        anew."""
        computed.append(True)
        start = self.steps
        held: list = []
        found = self.found
        outer = found.__dict__.get("note")        # a look-ahead's or an enclosing summary's, or none
        note = found.note
        found.note = lambda text: (held.append(text), note(text))
        writes = _Writes(env)
        try:
            self.skim_loop(node, writes)
        finally:
            if outer is None:
                found.__dict__.pop("note", None)
            else:
                found.note = outer
        for name in writes.written:
            env[name] = writes[name]
        if self.steps >= MAX_STEPS:
            return None
        trips = tuple((id(loop), found.loop_trips.get(id(loop), 0)) for loop in _loops_under(node))
        return self.steps - start, tuple(held), trips, tuple(writes.written)

    def skim_loop(self, node: LoopNode, env) -> None:
        """`skim`, walking the loops."""
        loop = node.loop
        iterations, _ = self.enter_loop(loop, env)
        if iterations is None:
            self.skim_body(node, env)
            return
        forgotten = {name: UNKNOWN for name in node.carried}
        if node.plain_steps is not None:
            self.take_steps(len(iterations) * node.plain_steps)
        else:
            for trip, (value, _) in enumerate(iterations):
                self.skim_body(node, _iteration_env(env, forgotten, loop.var, trip, value))
        if len(iterations) > 1:
            env.update(forgotten)

    def skim_body(self, node: LoopNode, env) -> None:
        """One iteration of a quiet loop's body (see `skim`)."""
        if node.plain_steps is not None:
            self.take_steps(node.plain_steps)
            return
        for child in node.children:
            if self.steps >= MAX_STEPS:
                self.found.note(f"trace cut after {MAX_STEPS} steps")
                return
            if type(child) is LoopNode:
                self.skim(child, env)
            else:
                self.steps += 1

    def take_steps(self, count: int) -> None:
        """`count` inert events in a row, as `walk` counts them: up to MAX_STEPS, noting the cut
        when one of them finds the trace full."""
        if count and self.steps + count > MAX_STEPS:
            self.steps = MAX_STEPS
            self.found.note(f"trace cut after {MAX_STEPS} steps")
        else:
            self.steps += count

    def iterations(self, loop, env):
        """([(value of the loop variable, threads still iterating)] or None when unknown, whether the
        bound was evaluated). The same loop entered again with the same values and the same threads
        alive (an inner loop whose bounds do not read the outer counter) repeats the last answer."""
        if self.memo is self.ahead_memo:
            if REUSE_WALKED:
                walked = self.walk_memo.known(loop, env, self.block, self.alive)
                if walked is not None:
                    # the walk computed them already and made their notes then: a look-up by the walk
                    # would make none (and a note made again is no new note)
                    return walked
            iterations, notes = self.memo.recall(loop, env, self.block, self.noted_iterations, loop, env,
                                                 also=self.alive)
            for text in notes:
                self.found.note(text)
            return iterations
        return self.memo.recall(loop, env, self.block, executed_iterations, loop, env, _value, self.alive,
                                self.everyone, self.found.note, also=self.alive)

    def noted_iterations(self, loop, env) -> tuple:
        """(`executed_iterations`, the notes it made), for the look-ahead's memo (`run_nest_batched`)."""
        notes: list = []
        return executed_iterations(loop, env, _value, self.alive, self.everyone, notes.append), notes

    def condition_mask(self, conditions, env):
        """(threads for which the known conditions hold, the conditions that could not be evaluated)."""
        if not conditions:
            return self.everyone, ()
        return self.memo.recall(conditions, env, self.block, self.evaluate_conditions, conditions, env)

    def evaluate_conditions(self, conditions, env):
        return self.conditions_holding(conditions, lambda expr: self.truth(expr, env), self.everyone.copy())

    @staticmethod
    def conditions_holding(conditions, truth, mask):
        """(`mask` narrowed to where the known conditions hold, the conditions not known), with
        `truth(expression)` the per-thread truth of an expression or None."""
        unknown = []
        for condition in conditions:
            holds = truth(condition.expr)
            if holds is None:
                unknown.append(condition)
                parts = _conjuncts(condition.expr)
                if not condition.negated and len(parts) > 1:
                    # `threadIdx.y == 0 && c < cols` with cols unknown: the known side still decides
                    # which threads may get here (a condition that is one part is already known
                    # not to)
                    for part in parts:
                        known = truth(part)
                        if known is not None:
                            mask &= known
                continue
            mask &= ~holds if condition.negated else holds
        return mask, tuple(unknown)

    def per_thread(self, expr, env):
        """`per_thread` through the memo."""
        return self.memo.recall(expr, env, self.block, self.evaluate, expr, env)

    def truth(self, expr, env):
        """`truth`, skipping what is known to fail (see `evaluate`)."""
        return as_truth(self.evaluate(expr, env))

    def evaluate(self, expr, env):
        """`per_thread`, except that an expression which failed because a name it reaches has no
        value is not evaluated again while the same of its names are missing: which nodes an
        evaluation reaches depends on which names are bound, not on their values, so it fails again
        (a condition on an unbound size in a loop would otherwise raise once per iteration, and once
        more in every block and every kernel that builds it alike: see `UnboundFailures`)."""
        if not isinstance(expr, sx.Expr) or expr._has_load:    # (slots read directly: see `Memo.reading`)
            return per_thread(expr, env, self.space.size)
        failed = self.unbound.get(expr._key)
        if failed is not None:
            # (a frozenset's difference with a dict looks its few names up in the dict; `- env.keys()`
            # went through every name of the environment)
            missing = expr._symbols.difference(env)
            if missing in failed:
                self.unbound_for_good(expr, missing)
                return None
        try:
            value = expr.evaluate(env)
        except sx.Unbound:
            missing = expr._symbols.difference(env)
            self.unbound.add(expr._key, missing)
            self.unbound_for_good(expr, missing)
            return None
        except UNEVALUABLE:
            return None
        return one_per_thread(value, self.space.size)

    def unbound_for_good(self, expr, missing: frozenset) -> None:
        """Notes `expr`, which failed for want of the `missing` names, as hopeless when no loop binds
        them: only loops bind names while a block runs, so they stay missing, and it fails for good."""
        if missing.isdisjoint(self.memo.varying):
            self.hopeless[id(expr)] = expr

    # -- events ----------------------------------------------------------------------------------
    def execute(self, step: Step) -> None:
        kind = step.event.kind
        record = step.event.record
        if kind == "access":
            self.access(step, record)
        elif kind == "barrier":
            if record.kind in BLOCK_BARRIERS or record.kind == GRID_BARRIER:
                self.block_barrier(step, record)
            elif record.kind == "syncwarp":
                if _count_nonzero(step.mask):
                    self.check_mask(step, record, "__syncwarp", record.mask)
                self.epochs = self.epochs + step.mask   # a new array: instances keep the old one
            elif record.kind == "tile_sync":
                # a warp tile's barrier: every lane of the tile must arrive; it orders them as
                # __syncwarp does (tiles narrower than a warp are ordered as their whole warp)
                if _count_nonzero(step.mask):
                    reason = self.divergence_reason(step, self.alive, step.mask)
                    if reason:
                        self.found.divergent.setdefault((record.line, record.column),
                                                        DivergentBarrier(record.line, record.column, reason))
                width = self.tile_size(step, record)
                if width >= WARP_SIZE:
                    self.epochs = self.epochs + step.mask
                else:
                    self.tile_epochs = self.tile_epochs + step.mask
                    self.tile_width = np.where(step.mask, width, self.tile_width)
        elif kind == "call":
            if record.name in FENCES:
                self.found.fences[(record.line, record.column)] = Site(record.name, record.line, record.column)
            elif _is_warp_intrinsic(record.name) and record.args:
                self.check_mask(step, record, record.name, record.args[0])
        elif kind == "return":
            self.early_return(step, record)

    def access(self, step: Step, access) -> None:
        """An atomic (plain loads and stores are handled by `walk`)."""
        self.atomic(step, access)
        if not _count_nonzero(step.mask):
            return
        addresses = self.per_thread(access.address, step.env) if self.address_trusted(step.event) else None
        self.record_access(step.event, step.mask, step.unknown, addresses)

    def addresses(self, event: Event, env):
        """The event's per-thread byte addresses, None when unknown."""
        trusted = event.trusted     # (`address_trusted` once it has been asked, without the call)
        if event.unbound_address or not (trusted if trusted is not None else self.address_trusted(event)):
            return None
        address = event.record.address
        # (`per_thread`, written out: this is the executor's most frequent evaluation)
        values = self.memo.recall(address, env, self.block, self.evaluate, address, env)
        if values is None and self.hopeless.get(id(address)) is address:
            event.unbound_address = True    # every block has the same names bound
        return values

    def worth_recording(self, event: Event, addresses) -> bool:
        """Whether executing a plain access with these addresses can change what is found, before
        its mask is computed. A read-only array's access only ever notes an unknown address (see
        `mark_read_only`); an unknown address only counts as there being one in the interval (the
        race checks leave it out, the hazard check asks whether there is any), so a second one of
        the same access adds nothing."""
        if event.read_only:
            return addresses is None and id(event.record) not in self.found.unknown_addresses
        return addresses is not None or id(event) not in self.unknown_in_interval

    def record_access(self, event: Event, mask, unknown: tuple, addresses) -> None:
        """One execution of a shared or global access by the threads in `mask` (some of them)."""
        access = event.record
        if addresses is None:
            if id(access) not in self.found.unknown_addresses:   # noted once: the text is the same each time
                self.note_unknown_address(access)
            self.unknown_in_interval.add(id(event))
        elif type(addresses) is not np.ndarray or addresses.dtype is not _INT64:
            addresses = np.asarray(addresses, dtype=np.int64)    # (an int64 array already is itself)
        if event.read_only:
            return
        certain = not unknown or _certain(unknown)     # (most accesses are under no unknown condition)
        instance = Instance(access, addresses, mask, self.epochs, certain, self.tile_epochs, self.tile_width,
                            self.found.footprints)
        self.interval.append(instance)
        if access.space == "global" and addresses is not None and certain and self.granules is not None:
            self.keep_for_blocks(instance)

    def note_unknown_address(self, access) -> None:
        """Notes once that `access`'s address is unknown."""
        if id(access) not in self.found.unknown_addresses:
            self.found.unknown_addresses.add(id(access))
            self.found.note(f"line {access.line}: address of {access.text or access.array} unknown")

    def row_recorder(self, entry: tuple):
        """For a batch plan's entry whose every row `record_access` would record the same way (a load
        or store of an array that is written, at known int64 addresses): (its access, whether it is
        certain to execute, whether its footprint is kept for comparing blocks); None for any other
        entry, left to the general path."""
        event, addresses, _, unknown, _ = entry
        if not RECORD_ROWS or not event.plain_access or event.read_only or type(addresses) is not np.ndarray or \
                addresses.dtype is not _INT64:
            return None
        access = event.record
        certain = not unknown or _certain(unknown)
        return access, certain, access.space == "global" and certain and self.granules is not None

    def keep_for_blocks(self, instance: Instance, row: tuple | None = None) -> None:
        """Keeps a certain global access's distinct words for comparing blocks (see `record_access`).
        `row`: its footprint's (words, threads, distinct words, pieces) as `rows_for_blocks` found
        them for a whole batch, for an instance that has no footprint in that word size yet."""
        access = instance.access
        granule = self.granules.get(access.array, 4)
        if row is not None:
            entry = _Footprint(instance.addresses, instance.mask, (row[0], row[1]), row[3])
            entry.distinct = row[2]
            _remember_entry(instance, granule, entry)
        else:
            entry = instance.entry(granule)
        if entry.distinct is None:
            entry.distinct = _distinct(entry.pair[0])
        self.footprint.setdefault((self.grid_interval, access.array), []).append((access, entry.distinct))

    def rows_for_blocks(self, step: tuple) -> list:
        """For a batch's plan entry (with its `row_recorder`) whose rows are kept for comparing blocks:
        per row, what `keep_for_blocks` finds for the row's instance, (words, threads, distinct words,
        pieces), found for all rows at once: one division of the whole table of addresses, and one
        comparison telling which rows rise strictly (a coalesced access: its words are its distinct
        words), instead of a few numpy calls per row. None for a row that not every thread reaches
        (its footprint then leaves out threads: left to `Instance.entry`)."""
        _, addresses, reached, _, nonempty, recorder = step
        access = recorder[0]
        granule = self.granules.get(access.array, 4)
        pieces = _pieces(access, granule)
        count, size = reached.shape
        full = _ALL(reached, axis=1)
        threads = _every_thread(size)
        if pieces == 1:
            words = addresses // granule
        else:
            words = ((addresses[:, :, None] + granule * np.arange(pieces)) // granule).reshape(count, -1)
            threads = np.repeat(threads, pieces)
        rising = _ALL(words[:, 1:] > words[:, :-1], axis=1) if words.shape[1] > 1 else np.zeros(count, dtype=bool)
        rows: list = [None] * count
        for trip in (full & nonempty).nonzero()[0].tolist():
            row = words[trip]
            rows[trip] = (row, threads, row if rising[trip] else _unique(row), pieces)
        return rows

    def address_trusted(self, event: Event) -> bool:
        """`trusted` for the event's access, asked once per event (the shapes are the kernel's)."""
        trusted = event.trusted
        if trusted is None:
            trusted = event.trusted = self.trusted(event.record)
        return trusted

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
        if not _count_nonzero(reached):     # (cheaper than reached.any(), a reduction)
            return
        reason = self.divergence_reason(step, live, reached)
        if reason:
            self.found.divergent.setdefault((barrier.line, barrier.column),
                                            DivergentBarrier(barrier.line, barrier.column, reason))
        for exit_, count, symbolic in self.exited:
            key = (exit_.line, exit_.column)
            if key not in self.found.returns:
                who = "some threads" if symbolic else f"{count} thread(s) of the block"
                self.found.returns[key] = ReturnBeforeBarrier(
                    exit_.line, exit_.column, barrier.line,
                    f"{who} return at line {exit_.line} before the barrier at line {barrier.line}, "
                    "which the other threads wait at")
        if barrier.kind in BLOCK_BARRIERS or barrier.kind == GRID_BARRIER:
            self.close_interval(barrier)
        if barrier.kind == GRID_BARRIER:
            self.grid_interval += 1

    def divergence_reason(self, step: Step, live, reached) -> str | None:
        for condition in step.unknown:
            if condition.line in self.exit_lines:
                continue
            if condition.expr.thread_dependent:
                return f"under the thread-dependent condition at line {condition.line}"
        for loop in step.loops:
            return f"inside the loop at line {loop.line}, whose trip count depends on the thread"
        if _reaches_all(reached, live, self.everyone):
            return None
        record = step.event.record
        if record.kind == "cg_sync" and not self.splits_a_group(live, reached, self.space.warp):
            return None     # may be a warp tile's sync(), which whole warps may skip
        if record.kind == "tile_sync" and \
                not self.splits_a_group(live, reached, self.space.linear // self.tile_size(step, record)):
            return None     # whole tiles may skip their own sync()
        missing = int(_count_nonzero(live & ~reached))
        if step.loop_partial:
            return f"{missing} of {int(live.sum())} threads skip it: the enclosing loop runs a " \
                   "thread-dependent number of iterations"
        lines = sorted({c.line for c in step.event.record.context.conditions})
        where = f"the condition at line {lines[-1]}" if lines else "control flow"
        return f"{missing} of {int(live.sum())} threads skip it: {where} differs between threads"

    def splits_a_group(self, live, reached, group: np.ndarray) -> bool:
        skipped = live & ~reached
        return bool(np.any(np.isin(group[skipped], group[reached & live])))

    def tile_size(self, step: Step, record) -> int:
        """Lanes in a tile sync's group: a whole warp, or the popcount of its lane mask."""
        masks = per_thread(record.mask, step.env, self.space.size) if record.mask is not None else None
        if masks is None:
            return WARP_SIZE
        return max(1, bin(int(np.asarray(masks).flat[0]) & FULL_MASK).count("1"))

    def early_return(self, step: Step, record) -> None:
        leaving = step.mask
        symbolic = any(c.expr.thread_dependent for c in step.unknown)
        if symbolic:
            self.exited.append((record, 0, True))
            return
        count = int(_count_nonzero(leaving))
        if count and np.any(self.alive & ~leaving):
            self.exited.append((record, count, False))
        self.alive = self.alive & ~leaving

    def atomic(self, step: Step, access) -> None:
        if not _count_nonzero(step.mask):
            return
        addresses = per_thread(access.address, step.env, self.space.size)
        if addresses is None:
            return
        addresses = np.asarray(addresses, dtype=np.int64)
        self.bind_atomic_result(step, access, addresses)
        worst = _most_lanes_on_one_address(addresses, step.mask, self.space)
        if worst > 1:
            key = (access.line, access.column)
            old = self.found.contention.get(key)
            if old is None or old.lanes < worst:
                self.found.contention[key] = AtomicContention(access.array, access.line, access.column, worst,
                                                              bool(access.context.loops))

    def bind_atomic_result(self, step: Step, access, addresses: np.ndarray) -> None:
        """The old values an atomicAdd/Sub/Inc hands out, for the expressions that use them: each
        thread's, in thread order, after what earlier threads and blocks added to that address."""
        call = self.atomic_calls.get((access.line, access.column))
        if call is None or call.name not in SLOT_ATOMICS:
            return
        sign = SLOT_ATOMICS[call.name]
        if sign == 0:
            amounts = np.ones(self.space.size, dtype=np.int64)
        else:
            amounts = per_thread(call.args[0], step.env, self.space.size) if call.args else None
            if amounts is None:
                return
            try:
                amounts = sign * np.asarray(amounts, dtype=np.int64)
            except UNEVALUABLE:
                return
        active = step.mask.nonzero()[0]
        results = np.full(self.space.size, -1, dtype=np.int64)
        if GROUPED_ATOMICS:
            _hand_out_slots(access.array, addresses, amounts, active, results, self.found.atomic_totals)
        else:
            for address in np.unique(addresses[active]):
                threads = active[addresses[active] == address]
                key = (access.array, int(address))
                base = self.found.atomic_totals.get(key, 0)
                running = np.cumsum(amounts[threads])
                results[threads] = base + running - amounts[threads]
                self.found.atomic_totals[key] = base + int(running[-1])
        step.env[f"{call.name}@{access.line}:{access.column}"] = results

    def check_mask(self, step: Step, record, name: str, mask_expr) -> None:
        key = (record.line, record.column)
        if key in self.found.mismatches:
            return
        self.check_masks(step, record, name, self.lane_masks(mask_expr, step.env))

    def check_masks(self, step: Step, record, name: str, masks) -> None:
        """`check_mask` with the lane masks evaluated (None: unknown)."""
        key = (record.line, record.column)
        if masks is None or key in self.found.mismatches:
            return
        for condition in step.unknown:
            if condition.expr.thread_dependent and condition.line not in self.exit_lines:
                self.found.mismatches[key] = MaskMismatch(
                    name, record.line, record.column,
                    f"{name} with mask {_hex(masks[step.mask][0]) if np.any(step.mask) else '?'} under the "
                    f"thread-dependent condition at line {condition.line}: lanes named in the mask may not "
                    "get here")
                return
        problem = self.mask_problem(record, masks, step.mask)
        if problem:
            self.found.mismatches[key] = MaskMismatch(name, record.line, record.column, f"{name}: {problem}")

    def lane_masks(self, mask_expr, env):
        """A warp intrinsic's lane mask per thread (its low 32 bits), None when unknown; the same
        array again for the same values (through the memo), so that `mask_problem` knows it."""
        if mask_expr is None:
            return _full_masks(self.space.size)
        # (`also` keeps these entries apart from the expression's plain values, `per_thread`'s)
        return self.memo.recall(mask_expr, env, self.block, self.evaluate_lane_masks, mask_expr, env,
                                also=_full_masks)

    def evaluate_lane_masks(self, mask_expr, env):
        masks = per_thread(mask_expr, env, self.space.size)
        return None if masks is None else np.asarray(masks, dtype=np.int64) & FULL_MASK

    def mask_problem(self, record, masks, active):
        """`_mask_problem` for the intrinsic `record`, which a loop executes again and again with the
        same masks and the same threads: the last answer is kept, with what it was asked of."""
        last = self.mask_checks.get(id(record))
        alive = self.alive
        if last is not None and last[0] is record and last[3] is alive and \
                (last[1] is masks or _equal(last[1], masks)) and (last[2] is active or _equal(last[2], active)):
            return last[4]
        problem = _mask_problem(masks, active, alive, self.space)
        self.mask_checks[id(record)] = (record, masks, active, alive, problem)
        return problem

    # -- intervals -------------------------------------------------------------------------------
    def close_interval(self, barrier) -> None:
        current = self.interval
        # a race needs a write: most intervals have none in one of the two spaces, and in a batch's
        # intervals every written array is often screened already as one no two threads share a
        # word of (`interval_screens`), where the race checks would stop at once
        written = {i.access.space for i in current if i.writes}
        if written and self.unshared:
            written = self.spaces_left_to_check(current)
        for memory, races in (("shared", self.found.races), ("global", self.found.global_races)):
            if memory in written:
                unshared = frozenset(array for space, array in self.unshared if space == memory) \
                    if self.unshared else _NOTHING
                for race in races_within(current, self.space, memory, races, unshared):
                    races.setdefault((race.array, race.first_line, race.second_line), race)
        if self.previous is not None:
            self.check_barrier(self.previous, current)
        if self.found.captures and barrier is not None:
            for capture in self.found.captures:
                capture.closes.append((current, barrier))
        self.previous = (current, barrier) if barrier is not None else None
        self.unshared = _NOTHING
        self.interval = []
        self.unknown_in_interval = set()

    def check_barrier(self, previous: tuple, current: list) -> None:
        """Whether the barrier of `previous` ((the interval before it, it)) orders a conflict between
        that interval and `current`, the one after it, kept in `barrier_needed`."""
        before, between = previous
        key = (between.line, between.column)
        # needed once is needed for good: a barrier in a loop is not checked again each iteration
        if not self.found.barrier_needed.get(key, False):
            self.found.barrier_needed[key] = between.kind in VALUE_BARRIERS or \
                _hazard_across(before, current, self.space)

    def spaces_left_to_check(self, current: list) -> set:
        """The memories written in the interval `current` outside the arrays the screen cleared
        (`unshared`), the only ones whose race checks could find anything."""
        unshared = self.unshared
        return {i.access.space for i in current if i.writes and (i.access.space, i.access.array) not in unshared}


# ------------------------------------------------------------------------------------- pair checks

def races_within(instances: list[Instance], space: ThreadSpace, memory: str = "shared", recorded=(),
                 unshared=frozenset()):
    """Racing access pairs of one barrier interval in shared (or global) memory. A vectorised pass
    over every (word, thread) touch finds the words that race at all; only the accesses touching
    them are compared pairwise, to name the two source lines. Global accesses count only where
    they are certain to execute (not under a condition that reads memory). A pair whose race is
    already `recorded` ((array, first line, second line), as the caller keeps them: a loop or
    another block found it) is not compared again; nor are the accesses to the `unshared` arrays, known
    to have no word that two threads touch."""
    groups, written = _compared_groups(instances, memory)
    for array, group in groups.items():
        if array not in written or array in unshared or not _shared_by_threads(group):
            continue
        if NO_PAIR_TO_NAME and _names_no_pair(group, recorded):
            continue    # (the tables below would only lead to pairs the loop skips)
        table = _touches(group, space)
        racy = _racy_words(table)
        if not racy.size:
            continue
        involved = set(_unique(table["instance"][np.isin(table["word"], racy)]).tolist())
        # Naming the racing pairs is quadratic; a generated kernel with thousands of accesses in one
        # interval gets its races named among the first accesses only (that it races is known).
        candidates = [instance for k, instance in enumerate(group) if k in involved]
        if len(candidates) > MAX_PAIRWISE_CANDIDATES:
            candidates = candidates[:MAX_NAMED_CANDIDATES]
        named: set = set()    # a loop repeats its accesses: one race per pair of source positions
        for a_index, first in enumerate(candidates):
            for second in candidates[a_index:]:
                where = (first.access.line, first.access.column, second.access.line, second.access.column,
                         first is second)
                if where in named or _pair_never_named(first, second, recorded):
                    continue
                if not (first.writes or second.writes) or (first is second and not first.writes):
                    continue
                scope = _conflict(first, second, space, ordered_by_syncwarp=True)
                if scope:
                    named.add(where)
                    yield _race(first, second, scope, memory)


def _pair_never_named(first, second, recorded) -> bool:
    """Whether `races_within` names no race for the pair whatever its tables find: the race of its
    two source lines is `recorded` already (a loop or another block found it), both are atomics
    (atomic pairs are not races), or it is one instance's store of a value every thread agrees on
    (its writers agree)."""
    access = first.access
    if (access.array, access.line, second.access.line) in recorded:
        return True
    if access.op == "atomic" and second.access.op == "atomic":
        return True
    return first is second and _stores_uniform_value(access)


def _names_no_pair(group: list, recorded) -> bool:
    """Whether `races_within` names no pair of a group whatever its tables find, for a group of one
    access's instances. Most such groups are one store of a uniform value (`*total = 0` by every
    thread), where two threads do share a word and the tables would be built for nothing. Groups of
    several accesses are left to the naming loop."""
    access = group[0].access
    for instance in group:
        if instance.access is not access:
            return False
    # Every pair is of this one access, so the recorded and atomic rules decide all pairs alike;
    # the uniform-store rule covers only an instance paired with itself, which is every pair of a
    # group of one. (group[0], group[-1]) is that self pair for one instance, two instances else.
    return _pair_never_named(group[0], group[-1], recorded)


def _compared_groups(instances: list, memory: str) -> tuple:
    """(array -> the instances the race checks compare, in order; the arrays one of them writes) for
    one memory: those with a known address and, in global memory, certain to execute. One pass
    where a filter, a grouping and a look for a write per group were three."""
    groups: dict = {}
    written: set = set()
    shared = memory == "shared"
    for instance in instances:
        access = instance.access
        if access.space != memory or instance.addresses is None or not (shared or instance.certain):
            continue
        array = access.array
        group = groups.get(array)
        if group is None:
            groups[array] = [instance]
        else:
            group.append(instance)
        if instance.writes:
            written.add(array)
    return groups, written


def _hazard_across(before: list[Instance], after: list[Instance], space: ThreadSpace) -> bool:
    """Whether some thread's access before a barrier conflicts with another thread's after it."""
    # (each side grouped by array once: a filter of `after` per array cost a pass per group)
    after_by_array = _array_groups(after)
    for array, group in _array_groups(before).items():
        later = after_by_array.get(array)
        if later is None:
            continue
        both = group + later
        if not _any_writes(both):
            continue
        if _any_unknown_address(both):
            return True     # cannot rule it out
        granule = _granule(both)
        footprints = _touching(both, granule)
        words = np.concatenate([w for w, _ in footprints])
        dense = _dense_slots(words) if HAZARD_OWNERS and words.size else None
        if dense is not None:
            # (no need to ask first whether two threads share a word at all: the owners' test
            # answers that on the way, for less than asking)
            if _meets_by_owners(dense, np.concatenate([t for _, t in footprints]), footprints, both, len(group)):
                return True
        elif _two_threads_among(footprints, both[0].shared) and \
                _meets_by_rows(words, np.concatenate([t for _, t in footprints]), footprints, both, len(group)):
            return True
    return False


def _meets_by_rows(words: np.ndarray, thread: np.ndarray, footprints: list, both: list, before: int) -> bool:
    """Whether a conflicting pair of rows across the barrier meets on a word with two different
    threads among them (`_hazard_across`): the first `before` of the instances `both` (with their
    `footprints`) are before it. Row selections over the whole table, for any spread of words."""
    sizes = [w.size for w, _ in footprints]
    kinds = np.repeat(np.array([_KIND.get(i.access.op, ATOMIC) for i in both], dtype=np.int64), sizes)
    side = np.repeat(np.arange(len(both)) >= before, sizes)
    meet = _meeting(words, thread)
    write, atomic = kinds == STORE, kinds == ATOMIC
    # (rows before, rows after) that conflict; atomics only against loads, and most tables have none
    pairs = [lambda: (write & ~side, side), lambda: (write & side, ~side)]
    if atomic.any():
        load = kinds == LOAD
        pairs += [lambda: (atomic & ~side, load & side), lambda: (load & ~side, atomic & side)]
    for pair in pairs:
        if meet(*pair()):
            return True
    return False


def _meets_by_owners(dense: tuple, thread: np.ndarray, footprints: list, both: list, before: int) -> bool:
    """`_meets_by_rows` for words within a dense span (`dense`: the table's words as slots and the
    span). The instances of one side and kind are consecutive rows or a few pieces of them, so a
    pair's two sets of rows are views, not selections over the table, and `_owners_meet` decides
    most pairs with one comparison over the span."""
    slots, span = dense
    ends = list(accumulate([w.size for w, _ in footprints]))   # (np.cumsum of a list converts it first)
    starts = [0] + ends[:-1]
    kinds = [_KIND.get(i.access.op, ATOMIC) for i in both]

    def rows(chosen: list) -> tuple:
        """(slots, threads) of the chosen instances' rows."""
        pieces = []     # [start, end) runs of rows
        for k in chosen:
            if pieces and pieces[-1][1] == starts[k]:
                pieces[-1][1] = ends[k]
            else:
                pieces.append([starts[k], ends[k]])
        if len(pieces) == 1:
            low, high = pieces[0]
            return slots[low:high], thread[low:high]
        return (np.concatenate([slots[low:high] for low, high in pieces]),
                np.concatenate([thread[low:high] for low, high in pieces]))

    def of(side: range, kind) -> list:
        return [k for k in side if kind is None or kinds[k] == kind]

    first, second = range(before), range(before, len(both))
    # (rows before, rows after) that conflict: a store against anything, an atomic against a load
    pairs = [(of(first, STORE), of(second, None)), (of(second, STORE), of(first, None))]
    if ATOMIC in kinds:
        pairs += [(of(first, ATOMIC), of(second, LOAD)), (of(first, LOAD), of(second, ATOMIC))]
    for x, y in pairs:
        if x and y and _owners_meet(*rows(x), *rows(y), span):
            return True
    return False


def _owners_meet(slots_x, threads_x, slots_y, threads_y, span: int) -> bool:
    """Whether some word (slot below `span`) is touched by a row of x and a row of y with two different
    threads among x's and y's rows on it. The x side remembers one thread per slot (the last written
    wins). A y row on a slot x touches whose thread is not the one remembered there is such a word
    (the usual conflict, found in one pass over y's rows); when there is none, every y row on a
    shared word has x's remembered thread, and two threads meet there only if x's own rows put a
    second one on it."""
    if not slots_x.size or not slots_y.size:
        return False
    if SAME_ROWS_APART and _same_rising_rows(slots_x, threads_x, slots_y, threads_y):
        return False    # (a tile read back by the threads that wrote it: three selections over it saved)
    owner = np.full(span, -1, dtype=threads_x.dtype)
    owner[slots_x] = threads_x
    met = owner[slots_y]
    touched = met >= 0
    if _count_nonzero(touched & (met != threads_y)):
        return True
    if not _count_nonzero(touched):
        return False    # no word both sides touch
    second = owner[slots_x] != threads_x    # x's rows whose thread is not the one remembered
    if not _count_nonzero(second):
        return False
    in_y = np.zeros(span, dtype=bool)
    in_y[slots_y] = True
    return bool(_count_nonzero(in_y[slots_x[second]]))


def _same_rising_rows(slots_x, threads_x, slots_y, threads_y) -> bool:
    """Whether both sides are the same rows, slots and threads, and the slots rise strictly: every
    word is then touched by one thread, the same on both sides, and `_owners_meet` is False. (The
    shape is compared first: most pairs of sides differ in size.)"""
    return slots_x.shape == slots_y.shape and _equal(slots_x, slots_y) and _equal(threads_x, threads_y) and \
        _rising(slots_x)


def _any_unknown_address(instances) -> bool:
    """Whether one of the instances has an unknown address (a loop for the reason `_certain` gives)."""
    for instance in instances:
        if instance.addresses is None:
            return True
    return False


# Words of one array's touches, offset to their smallest, index a scratch array when they span at
# most this many (or four per touch): every shared array fits; wider global footprints are sorted.
DENSE_SPAN = 1 << 16


def _dense_slots(words: np.ndarray):
    """(words as offsets into a scratch array, its length), or None when they span too far."""
    low = int(_MINIMUM(words))
    span = int(_MAXIMUM(words)) - low + 1
    if span > max(DENSE_SPAN, 4 * words.size):
        return None
    return words - low, span


def _two_threads_on_a_word(words: np.ndarray, threads: np.ndarray) -> bool:
    """Whether two different threads touch one word. Every race and hazard needs that; an interval
    whose threads each keep to their own slots is ruled out here instead of by the grouped table.
    Each word remembers one thread that touched it (the last written wins); a touch by any other
    thread then differs from it."""
    if words.size < 2:
        return False
    if _rising(words):
        return False    # every word once (a coalesced access, or rows of distinct slots in order)
    dense = _dense_slots(words)
    if dense is None:
        order = np.argsort(words)
        words, threads = words[order], threads[order]
        # within a run of equal words, two different threads are adjacent somewhere
        return bool(_count_nonzero((words[1:] == words[:-1]) & (threads[1:] != threads[:-1])))
    slots, span = dense
    owner = np.empty(span, dtype=threads.dtype)
    owner[slots] = threads
    return bool(_count_nonzero(owner[slots] != threads))


def _rising_words(footprint: tuple) -> bool:
    """_rising of a (words, threads) footprint's words."""
    return _rising(footprint[0])


def _rising(words: np.ndarray) -> bool:
    """Whether the words rise strictly, so that none is touched twice."""
    return not _count_nonzero(words[1:] <= words[:-1])


def _meeting(words: np.ndarray, threads: np.ndarray):
    """meet(x, y): whether some word is touched by a row of x and a row of y with two different
    threads among those rows (rows: touches, x and y boolean selections of them)."""
    dense = _dense_slots(words) if words.size else None
    if dense is None:
        starts, table = _grouped({"word": words, "thread": threads}, ("word",))
        order, thread = table["order"], table["thread"]
        return lambda x, y: bool(np.any(_pair_exists(starts, x[order], y[order], thread)))
    slots, span = dense

    def meet(x, y) -> bool:
        in_x = np.zeros(span, dtype=bool)
        in_x[slots[x]] = True
        in_y = np.zeros(span, dtype=bool)
        in_y[slots[y]] = True
        rows = (x | y) & (in_x & in_y)[slots]
        if not _count_nonzero(rows):
            return False
        return _two_threads_on_a_word(slots[rows], threads[rows])

    return meet


LOAD, STORE, ATOMIC = 0, 1, 2
_KIND = {"load": LOAD, "store": STORE}     # anything else is an atomic
MAX_PAIRWISE_CANDIDATES = 256   # beyond this many racing accesses in one interval, name pairs among
MAX_NAMED_CANDIDATES = 48       # the first ones only


def _array_groups(instances) -> dict:
    """array -> its instances, in order (the arrays in the order they first appear)."""
    groups: dict = {}
    for instance in instances:
        array = instance.access.array
        group = groups.get(array)
        if group is None:
            groups[array] = [instance]
        else:
            group.append(instance)
    return groups


def _granule(group: list[Instance]) -> int:
    """The word size the accesses of one array are compared in: 4 bytes, less for narrower elements."""
    return min([4] + [i.access.elem_bytes or 4 for i in group])


def _shared_by_threads(group: list[Instance]) -> bool:
    """Whether two different threads touch one word of the group's array."""
    return _two_threads_among(_touching(group, _granule(group)), group[0].shared)


def _two_threads_among(footprints: list, shared: Footprints | None) -> bool:
    """Whether two different threads touch one word among the (words, threads) `footprints`. One
    that several instances share (the same object, see `_touching`) counts once: its rows only
    repeat. A footprint met alone is asked once per analysis (`shared`, when given, keeps the
    answer)."""
    distinct = list({id(pair): pair for pair in footprints}.values())
    if len(distinct) == 1:
        pair = distinct[0]
        known = shared.alone.get(id(pair)) if shared is not None else None
        if known is not None and known[0] is pair:
            return known[1]
        answer = _two_threads_on_a_word(*pair)
        if shared is not None:
            shared.remember_alone(pair, answer)
        return answer
    if SPANS_APART and len(distinct) <= MAX_APART and _apart(distinct, shared):
        return False
    return _two_threads_on_a_word(np.concatenate([words for words, _ in distinct]),
                                  np.concatenate([threads for _, threads in distinct]))


def _apart(footprints: list, shared: Footprints | None) -> bool:
    """Whether the (words, threads) `footprints` are known to touch every word with one thread
    only without looking at their rows together: each touches each of its words once (its words
    rise strictly, as a coalesced access's do) and their ranges of words do not overlap, but for
    footprints equal in both words and threads (a load and a store of one element in two
    statements), whose rows only repeat. False says nothing. The ranges are read off the first
    and last words and checked first: most footprints that fail, fail there."""
    spans = sorted(((int(pair[0][0]), int(pair[0][-1]), k) for k, pair in enumerate(footprints) if pair[0].size))
    repeats = []
    for (low, high, k), (next_low, next_high, j) in zip(spans, spans[1:]):
        if next_low <= high:
            if next_low != low or next_high != high:
                return False
            repeats.append((k, j))
    if not all(shared.rising(footprints[k]) if shared is not None else _rising(footprints[k][0])
               for _, _, k in spans):
        return False
    return all(_equal_pairs(footprints[k], footprints[j]) for k, j in repeats)


def _equal_pairs(pair: tuple, other: tuple) -> bool:
    return (pair[0] is other[0] or _equal(pair[0], other[0])) and (pair[1] is other[1] or _equal(pair[1], other[1]))


def _touches(group: list[Instance], space: ThreadSpace) -> dict:
    """One row per (instance, thread, word touched): the columns the race rules group by."""
    granule = _granule(group)
    columns = {"word": [], "thread": [], "epoch": []}
    for instance in group:
        words, threads = instance.footprint(granule)
        columns["word"].append(words)
        columns["thread"].append(threads)
        columns["epoch"].append(instance.epochs[threads])
    table = {name: np.concatenate(parts) if parts else np.zeros(0, np.int64) for name, parts in columns.items()}
    sizes = [words.size for words in columns["word"]]
    table["kind"] = np.repeat(np.array([_KIND.get(i.access.op, ATOMIC) for i in group], dtype=np.int64), sizes)
    table["instance"] = np.repeat(np.arange(len(group), dtype=np.int64), sizes)
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
    return _unique(np.concatenate(found))


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
        ordered = first.epochs[u] != second.epochs[v]
        if first.tile_epochs is not None and second.tile_epochs is not None:
            width = np.minimum(first.tile_width[u], second.tile_width[v])
            same_tile = space.linear[u] // width == space.linear[v] // width
            ordered |= same_tile & (first.tile_epochs[u] != second.tile_epochs[v])
        racing &= ~(same_warp & ordered)
    if not np.any(racing):
        return None
    return "block" if np.any(racing & ~same_warp) else "warp"


def _race(first: Instance, second: Instance, scope: str, memory: str = "shared") -> SharedRace:
    """`first` executed before `second`: the kind follows execution order, which for a pair carried
    around a loop is the reverse of source order."""
    a, b = first.access, second.access
    kind = "WAW" if first.writes and second.writes else "RAW" if first.writes else "WAR"
    if first is second and first.writes:
        return _one_store_race(a, scope)
    fix = "__syncwarp()" if scope == "warp" else "__syncthreads()"
    who = "another lane of the same warp" if scope == "warp" else "another thread"
    if (a.line, a.column) == (b.line, b.column):
        message = f"{kind} race on {a.array}: threads at line {a.line} write slots that other threads of the " \
                  f"same access also write, with no {fix} between them"
    else:
        later = " in the next iteration" if _walk_position(b) < _walk_position(a) else ""
        did = "read" if kind == "WAR" else "stored"
        does = "reads" if kind == "RAW" else "overwrites"
        message = f"{kind} race on {a.array}: line {b.line}{later} {does} what {who} {did} at line {a.line}, " \
                  f"with no {fix} in between"
    if memory == "global":
        message += " (a barrier orders global memory only inside a block; where other blocks share the " \
                   "data, write to a separate output array)"
    return SharedRace(a.array, kind, a.line, a.column, b.line, b.column, scope, message)


def _one_store_race(access, scope: str) -> SharedRace:
    """Lanes of one store instruction writing one address: they write at the same moment, so
    neither __syncwarp nor __syncthreads can order them; only fewer writers can."""
    who = "lanes of one warp" if scope == "warp" else "threads"
    message = f"WAW race on {access.array}: several {who} store to the same address at line {access.line} in " \
              "one statement, and no barrier can order them: let one thread store (e.g. under " \
              "`if (threadIdx.x % 32 == 0)`), give each thread its own slot, or combine the values first " \
              "(a warp reduction with __shfl_down_sync, or an atomic)"
    return SharedRace(access.array, "WAW", access.line, access.column, access.line, access.column, scope, message,
                      one_store=True)


def _block_pair_races(footprints: list, blocks: list, pairs_cap: int = 4096) -> list:
    """Global-memory races between threads of different blocks: a word one block writes that
    another block reads or writes in the same grid interval (between grid-wide barriers); atomic
    pairs excepted. At most `pairs_cap` access pairs are compared, in order (block pair, array,
    then the first block's accesses and the second's, in execution order); which of them share a
    word, and which are compared at all, is found for all pairs of one array at once. Only the
    pairs whose ranges of words overlap are intersected: blocks mostly keep to their own ranges.
    Which block pairs have such a pair at all is found for every pair of blocks of an array at once
    where the blocks ran the same accesses on it (PAIRS_AT_ONCE, `_meeting_blocks`)."""
    found: dict = {}
    checked = 0
    uniform: dict = {}      # id(access) -> whether it stores one value for the whole grid
    compared_for: dict = {}     # (kinds of the firsts' and the seconds' accesses) -> (`_compared_pairs`, how many)
    sides = _BlockSides(footprints)
    meeting_for: dict = {}      # key -> `_meeting_blocks` (None: asked pair by pair)
    for x in range(len(footprints)):
        for y in range(x + 1, len(footprints)):
            # in the first footprint's order: a set's order follows string hashing, which changes
            # between processes, and would change which pairs the cap leaves out
            for key in [k for k in footprints[x] if k in footprints[y]]:
                firsts, seconds = footprints[x][key], footprints[y][key]
                kind_x, low_x, high_x, lowest_x, highest_x = sides.of(x, key)
                kind_y, low_y, high_y, lowest_y, highest_y = sides.of(y, key)
                known = compared_for.get((kind_x, kind_y))
                if known is None:
                    compared = _compared_pairs([a for a, _ in firsts], [a for a, _ in seconds], uniform)
                    known = compared_for[(kind_x, kind_y)] = (compared, int(_count_nonzero(compared)))
                compared, count = known
                if not count:
                    continue
                room = pairs_cap - checked
                if NO_MEETING_FIRST and (lowest_x > highest_y or lowest_y > highest_x):
                    # (blocks mostly keep to their own ranges: when the two blocks' whole ranges
                    # are apart, no two of their accesses' ranges meet)
                    rows = ()
                elif PAIRS_AT_ONCE and not _blocks_meet(meeting_for, key, sides, compared_for, x, y):
                    rows = ()   # (as the reduction below would find: the cap only takes candidates away)
                else:
                    # two sets of words meet only where their ranges overlap
                    candidates = compared & _spans_meet(low_x, high_x, low_y, high_y)
                    if count > room:
                        # the pairs after the first `room` compared ones are not compared
                        candidates &= (np.cumsum(compared.reshape(-1)) <= room).reshape(compared.shape)
                    # (one reduction tells that nothing meets, where the rows and columns holding
                    # candidates take four calls)
                    if NO_MEETING_FIRST and not candidates.any():
                        rows = ()
                    else:
                        rows, columns = candidates.any(axis=1).nonzero()[0], candidates.any(axis=0).nonzero()[0]
                if len(rows):
                    meeting = np.zeros_like(candidates)
                    meeting[np.ix_(rows, columns)] = candidates[np.ix_(rows, columns)] & _sharing_words(
                        [firsts[i] for i in rows.tolist()], [seconds[j] for j in columns.tolist()])
                    for i, j in zip(*np.nonzero(meeting)):      # in the order the pairs are compared
                        first, second = firsts[i][0], seconds[j][0]
                        a, b = (second, first) if _walk_position(second) < _walk_position(first) else (first, second)
                        if (a.array, a.line, b.line) not in found:      # the race _between_blocks would name
                            race = _between_blocks(first, second, blocks[x], blocks[y])
                            found[(race.array, race.first_line, race.second_line)] = race
                if count > room:
                    return list(found.values())
                checked += count
    return list(found.values())


class _BlockSides(dict):
    """What `_block_pair_races` asks of one block's accesses to one key (grid interval, array), found
    once per block and key: (block, key) -> (a number for the accesses, by identity and in order,
    the same for two blocks that ran the same ones; each access's lowest and highest word; the
    lowest and highest of them all, see `_word_spans`)."""

    def __init__(self, footprints: list):
        super().__init__()
        self.footprints = footprints
        self.kinds: dict = {}       # the accesses' ids, in order -> their number

    def of(self, block: int, key) -> tuple:
        side = self.get((block, key))
        if side is None:
            footprint = self.footprints[block][key]
            ids = tuple([id(access) for access, _ in footprint])
            kind = self.kinds.setdefault(ids, len(self.kinds))
            side = self[(block, key)] = (kind,) + _word_spans(footprint)
        return side


def _blocks_meet(meeting_for: dict, key, sides: _BlockSides, compared_for: dict, x: int, y: int) -> bool:
    """Whether blocks x and y have a compared pair of accesses to `key` whose ranges of words meet
    (False only where that is known: a pair with none has no candidates to intersect), from
    `_meeting_blocks`, found once per key."""
    meeting = meeting_for.get(key, _ABSENT)
    if meeting is _ABSENT:
        meeting = meeting_for[key] = _meeting_blocks(key, sides, compared_for)
    if meeting is None:
        return True
    holders, table = meeting
    return table[holders[x]][holders[y]]


def _meeting_blocks(key, sides: _BlockSides, compared_for: dict):
    """({block: its row}, table[row of x][row of y]: whether blocks x and y have a compared pair of
    accesses to `key` whose word ranges overlap) for every pair of the blocks holding `key` at once,
    where they all ran the same accesses on it (one `_compared_pairs` then holds for every pair);
    None where they did not, where fewer than three blocks hold it (one pair: nothing to share) or
    where the table would be larger than MAX_PAIRS_TABLE."""
    holders = [block for block, footprint in enumerate(sides.footprints) if key in footprint]
    if len(holders) < 3:
        return None
    spans = [sides.of(block, key) for block in holders]
    kind = spans[0][0]
    if any(side[0] != kind for side in spans):
        return None
    known = compared_for.get((kind, kind))     # (the caller has just found it)
    size = len(spans[0][1])
    if known is None or len(holders) ** 2 * size * size > MAX_PAIRS_TABLE:
        return None
    low = np.array([side[1] for side in spans])      # [block, access] (np.stack is several Python calls)
    high = np.array([side[2] for side in spans])
    # [x, y, i, j]: x's access i and y's access j are compared and their ranges overlap (`_spans_meet`)
    meets = (low[:, None, :, None] <= high[None, :, None, :]) & (low[None, :, None, :] <= high[:, None, :, None])
    meets &= known[0]
    return {block: row for row, block in enumerate(holders)}, meets.any(axis=(2, 3)).tolist()


def _spans_meet(low_x, high_x, low_y, high_y) -> np.ndarray:
    """[i, j]: whether the ranges [low_x[i], high_x[i]] and [low_y[j], high_y[j]] overlap."""
    return (low_x[:, None] <= high_y[None, :]) & (low_y[None, :] <= high_x[:, None])


_NO_LOW, _NO_HIGH = int(np.iinfo(np.int64).max), int(np.iinfo(np.int64).min)


def _word_spans(footprint: list) -> tuple:
    """(lowest, highest) word of each access in one block's `footprint` of a key (its words are
    sorted and distinct, see `_distinct`; no words: a range that meets nothing), and the lowest and
    highest of them all (ints)."""
    lows = [int(words[0]) if words.size else _NO_LOW for _, words in footprint]
    highs = [int(words[-1]) if words.size else _NO_HIGH for _, words in footprint]
    return (np.array(lows, dtype=np.int64), np.array(highs, dtype=np.int64),
            min(lows, default=_NO_LOW), max(highs, default=_NO_HIGH))


def _compared_pairs(firsts: list, seconds: list, uniform: dict) -> np.ndarray:
    """[i, j]: whether access firsts[i] of one block and seconds[j] of another are compared: not two
    loads, not two atomics, and not one store of one value for the whole grid met by itself
    (`uniform` caches that per access)."""
    def flags(accesses, op):
        return np.array([access.op == op for access in accesses])

    compared = ~(flags(firsts, "load")[:, None] & flags(seconds, "load")[None, :])
    compared &= ~(flags(firsts, "atomic")[:, None] & flags(seconds, "atomic")[None, :])
    same = np.array([id(access) for access in firsts])[:, None] == np.array([id(access) for access in seconds])
    for i in same.any(axis=1).nonzero()[0].tolist():     # (the rows holding a same access, rising)
        access = firsts[i]
        stores_one = uniform.get(id(access))
        if stores_one is None:
            stores_one = uniform[id(access)] = _stores_uniform_value(access, across_blocks=True)
        if stores_one:
            compared[i] &= ~same[i]
    return compared


def _distinct(words: np.ndarray) -> np.ndarray:
    """_unique(words), without its sort when they already rise strictly (a coalesced access)."""
    if words.size < 2 or _count_nonzero(words[1:] <= words[:-1]):
        return _unique(words)
    return words


def _unique(values: np.ndarray) -> np.ndarray:
    """np.unique(values) of a 1-D array of integers: its distinct values, rising. np.unique gets
    there through several Python layers, and its first call in a process imports numpy.ma (numpy 2
    asks whether the array is masked): about 47 M instructions, which a fresh process analysing the
    realistic file or the real programs spent on nothing else (nothing else imports numpy.ma)."""
    ordered = values.copy()
    ordered.sort()
    if ordered.size < 2:
        return ordered
    starts = np.empty(ordered.size, dtype=bool)     # where each run of equal values starts
    starts[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    return ordered[starts]


def _sharing_words(firsts: list, seconds: list) -> np.ndarray:
    """[i, j]: whether the words of firsts[i] and seconds[j] (each unique) have one in common."""
    second_words = np.concatenate([words for _, words in seconds])
    second_of = np.repeat(np.arange(len(seconds)), [words.size for _, words in seconds])
    order = np.argsort(second_words, kind="stable")
    second_words, second_of = second_words[order], second_of[order]
    first_words = np.concatenate([words for _, words in firsts])
    first_of = np.repeat(np.arange(len(firsts)), [words.size for _, words in firsts])
    low = np.searchsorted(second_words, first_words, "left")
    counts = np.searchsorted(second_words, first_words, "right") - low
    meets = np.zeros((len(firsts), len(seconds)), dtype=bool)
    total = int(counts.sum())
    if total:
        starts = np.repeat(low - (np.cumsum(counts) - counts), counts)
        meets[np.repeat(first_of, counts), second_of[starts + np.arange(total)]] = True
    return meets


def _between_blocks(a, b, block_a, block_b) -> SharedRace:
    if _walk_position(b) < _walk_position(a):
        a, b, block_a, block_b = b, a, block_b, block_a
    writes_a, writes_b = a.op != "load", b.op != "load"
    kind = "WAW" if writes_a and writes_b else "RAW" if writes_a else "WAR"
    if (a.line, a.column) == (b.line, b.column):
        what = f"blocks {_block_name(block_a)} and {_block_name(block_b)} both store to one address of " \
               f"{a.array} at line {a.line}"
    else:
        what = f"line {b.line} in block {_block_name(block_b)} {'reads' if kind == 'RAW' else 'writes'} an element " \
               f"of {a.array} that line {a.line} in block {_block_name(block_a)} " \
               f"{'reads' if kind == 'WAR' else 'writes'}"
    message = f"{kind} race on {a.array} between blocks: {what}, and nothing orders blocks within a launch " \
              "(__syncthreads() does not): write to a separate output array, let one block own each " \
              "element, use an atomic, or split the kernel (or a cooperative grid sync) between the two"
    return SharedRace(a.array, kind, a.line, a.column, b.line, b.column, "grid", message)


def _block_name(index) -> str:
    x, y, z = index
    return str(x) if (y, z) == (0, 0) else f"({x},{y},{z})"


def _walk_position(record) -> tuple:
    return (record.seq, record.line, record.column)


# `_walk_position` of an event's record, as a key in C (program_order sorts every kernel's records)
_EVENT_POSITION = attrgetter("record.seq", "record.line", "record.column")


def _hand_out_slots(array: str, addresses: np.ndarray, amounts: np.ndarray, active: np.ndarray, results: np.ndarray,
                    totals: dict) -> None:
    """`BlockRun.bind_atomic_result` for all addresses at once: the `active` threads sorted by
    address (stably: in thread order on each), each handed what the threads before it on its
    address added, after `totals` (what earlier executions added there, updated)."""
    if not active.size:
        return
    on = addresses[active]
    order = np.argsort(on, kind="stable")
    threads, on = active[order], on[order]
    amount = amounts[threads]
    starts = np.concatenate([[True], on[1:] != on[:-1]]).nonzero()[0]
    ends = np.append(starts[1:], threads.size)
    running = np.cumsum(amount)
    before = running[starts] - amount[starts]       # what the earlier addresses' threads added in all
    group = np.repeat(np.arange(starts.size), ends - starts)
    keys = [(array, address) for address in on[starts].tolist()]
    bases = [totals.get(key, 0) for key in keys]
    results[threads] = np.array(bases, dtype=np.int64)[group] + (running - amount - before[group])
    for key, base, added in zip(keys, bases, (running[ends - 1] - before).tolist()):
        totals[key] = base + added


def _most_lanes_on_one_address(addresses: np.ndarray, mask: np.ndarray, space: ThreadSpace) -> int:
    """The most active lanes of one warp on one address, over the warps with two or more active
    lanes (0 when there are none)."""
    if GROUPED_ATOMICS:
        active = mask.nonzero()[0]
        warp = space.warp[active]
        crowded = np.bincount(warp, minlength=space.warps)[warp] >= 2
        if not _count_nonzero(crowded):
            return 0
        warp, on = warp[crowded], addresses[active[crowded]]
        order = np.lexsort((on, warp))
        warp, on = warp[order], on[order]
        starts = np.concatenate([[True], (warp[1:] != warp[:-1]) | (on[1:] != on[:-1])]).nonzero()[0]
        return int(np.diff(np.append(starts, warp.size)).max())
    worst = 0
    for warp in range(space.warps):
        lanes = mask & (space.warp == warp)
        if _count_nonzero(lanes) < 2:
            continue
        _, counts = np.unique(addresses[lanes], return_counts=True)
        worst = max(worst, int(counts.max()))
    return worst


def _left_out_problem(masks: np.ndarray, space: ThreadSpace) -> str | None:
    """`_mask_problem` when every thread of the block calls (the usual case): every lane that has not
    exited is then present, so no mask can name an absent one, and the only problem left is a lane
    its own mask leaves out. Saves the per-warp tables and the gathers by the calling lanes."""
    left_out = ((masks >> space.lane) & 1) == 0
    problems = left_out.nonzero()[0]
    if not problems.size:
        return None
    first = int(problems[0])
    return _left_out_message(int(masks[first]), int(space.lane[first]), int(space.warp[first]))


def _left_out_message(mask: int, lane: int, warp: int) -> str:
    return f"lane {lane} of warp {warp} calls it with mask {_hex(mask)}, which leaves it out"


def _mask_problem(masks: np.ndarray, active: np.ndarray, alive: np.ndarray, space: ThreadSpace) -> str | None:
    """CUDA's rule for the *_sync intrinsics: each calling lane is in its mask, and every lane the mask
    names that has not exited executes the same call. Lanes past the block's end count as exited.
    Checked for all calling lanes at once; the problem named is the first calling lane's (in thread
    order) that has one."""
    calling = active.nonzero()[0]
    if not calling.size:
        return None
    if calling.size == active.size:
        return _left_out_problem(masks, space)
    bit = np.left_shift(np.int64(1), space.lane)
    present = _lanes_per_warp(np.where(active, bit, 0), space)
    waiting = _lanes_per_warp(np.where(alive, bit, 0), space) & ~present
    mask, lane, warp = masks[calling], space.lane[calling], space.warp[calling]
    left_out = ((mask >> lane) & 1) == 0
    names_absent = (mask & waiting[warp]) != 0
    problems = (left_out | names_absent).nonzero()[0]
    if not problems.size:
        return None
    first = int(problems[0])
    mask, lane, warp = int(mask[first]), int(lane[first]), int(warp[first])
    if left_out[first]:
        return _left_out_message(mask, lane, warp)
    return f"mask {_hex(mask)} names lanes {_lane_list(mask & int(waiting[warp]))} of warp {warp}, which do " \
           f"not execute this call (lanes here: {_hex(present[warp])})"


def _lanes_per_warp(bits: np.ndarray, space: ThreadSpace) -> np.ndarray:
    """Per warp, the OR of its threads' lane bits (each lane's bit is its own, so the OR is the sum)."""
    missing = space.warps * WARP_SIZE - space.size     # a last warp the block does not fill
    if missing:
        bits = np.concatenate([bits, np.zeros(missing, dtype=np.int64)])
    return bits.reshape(space.warps, WARP_SIZE).sum(axis=1)


# ------------------------------------------------------------------------------------------ helpers

def _value(expr, env):
    if expr is None:
        return None
    try:
        value = expr.evaluate(env)
    except UNEVALUABLE:
        return None
    try:
        return value.astype(np.int64) if isinstance(value, np.ndarray) else int(value)
    except UNEVALUABLE:
        return None


def _conjuncts(expr) -> list:
    if isinstance(expr, sx.Binary) and expr.op == "&&":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _stores_uniform_value(access, across_blocks: bool = False) -> bool:
    """A plain store of one value for every thread of the block (of the grid, `across_blocks`):
    its writers agree, so their overlap is benign."""
    value = access.stored
    if access.op != "store" or value is None or value.thread_dependent:
        return False
    if not across_blocks:
        return True
    return not value.has_load() and not (sx.free_names(value) & sx.BLOCK_SYMBOLS)


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

def _block_axes_read(kernel) -> set:
    """The blockIdx axes ("x", "y", "z") any condition, loop bound or address reads: along the
    others every block behaves alike, and one block stands for all."""
    expressions = [b.condition for b in kernel.branches] + [b.condition for b in kernel.early_returns]
    expressions += [e for loop in kernel.loops for e in (loop.start, loop.bound, loop.step) if e is not None]
    expressions += [a.address for a in kernel.accesses if a.space in ("shared", "global")]
    seen: set = set()     # ids of the tuples of conditions read (statements under one `if` share theirs)
    for records in (kernel.accesses, kernel.barriers, kernel.calls):
        for event in records:
            conditions = event.context.conditions
            if conditions and id(conditions) not in seen:
                seen.add(id(conditions))
                expressions += [c.expr for c in conditions]
    names = frozenset().union(*[sx.free_names(expr) for expr in expressions if expr is not None])
    return {name[-1] for name in names if name.startswith("blockIdx.")}


_SPACES: dict = {}


def _thread_space(block: tuple) -> ThreadSpace:
    """`thread_space`, built once per block shape: the executor only reads it (arrays included)."""
    space = _SPACES.get(block)
    if space is None:
        if len(_SPACES) >= 64:
            _SPACES.clear()
        space = _SPACES[block] = thread_space(block)
    return space


def _plain(kernel) -> bool:
    """No barrier, shared-memory access, atomic, fence or warp intrinsic: `_has_synchronization`
    without global stores. Executing such a kernel can only find global races and make notes."""
    if kernel.barriers:
        return False
    for access in kernel.accesses:
        if access.space == "shared" or access.op == "atomic":
            return False
    for call in kernel.calls:
        if call.name in FENCES or _is_warp_intrinsic(call.name):
            return False
    return True


def _plain_result(found: Findings) -> SyncResult:
    """The result of a plain kernel (`_plain`): only its global races and notes can be there."""
    return SyncResult(
        barriers=0, divergent_barriers=(), shared_races=(), global_races=_ordered(found.global_races, _BY_LINES),
        returns_before_barrier=(), redundant_barriers=(), mask_mismatches=(), atomic_count=0, atomics_in_loops=0,
        contention=(), fences=(), exact=not found.inexact, notes=tuple(found.inexact))


_BY_POSITION = attrgetter("line", "column")                  # (line, column): the order of sites and barriers
_BY_LINES = attrgetter("first_line", "second_line", "kind")  # the order of races


def _ordered(found: dict, key) -> tuple:
    """The findings of one kind in `key` order (ties as found); most kinds have none, and then no
    sort is called."""
    return tuple(sorted(found.values(), key=key)) if found else ()


def _redundant(block_barriers: list, found: Findings) -> tuple:
    """The block barriers no execution needed, as Sites in source order."""
    # a barrier in a loop that ran once here may still order one iteration against the next
    looped_once = {(b.line, b.column) for b in block_barriers
                   if any(found.loop_trips.get(id(loop), 0) < 2 for loop in b.context.loops)}
    positions = sorted({(b.line, b.column, b.kind) for b in block_barriers})
    return tuple(Site(f"__{kind}", line, column) for line, column, kind in positions
                 if found.barrier_needed.get((line, column)) is False and (line, column) not in looped_once)


def _has_synchronization(kernel) -> bool:
    """Whether there is anything for this analysis to look at: barriers, shared memory, atomics,
    warp intrinsics, fences (a kernel that is not `_plain`), or global memory that threads may share.
    Most element-wise kernels have none, and simulating their blocks would only confirm it."""
    return not _plain(kernel) or _may_share_global(kernel)


def _may_share_global(kernel) -> bool:
    """A global store: threads (of one block or of different blocks) may meet at its address."""
    for access in kernel.accesses:     # (a loop for the reason `_certain` gives)
        if access.space == "global" and access.op == "store":
            return True
    return False


def _blocks_without_grid(axes: set) -> list:
    """Block 0 and its neighbour along each axis the kernel reads: enough for races inside a block
    (blockIdx is uniform there) and for neighbours' overlaps between blocks."""
    blocks = [(0, 0, 0)]
    for k, axis in enumerate("xyz"):
        if axis in axes:
            blocks.append(tuple(1 if j == k else 0 for j in range(3)))
    return blocks


def _granules(kernel) -> dict:
    """Per global array, the word size its accesses are compared in between blocks: the narrowest
    element (bytes of different elements never race)."""
    sizes: dict = {}
    for access in kernel.accesses:
        if access.space == "global":
            sizes[access.array] = min(sizes.get(access.array, 4), max(1, access.elem_bytes or 4))
    return sizes


def analyze(kernel, block=(256, 1, 1), bindings: dict | None = None, grid=None,
            block_assumed: bool = False) -> SyncResult:
    """Synchronization facts for one kernel, for one block shape and the given scalar bindings
    (parameter name -> value). A grid (or `gridDim.x/y/z` bindings) makes every block's conditions
    concrete; without one, block 0 and its neighbours stand for all. `block_assumed`: the shape is a
    default, not the launch's; blocks are then not compared with each other, since where one
    block's elements end depends on the shape (`blockIdx.x * 64 + threadIdx.x` overlaps its
    neighbour in a 256-thread block)."""
    plain = _plain(kernel)
    if plain and not _may_share_global(kernel):    # (not `_has_synchronization`, its parts asked once)
        return SyncResult(barriers=0, divergent_barriers=(), shared_races=(), returns_before_barrier=(),
                          redundant_barriers=(), mask_mismatches=(), atomic_count=0, atomics_in_loops=0,
                          contention=(), fences=(), exact=True, notes=())
    plain = plain and PLAIN_SHORTCUTS
    bindings = {**kernel.template_bindings, **(bindings or {})}
    if grid is not None:
        bindings.update({f"gridDim.{axis}": int(size) for axis, size in zip("xyz", tuple(grid) + (1, 1))})
    space = _thread_space(tuple(block))
    events = program_order(kernel)
    mark_read_only(events)
    # (without loops the events are their own tree; the lines of exits only matter to barriers and
    # warp intrinsics, which a plain kernel has none of)
    flat = PLAIN_SHORTCUTS and not kernel.loops
    tree = events if flat else loop_tree(events)
    exit_lines = _NOTHING if plain else \
        {r.context.conditions[-1].line for r in kernel.early_returns if r.context.conditions}
    shapes = {array.name: array for array in kernel.shared_arrays}
    found = Findings()
    grid = _grid(bindings)
    base_env = {**bindings, **space.env}
    # (which blockIdx axes the kernel reads is asked only where blocks are compared: most kernels
    # come without a launch, and block 0 alone is executed)
    if grid is None and block_assumed:
        # nothing to compare blocks with: block 0 stands for the races inside a block
        found.note("grid unknown: block 0 executed, conditions on gridDim judged symbolically")
        blocks = [(0, 0, 0)]
    elif grid is None:
        found.note("grid unknown: block 0 and its neighbours executed, conditions on gridDim judged symbolically")
        blocks = _blocks_without_grid(_block_axes_read(kernel))
    elif _block_axes_read(kernel):
        blocks = _blocks(grid)
    else:
        # every block does the same: two of them show whether they collide
        blocks = _blocks(grid)[:2]
    atomic_calls = {} if plain else {(c.line, c.column): c for c in kernel.calls if c.name.startswith("atomic")}
    granules = _granules(kernel) if not block_assumed else None    # (None: blocks are not compared)
    memo = Memo(_NOTHING if flat else varying_names(tree))
    for index in blocks:
        env = {**base_env, "blockIdx.x": index[0], "blockIdx.y": index[1], "blockIdx.z": index[2]}
        BlockRun(tree, space, env, exit_lines, shapes, found, atomic_calls, granules, memo).run()
    if block_assumed:
        found.note("block shape assumed: blocks not compared with each other")
    else:
        for race in _block_pair_races(found.block_footprints, blocks):
            found.global_races.setdefault((race.array, race.first_line, race.second_line), race)
    if plain:
        return _plain_result(found)

    block_barriers = [b for b in kernel.barriers if b.kind in BLOCK_BARRIERS]
    atomics = [a for a in kernel.accesses if a.op == "atomic"]
    return SyncResult(
        barriers=len(block_barriers),
        divergent_barriers=_ordered(found.divergent, _BY_POSITION),
        shared_races=_ordered(found.races, _BY_LINES),
        global_races=_ordered(found.global_races, _BY_LINES),
        returns_before_barrier=_ordered(found.returns, _BY_POSITION),
        redundant_barriers=_redundant(block_barriers, found) if block_barriers else (),
        mask_mismatches=_ordered(found.mismatches, _BY_POSITION),
        atomic_count=len(atomics),
        atomics_in_loops=sum(1 for a in atomics if a.context.loops) if atomics else 0,
        contention=_ordered(found.contention, _BY_POSITION),
        fences=_ordered(found.fences, _BY_POSITION),
        exact=not found.inexact,
        notes=tuple(found.inexact),
    )

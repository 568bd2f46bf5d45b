"""How many times a thread runs a loop, and so how often each statement inside it executes.

Counted loops (`for (i = s; i < b; i += k)`) give `ceil((b - s) / k)` per thread, averaged over the
block's threads (a grid-stride loop's count differs by one between threads). Geometric loops
(`s >>= 1`, `s *= 2`) are simulated on their uniform values (`kernelscope.analyses.loops`).
Anything else has no numeric count; its weight is reported symbolically, e.g. "trip(while@12)".
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from kernelscope.analyses.loops import COUNTED_LIMIT, uniform_values
from kernelscope.analyses.threads import _NOT_KEPT, _UNSIGNED, UNEVALUABLE, Lanes, count_nonzero, evaluate_per_thread
from kernelscope.symbolic import Expr, structure_key

# value combinations of the loops around a condition evaluated for one statement's execution count:
# as many as one loop's count may have iterations
MAX_COMBINATIONS = COUNTED_LIMIT
# For averaging over a kernel's accesses only (never reported as an execution count): a counted loop
# bounded by a size nobody bound (`for (j = 0; j < ny; j++)` without --arg ny) runs many times, so
# its accesses dominate what ncu measures; 64 makes them do so. A loop bounded by data (a CSR row's
# length) keeps weight 1: such loops are often short.
ASSUMED_TRIPS = 64


def trip_count(loop, env: dict, slots: int, active: np.ndarray, per_thread=None):
    """Mean iterations per active thread, or None when unknown. `per_thread(expr)`, when given, is
    evaluate_per_thread in env (a Lanes' bound_values, which keeps what it evaluates)."""
    if loop.var is None or loop.start is None or loop.bound is None or loop.step is None:
        return None
    if per_thread is None:
        def per_thread(expr):
            return evaluate_per_thread(expr, env, slots)
    shared_bound = not (loop.bound.thread_dependent or loop.step.thread_dependent)
    if shared_bound and not loop.start.thread_dependent:
        count = _uniform_trip_count(loop, env, slots, active)
        if count is not _GENERAL:
            return count
    elif shared_bound and loop.step_op == "+":
        count = _strided_trip_count(loop, env, active, per_thread)
        if count is not _GENERAL:
            return count
    try:
        start = per_thread(loop.start)
        bound = per_thread(loop.bound)
        step = per_thread(loop.step)
    except UNEVALUABLE:
        return None
    if not count_nonzero(active):
        return 0.0
    start, bound, step = start[active], bound[active], step[active]
    op = loop.step_op
    if op == "+":
        counts = _arithmetic_counts(start, bound, step, loop.compare)
    else:
        counts = _geometric_counts(start, bound, step, loop.compare, op)
    if counts is None:
        return None
    return _mean_count(counts)


_GENERAL = object()     # a fast path's "take the general path"
_SMALL = 1 << 61        # below this, the count's arithmetic cannot overflow int64 as numpy's would
_EXACT_SUM = 1 << 53    # below this, an integer sum of counts is exactly the float sum np.mean forms


def _uniform_trip_count(loop, env: dict, slots: int, active: np.ndarray):
    """trip_count of a loop whose start, bound and step read no thread index, on Python ints: they
    evaluate to one int for every thread, and a dozen numpy calls on 1024 equal values would only
    repeat one count (the mean of equal counts is that count). _GENERAL where the values are not
    plain small ints (arrays, floats, bools: what _as_slots would convert) or the count is so large
    that np.mean's float sum could round."""
    shared = _shared_ints(loop, env)
    if shared is None or shared is _GENERAL:
        return shared
    start, bound, step = shared
    if not count_nonzero(active):
        return 0.0
    if loop.step_op == "+":
        count = _arithmetic_count(start, bound, step, loop.compare)
    else:
        values = uniform_values(start, bound, step, loop.step_op, loop.compare)
        count = None if values is None else len(values)
    if count is None:
        return None
    if count * slots >= _EXACT_SUM:
        return _GENERAL
    return float(count)


def _shared_ints(loop, env: dict):
    """(start, bound, step) of a loop whose three expressions read no thread index, as the ints every
    thread shares; None when one cannot be evaluated (evaluate_per_thread would raise), _GENERAL
    when one is not a plain int small enough that int64 arithmetic on it cannot overflow."""
    try:
        values = loop.start.evaluate(env), loop.bound.evaluate(env), loop.step.evaluate(env)
    except UNEVALUABLE:
        return None
    return values if _small_ints(values) else _GENERAL


def _small_ints(values) -> bool:
    """Whether every value is a plain int (not a bool, float or array) within +-_SMALL."""
    return all(type(value) is int and -_SMALL < value < _SMALL for value in values)


def _strided_trip_count(loop, env: dict, active: np.ndarray, per_thread):
    """trip_count of a counted loop whose start differs between threads (a grid-stride loop's
    `i = blockIdx.x * blockDim.x + threadIdx.x`) but whose bound and step read no thread index:
    _arithmetic_counts' arithmetic with the bound and step as the ints every thread shares, a
    third of its numpy calls. _GENERAL where they are not plain small ints."""
    try:
        start = per_thread(loop.start)
        bound, step = loop.bound.evaluate(env), loop.step.evaluate(env)
    except UNEVALUABLE:
        return None
    if not _small_ints((bound, step)):
        return _GENERAL
    if not count_nonzero(active):
        return 0.0
    start = start[active]
    if step == 0:
        return None
    spans = _spans(start, bound, step, loop.compare)
    if spans is None:
        return None
    span, step = spans
    if step <= 0 and np.any(span > 0):
        return None
    return _mean_count(np.maximum(0, -(-span // (step if step > 0 else 1))))


def _arithmetic_count(start: int, bound: int, step: int, compare: str):
    """_arithmetic_counts for one thread's values."""
    if step == 0:
        return None
    spans = _spans(start, bound, step, compare)
    if spans is None:
        return None
    span, step = spans
    if step <= 0 and span > 0:
        return None
    return max(0, -(-span // (step if step > 0 else 1)))


def _mean_count(counts: np.ndarray) -> float:
    """float(np.mean(counts)) for non-negative integer counts: below 2**53 the integer sum is the
    float sum np.mean forms, so the quotient is the same float, at a fraction of np.mean's cost."""
    total = int(counts.sum())
    if total >= _EXACT_SUM:
        return float(np.mean(counts))
    return float(total) / counts.size


def _spans(start, bound, step, compare: str):
    """(distance the counter has to cover, step towards the bound) of a counted loop `for (i = start;
    i compare bound; i += step)`, on ints or on per-thread arrays alike; None for a comparison that
    does not count (==). A step that points away from the bound comes out <= 0."""
    if compare in ("<", "!="):
        return bound - start, step
    if compare == "<=":
        return bound - start + 1, step
    if compare == ">":
        return start - bound, -step
    if compare == ">=":
        return start - bound + 1, -step
    return None


def _arithmetic_counts(start, bound, step, compare):
    if np.any(step == 0):
        return None
    spans = _spans(start, bound, step, compare)
    if spans is None:
        return None
    span, step = spans
    if np.any(step <= 0) and np.any(span > 0):
        return None  # would not terminate as written, or counts down the wrong way
    safe = np.where(step > 0, step, 1)
    return np.maximum(0, -(-span // safe))


def _geometric_counts(start, bound, step, compare, op):
    """A loop that multiplies, divides or shifts its counter, simulated when its values are the same
    for every thread."""
    if not (np.all(start == start[0]) and np.all(bound == bound[0]) and np.all(step == step[0])):
        return None
    values = uniform_values(int(start[0]), int(bound[0]), int(step[0]), op, compare)
    return None if values is None else np.array([len(values)])


def _loop_values(loop, env: dict, slots: int, active: np.ndarray, per_thread=None):
    """The successive values of a uniform loop variable, or None. `per_thread` as for trip_count."""
    if loop.var is None or loop.start is None or loop.bound is None or loop.step is None:
        return None
    if not (loop.start.thread_dependent or loop.bound.thread_dependent or loop.step.thread_dependent):
        # the same values for every thread, as ints: the uniformity checks below would only confirm it
        shared = _shared_ints(loop, env)
        if shared is None:
            return None
        if shared is not _GENERAL:
            if not count_nonzero(active):
                return None
            return uniform_values(*shared, loop.step_op, loop.compare)
    if per_thread is None:
        def per_thread(expr):
            return evaluate_per_thread(expr, env, slots)
    try:
        start = per_thread(loop.start)[active]
        bound = per_thread(loop.bound)[active]
        step = per_thread(loop.step)[active]
    except UNEVALUABLE:
        return None
    if start.size == 0 or not (np.all(start == start[0]) and np.all(bound == bound[0]) and np.all(step == step[0])):
        return None
    return uniform_values(int(start[0]), int(bound[0]), int(step[0]), loop.step_op, loop.compare)


class ExecWeights:
    """Caches loop trip counts for one kernel under one environment. `lanes` keeps the guards'
    masks, which the memory analysis shares."""

    def __init__(self, env: dict, slots: int, active: np.ndarray, signature=_UNSIGNED):
        """`signature`: env's Lanes signature when the caller has it (threads.shared_thread_env)."""
        self.env = env
        self.slots = slots
        self.active = active
        self.lanes = Lanes(env, slots, active, signature)
        # for _active_share: how many slots are real threads, and whether all are (whole warps)
        self._active_count = count_nonzero(active)
        self._all_active = self._active_count == active.size
        self._active_bytes = None       # active.tobytes(), made when _in_env first needs it
        self._cache: dict[int, float | None] = {}
        self._executions: dict[tuple, float | None] = {}
        self._values: dict[int, list | None] = {}   # id(loop) -> _loop_values in env itself
        self._weights: dict[tuple, tuple] = {}      # ids of a context's loops -> weight()
        self._averaging: dict[tuple, float] = {}    # ids of a context's loops -> averaging_weight()
        self._by_context: dict[int, tuple] = {}     # id(context) -> (context, executions())
        self._weight_by_context: dict[int, tuple] = {}  # id(context) -> (context, weight())

    def loop(self, loop):
        key = id(loop)
        if key not in self._cache:
            self._cache[key] = self._in_env(trip_count, loop)
        return self._cache[key]

    def _in_env(self, answer, loop):
        """answer(loop, env, slots, active, bound_values) (trip_count or _loop_values) in this
        environment: what it reads of the loop is its three expressions, comparison and update, so
        it is kept with the Lanes' values for every loop built alike, in every kernel of an equal
        environment and active slots."""
        parts = (loop.start, loop.bound, loop.step)
        if loop.var is None or not all(isinstance(part, Expr) for part in parts):
            return answer(loop, self.env, self.slots, self.active, self.lanes.bound_values)
        if self._active_bytes is None:
            self._active_bytes = self.active.tobytes()
        key = (answer.__name__, self._active_bytes, loop.compare, loop.step_op, *map(structure_key, parts))
        return self.lanes.kept(key, lambda: answer(loop, self.env, self.slots, self.active, self.lanes.bound_values))

    def executions(self, context):
        # the statements of one block share their Context object: known by it first, without
        # building the key (the entry holds the context, so the id stays its own). Written out
        # here and in weight(), not through a shared helper: its call was 1 M instructions of
        # intensity's 35 M over the hand-written kernels.
        entry = self._by_context.get(id(context))
        if entry is not None and entry[0] is context:
            return entry[1]
        key = (tuple(map(id, context.conditions)), tuple(map(id, context.loops)))
        if key not in self._executions:
            self._executions[key] = self._kept_count(context)
        count = self._executions[key]
        self._by_context[id(context)] = (context, count)
        return count

    def _kept_count(self, context):
        """_count_executions(context), kept with the environment's values for every context built
        alike (in every kernel of an equal environment) where every guard's truth is kept by
        structure (at most one name the environment lacks: Lanes.condition judges no stand-ins
        for it, whose verdict may differ between kernels). What the count reads of a context is its
        guards' structures, negations and arms, and its loops' variables, comparisons, updates,
        expression structures and thread dependence (count_key)."""
        if not KEEP_COUNTS:
            return self._count_executions(context)
        key = self.count_key(context)
        if key is None:
            return self._count_executions(context)
        count = self.lanes.answers.get(key, _NOT_KEPT)
        if count is _NOT_KEPT:
            if self.lanes.truths_kept_by_structure(context.conditions):
                count = self.lanes.kept(key, lambda: self._count_executions(context))
            else:
                # (the same for every context of this key: its guards read the same names)
                count = self.lanes.kept(key, lambda: _NOT_SHARED)
        if count is _NOT_SHARED:
            return self._count_executions(context)
        return count

    def count_key(self, context):
        """_kept_count's key: the active slots, the guards' structures, negations and arms, and the loops' variables, comparisons,
        updates, expressions' structures and thread dependence; None for a loop part that is
        neither an expression nor missing."""
        loops = []
        for loop in context.loops:
            parts = []
            for part in (loop.start, loop.bound, loop.step):
                if part is None:
                    parts.append(None)
                elif isinstance(part, Expr):
                    parts.append(part._key)
                else:
                    return None
            loops.append((loop.var, loop.compare, loop.step_op, loop.thread_dependent, *parts))
        if self._active_bytes is None:
            self._active_bytes = self.active.tobytes()
        return ("executions", self._active_bytes,
                tuple([(c.expr._key, c.negated, c.exclusive) for c in context.conditions]), tuple(loops))

    def _count_executions(self, context):
        """Mean times a thread of the block executes a statement in `context`, counting only
        threads whose guarding conditions hold: what per-thread totals (FLOPs, bytes) need.
        Conditions on uniform loop variables (`if (t < half)` in a reduction, `if (r - p < 7)` in an
        unrolled stencil) are evaluated for every combination of those loops' values. An if/else arm
        whose condition cannot be decided (it tests data) counts half: a thread runs one arm or the
        other, and nothing says which. None when unknown."""
        conditions = context.conditions
        # a condition on data read from memory (`if (x[i] > 0)`) cannot be evaluated for any value of
        # the loop variable; condition_mask counts it as true, so it needs no per-iteration pass
        loop_conditions = [c for c in conditions for loop in context.loops
                           if loop.var and loop.var in c.expr.symbols() and not c.expr.has_load()]
        undecided = 0.5 ** self._undecided_arms(conditions)
        if not loop_conditions:
            numeric, _ = self.weight(context)
            if numeric is None:
                return None
            return numeric * self._active_share(self.lanes.mask(conditions)) * undecided
        # loops whose variable the conditions test and whose values are the same for every thread;
        # a per-thread loop (a thread's chunk of a row) keeps its first value and counts by its trips
        involved = [loop for loop in context.loops
                    if loop.var and any(loop.var in c.expr.symbols() for c in loop_conditions)
                    and not loop.thread_dependent]
        total = self._sum_over_columns(involved, conditions) if involved and COLUMN_VALUES else None
        if total is None:
            budget = [MAX_COMBINATIONS]
            total = self._sum_over_loop_values(involved, self.env, conditions, budget, [loop.var for loop in involved],
                                               {})
            if total is None:
                return None
        for loop in context.loops:
            if loop in involved:
                continue
            count = self.loop(loop)
            if count is None:
                return None
            total *= count
        return total * undecided

    def _sum_over_columns(self, involved, conditions):
        """_sum_over_loop_values with every guard that reads the loops' variables evaluated once for
        all value combinations (Lanes.masks_over_values) rather than once per combination; the
        shares are added level by level in the loops' order, as Python floats, so the sum is the
        same float. For loops whose values are those in self.env (none reads another's variable).
        None when the general path must answer (it also answers None where it would: values
        unknown, or more combinations than MAX_COMBINATIONS)."""
        names = [loop.var for loop in involved]
        value_lists = []
        for position, loop in enumerate(involved):
            if position and _reads_any(loop, names):
                return None
            values = self._values_in_env(loop)
            if not values or not all(type(value) is int and -_COLUMN_VALUE < value < _COLUMN_VALUE
                                     for value in values):
                return None
            value_lists.append(values)
        rows = list(itertools.product(*value_lists))
        if len(rows) > MAX_COMBINATIONS or len(rows) * self.slots > _COLUMN_SLOTS:
            return None
        masks = self.lanes.masks_over_values(conditions, tuple(names), rows)
        if masks is None:
            return None
        passing = np.count_nonzero(masks, axis=1).tolist()      # per row, over every slot
        if self._all_active:
            active = passing
            count = masks.shape[1]
        else:
            active = np.count_nonzero(masks & self.active, axis=1).tolist()
            count = self._active_count
        retry = None            # whether a row no slot passes is judged again (see Lanes.mask_in)
        shares = []
        for position, row in enumerate(rows):
            if not passing[position]:
                if retry is None:
                    retry = any(name not in self.env and name not in names
                                for c in conditions for name in c.expr._free_names)
                if retry:
                    changed = dict(zip(names, row))
                    shares.append(self._active_share(self.lanes.mask_in(conditions, {**self.env, **changed}, changed)))
                    continue
            shares.append(active[position] / count if count else 0.0)
        return _nested_sum(shares, [len(values) for values in value_lists])

    def _values_in_env(self, loop):
        """_loop_values of `loop` in this environment (None when unknown), kept per loop."""
        key = id(loop)
        if key not in self._values:
            self._values[key] = self._in_env(_loop_values, loop)
        return self._values[key]

    def _sum_over_loop_values(self, loops, env, conditions, budget, names, changed):
        """Sum over every value combination of the uniform `loops` (outermost first, so an inner
        loop's bounds may use an outer one's variable) of the share of threads passing `conditions`.
        None when a loop's values are not known or there are more than the budget allows. `names`:
        the loops' variables (what env sets differently from self.env); `changed`: those set so far, with
        their values in env (made level by level, so that the innermost needs no comprehension)."""
        if not loops:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            return self._active_share(self.lanes.mask_in(conditions, env, changed))
        if env is self.env or not _reads_any(loops[0], names):
            # an outermost involved loop, or an inner one whose start, bound and step read no outer
            # loop's variable: its values are those in self.env, the same for every statement it holds
            values = self._values_in_env(loops[0])
        else:
            values = _loop_values(loops[0], env, self.slots, self.active)
        if values is None:
            return None
        total = 0.0
        var = loops[0].var
        for value in values:
            part = self._sum_over_loop_values(loops[1:], {**env, var: value}, conditions, budget, names,
                                              {**changed, var: value})
            if part is None:
                return None
            total += part
        return total

    def _active_share(self, mask: np.ndarray) -> float:
        """_share(mask[self.active]), the share of real threads a slot mask passes, without building
        the selection: the same two integers divided (the padding of a partial warp is counted out
        by an AND, and there is none to count out when the block fills its warps)."""
        if self._all_active:
            return _share(mask)
        count = self._active_count
        return count_nonzero(mask & self.active) / count if count else 0.0

    def _undecided_arms(self, conditions) -> int:
        """How many of `conditions` are if/else arms whose test cannot be evaluated."""
        return sum(1 for condition in conditions
                   if condition.exclusive and self.lanes.condition(condition.expr) is None)

    def averaging_weight(self, context) -> float:
        """How much a statement in `context` counts when averaging over accesses: its executions
        where known, else ASSUMED_TRIPS for each loop bounded by unbound sizes."""
        return _per_loops(self._averaging, context.loops, self._averaging_weight)

    def _averaging_weight(self, loops) -> float:
        weight = 1.0
        for loop in loops:
            count = self.loop(loop)
            if count is not None:
                weight *= count
            elif loop.start is not None and loop.bound is not None and loop.step is not None and \
                    not any(e.has_load() for e in (loop.start, loop.bound, loop.step)):
                weight *= ASSUMED_TRIPS
        return weight

    def weight(self, context):
        """(numeric weight or None, symbolic text) for statements in `context`."""
        # known by the Context object first, as executions() is
        entry = self._weight_by_context.get(id(context))
        if entry is not None and entry[0] is context:
            return entry[1]
        answer = _per_loops(self._weights, context.loops, self._weight)
        self._weight_by_context[id(context)] = (context, answer)
        return answer

    def _weight(self, loops):
        numeric = 1.0
        symbolic = []
        for loop in loops:
            count = self.loop(loop)
            if count is None:
                numeric = None
                symbolic.append(f"trip({loop.var or loop.kind}@{loop.line})")
            elif numeric is not None:
                numeric *= count
                symbolic.append(_format(count))
            else:
                symbolic.append(_format(count))
        if numeric is not None:
            return numeric, _format(numeric)
        return None, "*".join(symbolic)


# _count_executions sums over the involved loops' values with their guards evaluated for all value
# combinations at once (_sum_over_columns; the switch is for tests that compare with the general path)
COLUMN_VALUES = True
_COLUMN_SLOTS = 1 << 18             # values x slots evaluated at once, at most (2 MB of int64)
_COLUMN_VALUE = 1 << 31             # loop values of larger magnitude take the general path

# ExecWeights.executions keeps the counts of contexts whose guards' truths are kept by structure, per
# environment (_kept_count; the switch is for tests that compare with the general path)
KEEP_COUNTS = True
_NOT_SHARED = object()      # kept for a key whose guards' truths are not all kept by structure


def _reads_any(loop, names) -> bool:
    """Whether the loop's start, bound or step may read one of `names` (what symbolic evaluation
    may look up in an environment; a missing expression reads nothing)."""
    return any(isinstance(expr, Expr) and not expr._env_names.isdisjoint(names)
               for expr in (loop.start, loop.bound, loop.step))


def _nested_sum(shares: list, sizes: list) -> float:
    """The sum _sum_over_loop_values makes of the shares of value combinations listed in
    itertools.product's order over loops of `sizes` values: the innermost loop's shares added from
    0.0 for each of the outer ones' combinations, then those sums likewise, level by level."""
    for size in reversed(sizes):
        sums = []
        for start in range(0, len(shares), size):
            total = 0.0
            for share in shares[start:start + size]:
                total += share
            sums.append(total)
        shares = sums
    return shares[0]


def _per_loops(kept: dict, loops, compute):
    """compute(loops), kept in `kept` by the loops' identities (a kernel's loops outlive its
    ExecWeights, so their ids stay theirs)."""
    key = tuple(map(id, loops))
    known = kept.get(key)
    if known is None:
        known = kept[key] = compute(loops)
    return known


def _share(mask: np.ndarray) -> float:
    """The share of True lanes in a boolean mask (0 for no lanes): the same float as mask.mean(),
    which divides the same two integers, at a fraction of np.mean's Python-level cost."""
    return count_nonzero(mask) / mask.size if mask.size else 0.0


def _format(value: float) -> str:
    if math.isfinite(value) and value == int(value):
        return str(int(value))
    return f"{value:.3g}"

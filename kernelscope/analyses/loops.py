"""The loop simulator: the successive values a loop's counter takes, and which threads are still
iterating at each, for the analyses that follow loops iteration by iteration.

Two users, two questions, one stepping rule (the counter's update as C computes it, through
`symbolic.apply_binary`, integer division truncating towards zero):

- `analyses.trips` asks how many times a loop runs and which values its counter takes when they are
  the same for every thread (`uniform_values`): a reduction's `s >>= 1`, an unrolled stencil's
  `r`. The answer is used as an execution count, so a loop longer than COUNTED_LIMIT has no count
  (None) rather than a wrong one.
- `analyses.sync` executes each iteration for every thread of a block (`executed_iterations`):
  the counter may differ between threads (a grid-stride loop), so may the bound, and threads
  leave as their own condition fails. Every iteration executed costs a pass over the loop's body,
  so at most EXECUTED_LIMIT are; the rest are assumed to repeat what those showed.

The two limits differ because the questions do: a count must be exact or absent, an execution may
stop once it has seen the pattern. Merging them would either make trip counts of long loops
unknown (at 64) or make the executor run up to 4096 iterations of every loop's body.
"""

from __future__ import annotations

import operator as ops      # (`operator` names a loop's update in the functions below)

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.symbolic import count_nonzero     # (np.count_nonzero without an axis, in C)

COUNTED_LIMIT = 4096      # iterations simulated for a trip count; more: the count is unknown
EXECUTED_LIMIT = 64       # iterations executed per loop before the rest is assumed to repeat the pattern
UNKNOWN_TRIPS = 3         # iterations executed when the bound is unknown: enough to see loop-carried pairs
UNKNOWN_DOUBLINGS = 11    # ... for a loop that multiplies its counter: 1 to 2048 spans block and tile sizes

# the comparisons a loop condition `counter OP bound` may use, for uniform values
_TESTS = {"<": lambda v, limit: v < limit, "<=": lambda v, limit: v <= limit, ">": lambda v, limit: v > limit,
          ">=": lambda v, limit: v >= limit, "!=": lambda v, limit: v != limit}


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


def uniform_values(start: int, bound: int, step: int, operator: str, compare: str,
                   limit: int = COUNTED_LIMIT) -> list | None:
    """The values of a counter that is the same for every thread, in order, or None when they are
    unknown: a comparison or update this cannot follow, an update that makes no progress (adding
    0, multiplying or dividing by 0 or +-1, shifting by 0 or by 63 or more), or more than `limit`
    iterations."""
    test = _TESTS.get(compare)
    if test is None:
        return None
    values = []
    value = start
    while test(value, bound):
        values.append(value)
        if len(values) > limit or not _progresses(operator, step):
            return None
        value = sx.apply_binary(operator, value, step)
    return values


def _progresses(operator: str, step: int) -> bool:
    """Whether updating a counter with `operator step` changes it towards some bound."""
    if operator == "+":
        return step != 0
    if operator in ("*", "/"):
        return abs(step) > 1
    if operator in ("<<", ">>"):
        return 0 < step < 63
    return False


def executed_iterations(loop, env: dict, value_of, alive: np.ndarray, everyone: np.ndarray, note,
                        limit: int = EXECUTED_LIMIT):
    """([(counter value, threads still iterating)], whether the bound was evaluated) for executing
    `loop` in `env`, or (None, False) when the counter's start or step is unknown.

    `value_of(expr, env)` evaluates (an int, a per-thread array, or None when unknown); `alive` are
    the threads that have not returned; `everyone` is the all-true mask, returned as the threads of
    an iteration every thread runs so that callers can tell that case apart cheaply; `note(text)`
    records why the result is approximate. A bound that cannot be evaluated lets UNKNOWN_TRIPS
    iterations run (UNKNOWN_DOUBLINGS for a multiplied counter)."""
    size = everyone.size
    start = value_of(loop.start, env) if loop.var is not None and loop.start is not None else None
    step = value_of(loop.step, env) if loop.step is not None else None
    operator = loop.step_op or "+"
    if start is None or step is None:
        return None, False
    # a bound that does not read the counter has one value for every iteration
    fixed = not isinstance(loop.bound, sx.Expr) or loop.var not in loop.bound._symbols     # (its slot)
    bound = value_of(loop.bound, env) if loop.bound is not None and fixed else None
    if fixed and PER_THREAD_STEPS:
        stepped = _per_thread_steps(loop, start, step, operator, bound, alive, limit, note)
        if stepped is not None:
            return stepped, True
    if fixed and SCALAR_STEPS:
        stepped = _scalar_steps(loop, start, step, operator, bound, alive, everyone, limit, note)
        if stepped is not None:
            return stepped, True
    inner = dict(env)
    active = everyone
    value = start
    result = []
    bounded = True
    guessed = UNKNOWN_DOUBLINGS if operator in ("*", "<<") else UNKNOWN_TRIPS
    nobody_alive = None     # whether no thread is alive, asked once while every thread iterates
    for trip in range(limit + 1):
        inner[loop.var] = value
        if not fixed:
            bound = value_of(loop.bound, inner)
        if bound is None:
            bounded = False
            if trip >= guessed:
                note(f"loop at line {loop.line}: bound unknown, {guessed} iterations tried")
                break
        else:
            still = holds(loop.compare, value, bound, size)
            if still is None:
                return None, False
            if still is False:
                break       # no thread iterates any more
            if still is not True:
                active = still if active is everyone else active & still
            if active is everyone:
                if nobody_alive is None:
                    nobody_alive = not count_nonzero(alive)
                if nobody_alive:
                    break
            elif not count_nonzero(active & alive):
                break
        if trip == limit:
            note(f"loop at line {loop.line}: cut after {limit} iterations")
            break
        result.append((value, active))
        try:
            value = sx.apply_binary(operator, value, step)
        except sx.Unevaluable:
            break
    return result, bounded


# a counter, step and bound that are plain ints stepped with Python's int operations (`_scalar_steps`)
SCALAR_STEPS = True


# the updates `_scalar_steps` follows, each as `sx.apply_binary` computes it for two ints, and the
# steps for which it does so without raising (a step is the same in every iteration: checked once);
# the operator module's functions run without a Python frame per iteration
_INT_UPDATES = {"+": (ops.add, lambda s: True), "-": (ops.sub, lambda s: True),
                "*": (ops.mul, lambda s: True), "/": (sx.c_int_divide, lambda s: s != 0),
                "<<": (ops.lshift, lambda s: 0 <= s <= 62), ">>": (ops.rshift, lambda s: 0 <= s <= 62)}
_INT_TESTS = {"<": ops.lt, "<=": ops.le, ">": ops.gt, ">=": ops.ge, "==": ops.eq,
              "!=": ops.ne}


def _scalar_steps(loop, start, step, operator: str, bound, alive: np.ndarray, everyone: np.ndarray, limit: int,
                  note):
    """`executed_iterations`' list for a counter that is the same for every thread: start, step
    and a bound that does not read the counter all plain ints (`for (j = k / 2; j > 0; j /= 2)`
    with k an outer loop's counter). Every thread then runs each iteration, so each lists
    `everyone`; the list stops at the first value the test fails, at once when no thread is alive,
    or with the general path's note at `limit`. None when the loop is not of that kind."""
    if type(start) is not int or type(step) is not int or type(bound) is not int:
        return None
    update = _INT_UPDATES.get(operator)
    test = _INT_TESTS.get(loop.compare)
    if update is None or test is None or not update[1](step):
        return None
    update = update[0]
    if update is sx.c_int_divide and step > 0 and start >= 0:
        update = ops.floordiv      # (the counter stays >= 0, where truncating is flooring)
    result: list = []
    value = start
    for trip in range(limit + 1):
        if not test(value, bound):
            break
        if trip == 0 and not count_nonzero(alive):
            break
        if trip == limit:
            note(f"loop at line {loop.line}: cut after {limit} iterations")
            break
        result.append((value, everyone))
        value = update(value, step)
    return result


def holds(operator: str, value, bound, size: int):
    """Per thread, whether `value operator bound` holds; a plain True or False when it is the same
    for every thread (scalar operands), None when it cannot be evaluated."""
    try:
        result = sx.apply_binary(operator, value, bound)
    except sx.Unevaluable:
        return None
    if isinstance(result, np.ndarray):
        truth = result != 0
        return truth if truth.shape == (size,) else np.broadcast_to(truth, (size,))
    return bool(result != 0)


# the counter's values of many iterations computed at once (see `_per_thread_steps`)
PER_THREAD_STEPS = True
_FIRST_ROWS = 8          # iterations computed in the first round; each further round doubles it
_STEP_LIMIT = 1 << 31    # larger steps are left to the general path


def _per_thread_steps(loop, start, step, operator: str, bound, alive: np.ndarray, limit: int, note):
    """`executed_iterations`' list for the loops it walks one numpy operation per iteration at a
    time, computed a block of iterations at once: a counter that starts per thread (an int64 array,
    `threadIdx.x` or a grid-stride index) and adds a constant, tested against a bound that does not
    read it. Row k of a block is start + k * step (what adding step k times gives in int64) and its
    threads still iterating are those for which every test so far held; the list stops before the
    first iteration no live thread runs, or with a note at `limit`, as the general path does. None
    when the loop is not of that kind."""
    size = alive.size
    if operator != "+" or type(step) is not int or not -_STEP_LIMIT < step < _STEP_LIMIT or \
            loop.compare not in _TESTS or not isinstance(start, np.ndarray) or start.shape != (size,) or \
            start.dtype != np.int64 or bound is None or \
            not (type(bound) is int or isinstance(bound, np.ndarray) and bound.shape == (size,)):
        return None
    test = _TESTS[loop.compare]
    result: list = []
    value, active = start, None
    done, rows = 0, _FIRST_ROWS
    while True:
        rows = min(rows, limit + 1 - done)
        values = value + np.arange(rows, dtype=np.int64)[:, None] * step
        still = test(values, bound)
        if active is not None:
            still[0] &= active
        np.logical_and.accumulate(still, axis=0, out=still)
        values.flags.writeable = still.flags.writeable = False
        live = np.count_nonzero(still & alive, axis=1)
        dead = (live == 0).nonzero()[0]
        stop = int(dead[0]) if dead.size else rows
        result.extend(zip(values[:stop], still[:stop]))
        done += stop
        if dead.size:
            return result
        if done == limit + 1:
            # the iteration after the limit has live threads: it is cut there
            del result[-1]
            note(f"loop at line {loop.line}: cut after {limit} iterations")
            return result
        value, active = values[-1] + step, still[-1]
        rows *= 2

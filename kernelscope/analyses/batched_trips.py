"""Values of expressions for several iterations of a loop at once, for the sync executor.

The executor runs a loop body once per iteration, evaluating each address and condition for every
thread of the block. For an innermost loop whose body only loads and stores, the iterations after
the first differ only in the counter's value; binding the counter to a column of all its values
(shape (trips, 1), or (trips, threads) for a per-thread counter) evaluates an expression for all
of them in one pass, one row per iteration, with the same numpy operations that one iteration
would apply to its scalar or per-thread value.

An iteration's value is the row, or nothing when the expression cannot be evaluated. A failure
that does not depend on the counter's value fails every iteration: evaluation visits the same nodes
whatever the values (a C conditional evaluates both arms), so a name that is not bound, a load
from memory, or a loop-carried value that no conditional can discard, is met in every iteration.
Any other failure (a division by zero, a shift out of range) may be one iteration's only: the
caller then runs the iterations one by one, as if nothing had been tried.
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses.threads import UNEVALUABLE

NOWHERE = None          # the expression has no value in any of the iterations


class _Mixed:
    def __repr__(self):
        return "MIXED"


MIXED = _Mixed()        # it may have a value in some iterations only: evaluate them one by one

# counters larger than this are left to the one-by-one path: a Python int and an int64 column then
# agree on every product the address of an array can hold
COUNTER_LIMIT = 1 << 31


_SHAPE_AND_KIND = attrgetter("shape", "dtype")
_INT64 = np.dtype(np.int64)


def counter_column(values: list, size: int):
    """The counter's values as one row per iteration, broadcastable against per-thread arrays, or
    None when they are not all plain integers (or all per-thread integer arrays) of modest size."""
    # the usual lists, asked with C loops (map, set, min, max) instead of a generator step per value
    kinds = set(map(type, values))
    if kinds == {int}:
        if min(values) <= -COUNTER_LIMIT or max(values) >= COUNTER_LIMIT:
            return None
        return np.array(values, dtype=np.int64).reshape(len(values), 1)
    if kinds == {np.ndarray} and set(map(_SHAPE_AND_KIND, values)) == {((size,), _INT64)}:
        return np.concatenate(values).reshape(len(values), size)
    return _any_counter_column(values, size)


def _any_counter_column(values: list, size: int):
    """`counter_column` asked value by value (an empty list, subclasses of arrays, and what fails)."""
    if all(type(v) is int for v in values):
        if any(not -COUNTER_LIMIT < v < COUNTER_LIMIT for v in values):
            return None
        return np.array(values, dtype=np.int64).reshape(len(values), 1)
    if all(isinstance(v, np.ndarray) and v.shape == (size,) and v.dtype == np.int64 for v in values):
        return np.concatenate(values).reshape(len(values), size)     # (np.stack, with less overhead per row)
    return None


def values_for_trips(expr, env: dict, shape: tuple, forgotten: frozenset, kinds: dict):
    """`expr` in `env` (the counter bound to its column) as a read-only array of `shape` (trips,
    threads), NOWHERE or MIXED (see the module's docstring). `forgotten` are the names bound to
    loop-carried stand-ins; `kinds` caches `_reached` per expression."""
    if not isinstance(expr, sx.Expr):
        return MIXED
    names, conditional, fractional = _reached(expr, env, kinds)
    if fractional or any(_fractional(env.get(name)) for name in names):
        # C's `/` divides a float scalar exactly but truncates a per-thread array (symbolic's
        # rule): a float the counter reaches would be divided differently in a column
        return MIXED
    if forgotten and not forgotten.isdisjoint(names):
        return MIXED if conditional else NOWHERE
    try:
        value = expr.evaluate(env)
    except (sx.Unbound, sx.Indirect):
        return NOWHERE
    except UNEVALUABLE:
        return MIXED
    try:
        values = repeated(value, shape)
    except (ValueError, TypeError):
        return MIXED
    return MIXED if values.dtype == object else values


def repeated(value, shape: tuple) -> np.ndarray:
    """np.broadcast_to(value, shape): a read-only view. The values a batch meets most, an array of
    `shape` already and one row of integers or truths for every row, are viewed directly: numpy's
    function checks and converts in Python first, a few microseconds a call."""
    if type(value) is np.ndarray and len(shape) == 2:
        if value.shape == shape:
            view = value.view()
        elif value.shape == shape[1:] and value.flags.c_contiguous and value.dtype.kind in "biu":
            # every row the same memory (a stride of 0 between rows), as broadcasting gives
            view = np.ndarray(shape, value.dtype, value, 0, (0, value.strides[0]))
        else:
            return np.broadcast_to(value, shape)
        view.flags.writeable = False
        return view
    return np.broadcast_to(np.asarray(value), shape)


def _fractional(value) -> bool:
    return isinstance(value, (float, np.floating)) or (isinstance(value, np.ndarray) and value.dtype.kind in "fc")


def _reached(root, env: dict, cache: dict) -> tuple:
    """What evaluating `root` in `env` meets: (the names it reads, whether it meets a conditional,
    the one kind of node that may leave out an operand, such as a loop-carried stand-in, in some
    iterations and not in others; whether it meets a constant that is not an integer). A name's default
    (a loop variable's start) is only evaluated when the name is not bound, so which defaults are
    reached depends on which names `env` binds: the answer is kept with those it depended on."""
    known = cache.get(id(root))
    if known is not None and known[0] is root and all((name in env) == bound for name, bound in known[1]):
        return known[2]
    names: set = set()
    decided: list = []
    conditional = fractional = False
    seen: set = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, sx.Sym):
            names.add(node.name)
            if node.default is not None:
                decided.append((node.name, node.name in env))
                if node.name not in env:
                    stack.append(node.default)
            continue
        conditional = conditional or isinstance(node, sx.Select)
        fractional = fractional or (isinstance(node, sx.Const) and type(node.value) not in (int, bool))
        names.update(node._reads())
        stack.extend(node.children())
    answer = (frozenset(names), conditional, fractional)
    cache[id(root)] = (root, tuple(decided), answer)     # keeps the expression, and its identity, alive
    return answer

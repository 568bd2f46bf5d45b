"""Symbolic integer expressions over thread and block indices, parameters and loop variables.

The front end turns every index into an `Expr` tree. Analyses evaluate a tree for many threads at
once: the environment maps names such as "threadIdx.x" to numpy arrays (one entry per thread) and
parameters to integers, and `evaluate` returns an array. What cannot be known statically raises:
`Unbound` for a parameter with no value, `Indirect` for a value loaded from memory.

Loop variables and variables updated inside loops are `Sym`s with a `default`: the value they have on
the first iteration. An environment may override them (to look at later iterations).
"""

from __future__ import annotations

import itertools
import operator
import threading

import numpy as np

THREAD_SYMBOLS = frozenset({"threadIdx.x", "threadIdx.y", "threadIdx.z", "%laneid", "%warpid"})
BLOCK_SYMBOLS = frozenset({"blockIdx.x", "blockIdx.y", "blockIdx.z"})
SHAPE_SYMBOLS = frozenset({"blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x", "gridDim.y", "gridDim.z",
                           "warpSize"})


_MISSING = object()


class Unevaluable(Exception):
    """The expression has no concrete value for this environment."""


class Unbound(Unevaluable):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class Indirect(Unevaluable):
    """The value depends on data loaded from memory."""


class Expr:
    """A node of an expression DAG. Nodes never change once built, and the front end builds a
    variable's value once however often it is read, so `i = i + i;` repeated n times is n nodes
    shared by reference, not a tree of 2**n leaves. Every walk below therefore visits each distinct
    node once (memoised per node, or per call for evaluation) and iterates instead of recursing, so
    neither repeated subexpressions nor long chains of statements cost more than linear time."""
    # What every walk asks of a node, set by every constructor from its children's (trees never
    # change, and nearly every node built is asked): `_weight`, `_depth`, `_symbols`,
    # `_free_names`, `_carried`, `_env_names`, `_has_load`. Memo slots filled on first use:
    # `_opaque` (see _fold), and whether stand-in values for unbound scalars decide a condition
    # (analyses.threads).
    __slots__ = ("_free_names", "_symbols", "_carried", "_has_load", "_opaque", "_decided_by_stand_ins",
                 "_weight", "_depth", "_env_names", "_key")

    def children(self) -> tuple:
        """The operand nodes (a loop variable's default counts as one)."""
        return ()

    def evaluate(self, env: dict):
        return evaluate(self, env)

    def _needs(self, env) -> tuple:
        """The operands whose values `_combine` needs; raising here means the node has no value
        whatever its operands are (checked before they are evaluated, as a recursive walk would)."""
        return self.children()

    def _combine(self, env, values):
        raise NotImplementedError

    def _reads(self) -> tuple:
        """Environment entries this node itself looks up (a subclass that reads others says so)."""
        return ()

    def _small(self, env):
        """Plain recursive evaluation, for trees too small for repetition or depth to matter (the
        common case, so the node types below specialise it)."""
        return self._combine(env, [child._small(env) for child in self._needs(env)])

    def symbols(self) -> frozenset:
        """Every free name the value depends on (loop variables' defaults included)."""
        return self._symbols

    def has_load(self) -> bool:
        return self._has_load

    @property
    def thread_dependent(self) -> bool:
        # (isdisjoint builds no set: asked of nearly every node, by the front end and the analyses)
        return not self._symbols.isdisjoint(THREAD_SYMBOLS) or self._opaque_thread_dependence()

    def _opaque_thread_dependence(self) -> bool:
        return _fold(self, "_opaque", _own_opaque_thread_dependence)

    # Operators build trees (constant folding keeps them small).
    def __add__(self, other): return binary("+", self, other)
    def __radd__(self, other): return binary("+", other, self)
    def __sub__(self, other): return binary("-", self, other)
    def __rsub__(self, other): return binary("-", other, self)
    def __mul__(self, other): return binary("*", self, other)
    def __rmul__(self, other): return binary("*", other, self)


class Const(Expr):
    __slots__ = ("value",)
    # the same for every constant: class attributes, not one slot each
    _weight = _depth = 1
    _symbols = _free_names = _carried = _env_names = frozenset()
    _has_load = False

    def __init__(self, value):
        self.value = value
        kind = type(value)
        # the value's type, and for anything but an integer its text: 1, 1.0 and True, or 0.0 and
        # -0.0, are different constants
        self._key = _intern((Const, kind, value if kind is int or kind is bool else repr(value)))

    def __reduce__(self):                 # copy and pickle rebuild it (the class attributes are not slots)
        return Const, (self.value,)

    def _combine(self, env, values):
        return self.value

    def _small(self, env):
        return self.value

    def __str__(self):
        return str(self.value)

    def __eq__(self, other):
        return isinstance(other, Const) and other.value == self.value

    def __hash__(self):
        return hash(("Const", self.value))


class Sym(Expr):
    """A named value. `default` is used when the environment has no entry (loop start values)."""
    __slots__ = ("name", "default", "varying")

    def __init__(self, name: str, default: Expr | None = None, varying: bool = False):
        self.name = name
        self.default = default
        self.varying = varying      # set for variables updated with thread-dependent values in loops
        own = _name_set(name)
        structure = (Sym, name, default._key if default is not None else 0, varying)
        key = _STRUCTURES.get(structure)
        self._key = key if key is not None else _intern(structure)
        if default is None:
            self._weight = self._depth = 1
            self._symbols = self._free_names = self._env_names = own
            self._carried = _EMPTY
            self._has_load = False
        else:
            self._weight, self._depth = _measure((default,))
            self._symbols = _join(default._symbols, own)
            self._free_names = default._free_names
            self._carried = _join(default._carried, own)
            self._env_names = self._symbols if default._env_names is default._symbols else \
                _join(default._env_names, own)
            self._has_load = default._has_load

    def children(self):
        return () if self.default is None else (self.default,)

    def _needs(self, env):
        if self.name in env:
            return ()
        if self.default is not None:
            return (self.default,)
        raise Unbound(self.name)

    def _combine(self, env, values):
        value = env.get(self.name, _MISSING)
        return value if value is not _MISSING else values[0]

    def _small(self, env):
        value = env.get(self.name, _MISSING)
        if value is not _MISSING:
            return value
        if self.default is not None:
            return self.default._small(env)
        raise Unbound(self.name)

    def _reads(self):
        return (self.name,)

    def __str__(self):
        return self.name


class Load(Expr):
    """A value read from memory: `array[index]`. Its value is unknown; whether it varies across threads
    is not (threads that read the same address read the same value)."""
    __slots__ = ("array", "index")

    def __init__(self, array: str, index: Expr):
        self.array = array
        self.index = index
        # (_summarise(self, (index,), True) written out for its one child: the child's sets, the
        # shared empty set for empty ones)
        weight = index._weight + 1
        self._weight = weight if weight < _WEIGHT_CAP else _WEIGHT_CAP
        self._depth = index._depth + 1
        self._symbols = index._symbols or _EMPTY
        self._free_names = index._free_names or _EMPTY
        self._carried = index._carried or _EMPTY
        self._env_names = index._env_names or _EMPTY
        self._has_load = True
        structure = (Load, array, index._key)
        key = _STRUCTURES.get(structure)
        self._key = key if key is not None else _intern(structure)

    def children(self):
        return (self.index,)

    def _needs(self, env):
        raise Indirect(self.array)

    def __str__(self):
        return f"{self.array}[{self.index}]"


class Opaque(Expr):
    """A value we cannot model (unknown function, float-to-int conversion of data, ...). It depends on
    the given operands, so uniformity can still be judged."""
    __slots__ = ("text", "operands", "thread_varying")

    def __init__(self, text: str, operands: tuple = (), thread_varying: bool = False):
        self.text = text
        self.operands = tuple(operands)
        self.thread_varying = thread_varying
        if self.operands:
            _summarise(self, self.operands, True)
        else:       # (what _summarise gives for no operands)
            self._weight = self._depth = 1
            self._symbols = self._free_names = self._carried = self._env_names = _EMPTY
            self._has_load = True
        self._key = _intern((Opaque, text, thread_varying, tuple([o._key for o in self.operands])))

    def children(self):
        return self.operands

    def _needs(self, env):
        raise Indirect(self.text)

    def __str__(self):
        return self.text


class AtomicResult(Opaque):
    """The old value an atomic returns. Unknown to most analyses; the sync analysis binds it (under
    `key`) to values it can stand for, such as the distinct slots an atomicAdd hands out."""
    __slots__ = ("key",)

    def __init__(self, text: str, line: int, column: int):
        super().__init__(text, (), thread_varying=True)
        self.key = f"{text}@{line}:{column}"
        self._env_names = frozenset((self.key,))
        self._key = _intern((AtomicResult, self.key))

    def _needs(self, env):
        if self.key not in env:
            raise Indirect(self.text)
        return ()

    def _combine(self, env, values):
        return env[self.key]

    def _reads(self):
        return (self.key,)


class Binary(Expr):
    __slots__ = ("op", "left", "right", "_apply")

    def __init__(self, op: str, left: Expr, right: Expr):
        # The commonest node the front end builds (tens of thousands per file): what _join and
        # _measure do, written out, since their calls cost more than their work.
        self.op = op
        self.left = left
        self.right = right
        self._apply = _BINARY.get(op)   # looked up once: trees are evaluated many times
        weight = left._weight + right._weight + 1
        self._weight = weight if weight < _WEIGHT_CAP else _WEIGHT_CAP
        self._depth = (left._depth if left._depth > right._depth else right._depth) + 1
        # Most nodes' four name sets are one set (no loop variables, no atomics below them): the
        # joins of the same sets are then the same set, not four equal ones (fewer objects for
        # every garbage collection to visit).
        a, b = left._symbols, right._symbols
        symbols = self._symbols = a if a is b or b <= a else b if a <= b else _union(a, b)
        c, d = left._free_names, right._free_names
        self._free_names = symbols if c is a and d is b else c if d <= c else d if c <= d else _union(c, d)
        c, d = left._carried, right._carried
        self._carried = c if c is d or d <= c else d if c <= d else _union(c, d)
        c, d = left._env_names, right._env_names
        self._env_names = symbols if c is a and d is b else c if d <= c else d if c <= d else _union(c, d)
        self._has_load = left._has_load or right._has_load
        # (_intern's lookup written out: its call costs more than the lookup when the structure is known)
        structure = (Binary, op, left._key, right._key)
        key = _STRUCTURES.get(structure)
        self._key = key if key is not None else _intern(structure)

    def children(self):
        return (self.left, self.right)

    def _needs(self, env):
        if self._apply is None:
            raise Unevaluable(f"operator {self.op}")
        return (self.left, self.right)

    def _combine(self, env, values):
        return self._apply(values[0], values[1])

    def _small(self, env):
        if self._apply is None:
            raise Unevaluable(f"operator {self.op}")
        return self._apply(self.left._small(env), self.right._small(env))

    def __str__(self):
        return f"({self.left} {self.op} {self.right})"


class Unary(Expr):
    __slots__ = ("op", "operand")

    def __init__(self, op: str, operand: Expr):
        self.op = op
        self.operand = operand
        _summarise(self, (operand,))
        self._key = _intern((Unary, op, operand._key))

    def children(self):
        return (self.operand,)

    def _combine(self, env, values):
        value = values[0]
        if self.op == "-":
            return -value
        if self.op == "~":
            return ~np.asarray(value, dtype=np.int64) if isinstance(value, np.ndarray) else ~int(value)
        if self.op == "!":
            return np.logical_not(value).astype(np.int64) if isinstance(value, np.ndarray) else int(not value)
        return value

    def __str__(self):
        return f"{self.op}{self.operand}"


class Select(Expr):
    """`cond ? a : b`, also used to merge the values a variable has after an if/else."""
    __slots__ = ("condition", "if_true", "if_false")

    def __init__(self, condition: Expr, if_true: Expr, if_false: Expr):
        self.condition = condition
        self.if_true = if_true
        self.if_false = if_false
        _summarise(self, (condition, if_true, if_false))
        self._key = _intern((Select, condition._key, if_true._key, if_false._key))

    def children(self):
        return (self.condition, self.if_true, self.if_false)

    def _combine(self, env, values):
        condition, a, b = values
        if isinstance(condition, np.ndarray) or isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return np.where(np.asarray(condition) != 0, a, b)
        return a if condition else b

    def __str__(self):
        return f"({self.condition} ? {self.if_true} : {self.if_false})"


class Call(Expr):
    """Pure integer functions we can evaluate: min, max, abs, and CUDA's integer intrinsics."""
    __slots__ = ("name", "args")

    FUNCTIONS = {
        "min": np.minimum, "max": np.maximum, "umin": np.minimum, "umax": np.maximum,
        "abs": np.abs, "llabs": np.abs, "__mul24": np.multiply, "__umul24": np.multiply,
    }

    def __init__(self, name: str, args: tuple):
        self.name = name
        self.args = tuple(args)
        _summarise(self, self.args)
        self._key = _intern((Call, name, tuple([a._key for a in self.args])))

    def children(self):
        return self.args

    def _combine(self, env, values):
        function = self.FUNCTIONS[self.name]
        result = function(*values)
        return result if isinstance(result, np.ndarray) else int(result)

    def __str__(self):
        return f"{self.name}({', '.join(map(str, self.args))})"


# The expression classes that binary() never folds or converts: a Binary of two of them is built as
# it is (a subclass, such as a test's, takes the general path).
_FOLDLESS = frozenset((Sym, Load, Opaque, AtomicResult, Binary, Unary, Select, Call))

# Deeper than this, evaluation uses the explicit stack of `_evaluate_deep`.
RECURSIVE_DEPTH = 200


def evaluate(root: Expr, env: dict):
    """The value of `root` in `env`: each distinct node is evaluated once (its value is reused by
    every parent that shares it), operands left to right, so the first node that cannot be
    evaluated is the one a plain recursive evaluation would have stopped at.

    Most trees are a few levels deep: they are evaluated by plain recursion, several times faster
    in Python than an explicit stack. A deeper tree (long chains of statements; every node knows
    its depth) goes to the explicit stack, which has no depth limit. Trees of fewer than
    HEAVY_WEIGHT nodes (shared ones counted again) are walked without even a memo."""
    if root._weight < HEAVY_WEIGHT:
        return root._small(env)
    if root._depth > RECURSIVE_DEPTH:
        return _evaluate_deep(root, env)
    needed = root._needs(env)
    if not needed:                            # a leaf or a bound name
        return root._combine(env, ())
    try:
        return root._combine(env, _operands(needed, env, {}, False))
    except RecursionError:                    # called from deep inside something else
        return _evaluate_deep(root, env)


def evaluate_shared(root: Expr, env: dict, values: dict):
    """`evaluate`, keeping every inner node's value in `values` under its structure_key and reusing
    what it already holds: a caller that evaluates many expressions (of one kernel or of many)
    passes one dict to all, provided that equal structures have equal values in each of their
    environments."""
    key = structure_key(root)
    value = values.get(key, _MISSING)
    if value is not _MISSING:
        return value
    if root._depth > RECURSIVE_DEPTH:
        return _evaluate_deep(root, env)
    needed = root._needs(env)
    if not needed:                            # a leaf or a bound name
        return root._combine(env, ())
    try:
        value = root._combine(env, _operands(needed, env, values, True))
    except RecursionError:                    # called from deep inside something else
        return _evaluate_deep(root, env)
    values[key] = value
    return value


def _operands(needed, env: dict, values: dict, by_structure: bool) -> list:
    """The values of `needed` (evaluated left to right, each distinct node once per call; kept in
    `values` under the node's id, or under its structure_key when `by_structure`).
    Constants, names and binary operators, nearly every node, are evaluated inline: what their
    `_needs` and `_combine` would do, without the two method calls."""
    result = []
    for child in needed:
        kind = type(child)
        if kind is Const:
            result.append(child.value)
            continue
        if kind is Sym:
            value = env.get(child.name, _MISSING)
            if value is not _MISSING:
                result.append(value)
                continue
            if child.default is None:
                raise Unbound(child.name)
        key = child._key if by_structure else id(child)
        value = values.get(key, _MISSING)
        if value is _MISSING:
            if kind is Binary:
                apply = child._apply
                if apply is None:
                    raise Unevaluable(f"operator {child.op}")
                left, right = _operands((child.left, child.right), env, values, by_structure)
                value = apply(left, right)
            else:
                grandchildren = child._needs(env)
                if grandchildren:
                    value = child._combine(env, _operands(grandchildren, env, values, by_structure))
                else:
                    value = child._combine(env, ())
            values[key] = value
        result.append(value)
    return result


def _evaluate_deep(root: Expr, env: dict):
    """`evaluate` with an explicit stack instead of recursion, for trees of any depth; large nodes'
    values are also remembered across calls (see _RecentValues)."""
    values: dict = {}                         # id(node) -> value, valid for this call only
    recent = _recent_values()
    stack = [root]
    while stack:
        node = stack[-1]
        key = id(node)
        if key in values:
            stack.pop()
            continue
        heavy = node._weight >= HEAVY_WEIGHT
        if heavy:
            known = recent.lookup(node, env)
            if known is not _MISSING:
                values[key] = known
                stack.pop()
                continue
        needed = node._needs(env)
        pending = [child for child in needed if id(child) not in values]
        if pending:
            stack.extend(reversed(pending))   # the leftmost operand is evaluated first
            continue
        values[key] = value = node._combine(env, [values[id(child)] for child in needed])
        if heavy:
            recent.remember(node, env, value)
        stack.pop()
    return values[id(root)]


# Analyses evaluate one expression after another in the same environment, and the later ones often
# contain the earlier (the condition of statement k reads the value statement k-1 produced: N
# conditions over a chain of N statements would cost N**2 node evaluations). The values of the last
# few large subexpressions are therefore kept, each with the environment entries it depends on
# (the objects themselves, compared by identity: arrays are never changed in place, and the value
# is made read-only so that nobody starts to).
HEAVY_WEIGHT = 64            # nodes with at least this many nodes below them (counting shared ones again)
RECENT_VALUES = 256
_MAX_REMEMBERED_NAMES = 16


class _RecentValues:
    def __init__(self):
        self._entries: dict = {}          # id(node) -> (node, names, env values, value)

    def lookup(self, node: Expr, env: dict):
        entry = self._entries.get(id(node))
        if entry is None or entry[0] is not node:
            return _MISSING
        for name, seen in zip(entry[1], entry[2]):
            if env.get(name, _MISSING) is not seen:
                return _MISSING
        return entry[3]

    def remember(self, node: Expr, env: dict, value) -> None:
        names = tuple(node._env_names)
        if len(names) > _MAX_REMEMBERED_NAMES:
            return
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        if len(self._entries) >= RECENT_VALUES:
            del self._entries[next(iter(self._entries))]     # the oldest
        self._entries[id(node)] = (node, names, tuple(env.get(name, _MISSING) for name in names), value)


_THREAD_STATE = threading.local()


def _recent_values() -> _RecentValues:
    try:
        return _THREAD_STATE.recent
    except AttributeError:
        _THREAD_STATE.recent = _RecentValues()
        return _THREAD_STATE.recent


def _measure(children) -> tuple:
    """(weight, depth) of a node over `children`: the size of the tree the DAG unfolds to (capped),
    and the longest path to a leaf. Small weights bound both the depth and the cost of a plain
    recursive walk; the depth tells, before evaluating, whether recursion would go too deep."""
    weight, depth = 1, 0
    for child in children:          # (a loop: min/sum/max over generators cost several times more)
        weight += child._weight
        if child._depth > depth:
            depth = child._depth
    return (weight if weight < _WEIGHT_CAP else _WEIGHT_CAP), depth + 1


_WEIGHT_CAP = 1 << 30
_EMPTY = frozenset()
_NAME_SETS: dict = {}


def _name_set(name: str) -> frozenset:
    """frozenset({name}), one per name (the front end builds many Syms of the same name)."""
    names = _NAME_SETS.get(name)
    if names is None:
        names = _NAME_SETS[name] = frozenset((name,))
    return names


def _join(a: frozenset, b: frozenset) -> frozenset:
    """a | b, reusing either when it already holds the other (most joins add nothing)."""
    if b <= a:
        return a
    if a <= b:
        return b
    return _union(a, b)


_UNIONS: dict = {}                  # (a, b) -> a | b, for one file (see forget_file_tables)
_MAX_UNIONS = 1 << 14


def forget_file_tables() -> None:
    """Start the tables of _union, shared_binary, shared_const and shared_sym afresh (the front end
    does, for every file it reads: what one file's analysis finds never depends on the files read
    before it)."""
    _UNIONS.clear()
    _BINARY_NODES.clear()
    _INT_CONSTS.clear()
    _PLAIN_SYMS.clear()
    _LOOP_SYMS.clear()
    _TEXTS.clear()


def _union(a: frozenset, b: frozenset) -> frozenset:
    """a | b, one set for every join of the same two sets: the nodes of an index expression share
    their name sets instead of each holding an equal copy (tens of thousands of sets in a large
    file, each visited by every garbage collection)."""
    key = (a, b)
    joined = _UNIONS.get(key)
    if joined is None:
        if len(_UNIONS) >= _MAX_UNIONS:
            _UNIONS.clear()
        joined = _UNIONS[key] = a | b
    return joined


def _summarise(node: Expr, children: tuple, loads: bool = False) -> None:
    """The constructor's share for a node that reads nothing itself: its children's names joined;
    `loads` when the node reads memory (or stands for a value it cannot model)."""
    node._weight, node._depth = _measure(children)
    symbols = free = carried = env_names = _EMPTY
    has_load = loads
    for child in children:
        # (a child whose sets are one set keeps them one set here too: see Binary)
        same_free = free is symbols and child._free_names is child._symbols
        same_env = env_names is symbols and child._env_names is child._symbols
        symbols = _join(symbols, child._symbols)
        free = symbols if same_free else _join(free, child._free_names)
        carried = _join(carried, child._carried)
        env_names = symbols if same_env else _join(env_names, child._env_names)
        has_load = has_load or child._has_load
    node._symbols, node._free_names, node._carried, node._env_names = symbols, free, carried, env_names
    node._has_load = has_load


# Structure keys: one integer per distinct way of building a node, handed out from a counter and
# never reused, so that a full table can simply be emptied (later nodes then get new keys, and
# only sharing with the earlier ones is lost).
_STRUCTURES: dict = {}
_MAX_STRUCTURES = 1 << 17
_NEXT_KEY = itertools.count(1)


def structure_key(root: Expr) -> int:
    """An integer that two nodes share when they are built alike (same kind, operator, name,
    constant and operands, recursively): equal keys, equal values in any one environment. Every
    constructor interns its node's structure (hash-consing, without merging the nodes)."""
    return root._key


def _intern(structure: tuple) -> int:
    key = _STRUCTURES.get(structure)
    if key is None:
        if len(_STRUCTURES) >= _MAX_STRUCTURES:
            _STRUCTURES.clear()
        key = _STRUCTURES[structure] = next(_NEXT_KEY)
    return key


def _fold(root: Expr, slot: str, own):
    """`own(node)` for `root`, computed bottom-up once per node of the DAG and kept in `slot`;
    `own` may read its children's `slot` (already filled when it runs)."""
    try:
        return getattr(root, slot)
    except AttributeError:
        pass
    if root._weight < HEAVY_WEIGHT:
        return _fold_small(root, slot, own)
    stack = [root]
    while stack:
        node = stack[-1]
        if hasattr(node, slot):
            stack.pop()
            continue
        pending = [child for child in node.children() if not hasattr(child, slot)]
        if pending:
            stack.extend(pending)
            continue
        setattr(node, slot, own(node))
        stack.pop()
    return getattr(root, slot)


def _fold_small(node: Expr, slot: str, own):
    for child in node.children():
        if not hasattr(child, slot):
            _fold_small(child, slot, own)
    value = own(node)
    setattr(node, slot, value)
    return value


def _own_opaque_thread_dependence(node: Expr) -> bool:
    """Thread dependence that the symbol set does not show: varying loop variables, loads at
    thread-dependent addresses, values of thread-varying intrinsics."""
    if isinstance(node, Sym):
        return node.varying or (node.default is not None and node.default.thread_dependent)
    if isinstance(node, Load):
        return node.index.thread_dependent
    if isinstance(node, Opaque):
        return node.thread_varying or any(o.thread_dependent for o in node.operands)
    return any(child._opaque for child in node.children())


def const(value) -> Const:
    return Const(value)


def as_expr(value) -> Expr:
    return value if isinstance(value, Expr) else Const(value)


# Binary nodes by structure, for one file (see forget_file_tables): (op, left's structure key, right's)
# -> the node built so. A Binary of an operator and two operands built before is that node again:
# building one costs about 20 times the lookup, and a third to a half of those the front end asks
# for are repeats (index arithmetic written alike in several statements and kernels). Nodes never
# change; the analyses' memos on a node (see analyses.threads._decided_by_stand_ins) are then
# shared by the statements and kernels of one file that build it. Bounded like _STRUCTURES (keys
# are never reused: a stale entry is only dead weight).
_BINARY_NODES: dict = {}
_MAX_BINARY_NODES = 1 << 15


def shared_binary(op: str, left: Expr, right: Expr) -> Binary:
    """Binary(op, left, right), or the node built before with the same structure. For operands of
    the classes in _SHAREABLE only: a subclass (such as a test's) has the structure key of its class."""
    signature = (op, left._key, right._key)
    node = _BINARY_NODES.get(signature)
    return node if node is not None else new_shared_binary(signature, op, left, right)


def new_shared_binary(signature: tuple, op: str, left: Expr, right: Expr) -> Binary:
    """shared_binary's second half, for a caller whose lookup of `signature`, (op, left's structure
    key, right's), just found nothing in _BINARY_NODES: Binary(op, left, right), kept there (most
    lookups miss: the signature is not built and looked up a second time)."""
    if len(_BINARY_NODES) >= _MAX_BINARY_NODES:
        _BINARY_NODES.clear()
    node = _BINARY_NODES[signature] = Binary(op, left, right)
    return node


_SHAREABLE = _FOLDLESS | {Const}     # the operand classes whose structure key tells them apart


# The constant operands that binary() folds away with the operator, on the right and on the left:
# `x + 0`, `x - 0`, `x * 1`, `x * 0`, `x / 1`, `x >> 0`; `0 + x`, `1 * x`, `0 * x`.
_RIGHT_FOLDS = {"+": (0,), "-": (0,), "*": (0, 1), "/": (1,), ">>": (0,)}
_LEFT_FOLDS = {"+": (0,), "*": (0, 1)}


def binary(op: str, left, right) -> Expr:
    # (class tests written out rather than calls of as_expr or _is_const: the front end calls this
    # for nearly every operator it reads)
    left_class, right_class = left.__class__, right.__class__
    if left_class in _FOLDLESS:
        if right_class in _FOLDLESS or right_class is Const and right.value not in _RIGHT_FOLDS.get(op, ()):
            # nothing to fold or simplify (most calls; `i * 4`, `n - 1`): what the general path
            # below answers, shared_binary, its lookup written out
            signature = (op, left._key, right._key)
            node = _BINARY_NODES.get(signature)
            return node if node is not None else new_shared_binary(signature, op, left, right)
    elif left_class is Const and right_class in _FOLDLESS and left.value not in _LEFT_FOLDS.get(op, ()):
        signature = (op, left._key, right._key)      # (`4 * i`, `1 - x`: as above)
        node = _BINARY_NODES.get(signature)
        return node if node is not None else new_shared_binary(signature, op, left, right)
    return _binary_general(op, left, right)


def _binary_general(op: str, left, right) -> Expr:
    """binary() for any operands: plain numbers made constants, constants folded, `x + 0` and the
    like simplified (tests/test_walkfast9_binary_consts.py compares binary's shortcuts with it)."""
    left_const = isinstance(left, Const)
    if not left_const and not isinstance(left, Expr):
        left, left_const = shared_const(left), True
    right_const = isinstance(right, Const)
    if not right_const and not isinstance(right, Expr):
        right, right_const = shared_const(right), True
    if not (left_const or right_const):
        return Binary(op, left, right)      # (an operand of a subclass: not shared)
    if left_const and right_const:
        try:
            return Const(apply_binary(op, left.value, right.value))
        except (Unevaluable, ZeroDivisionError, ArithmeticError, TypeError, ValueError):
            pass
    # what _is_const(left, v) and _is_const(right, v) answer
    left_value = left.value if left_const else None
    right_value = right.value if right_const else None
    if op == "+":
        if left_const and left_value == 0:
            return right
        if right_const and right_value == 0:
            return left
    if op == "-" and right_const and right_value == 0:
        return left
    if op == "*":
        if left_const and left_value == 1:
            return right
        if right_const and right_value == 1:
            return left
        if left_const and left_value == 0 or right_const and right_value == 0:
            return Const(0)
    if op in ("/", ">>") and right_const and right_value == (1 if op == "/" else 0):
        return left
    if left.__class__ in _SHAREABLE and right.__class__ in _SHAREABLE:
        return shared_binary(op, left, right)
    return Binary(op, left, right)


def element_offset(offset: Expr, index: Expr, stride: int) -> Expr:
    """binary("+", offset, binary("*", index, stride)): where element `index` of an array at byte
    `offset`, its elements `stride` bytes apart, lies. Every subscript the front end reads asks
    it, nearly always of an index that nothing folds, a positive int stride and an offset that is
    constant zero (a parameter's or an array's start) or that nothing folds either; for those,
    binary's checks are written out here, and what they would answer is returned at once
    (tests/test_walkfast7_element_offset.py compares the two)."""
    if index.__class__ in _FOLDLESS and stride.__class__ is int and stride >= 1:
        if stride == 1:
            scaled = index          # (binary's `x * 1`)
        else:
            factor = shared_const(stride)
            signature = ("*", index._key, factor._key)
            scaled = _BINARY_NODES.get(signature)
            if scaled is None:
                scaled = new_shared_binary(signature, "*", index, factor)
        if offset.__class__ is Const and offset.value == 0:
            return scaled           # (binary's `0 + x`: scaled is never a Const here)
        if offset.__class__ in _FOLDLESS:
            signature = ("+", offset._key, scaled._key)
            node = _BINARY_NODES.get(signature)
            return node if node is not None else new_shared_binary(signature, "+", offset, scaled)
        return binary("+", offset, scaled)
    return binary("+", offset, binary("*", index, stride))


# Plain ints handed to binary() as operands (element sizes and strides, `0 - step`): one Const
# per value for one file (see forget_file_tables), as _NUMBERS in the front end keeps one per
# literal, where each call built its own (Consts never change, and equal ones answer every
# question alike). Only exact ints: True and 1.0 equal 1 as dict keys but are other constants.
_INT_CONSTS: dict = {}
_MAX_INT_CONSTS = 4096


def shared_const(value) -> Const:
    """Const(value), shared for ints."""
    if value.__class__ is not int:
        return Const(value)
    known = _INT_CONSTS.get(value)
    if known is None:
        known = Const(value)
        if len(_INT_CONSTS) < _MAX_INT_CONSTS:
            _INT_CONSTS[value] = known
    return known


# Names without a default (parameters, builtin indices, declared but unset variables): one Sym
# per name for one file (see forget_file_tables), as shared_binary keeps one Binary per
# structure, where every kernel and declaration built its own.
_PLAIN_SYMS: dict = {}
_MAX_PLAIN_SYMS = 1 << 14


def shared_sym(name: str) -> Sym:
    """Sym(name), the one built before for the same name."""
    known = _PLAIN_SYMS.get(name)
    if known is None:
        known = Sym(name)
        if len(_PLAIN_SYMS) < _MAX_PLAIN_SYMS:
            _PLAIN_SYMS[name] = known
    return known


# Loop-carried names (a Sym with a default, which the front end makes for every variable a loop
# assigns): one Sym per (name, default's structure, varying) for one file, as shared_sym keeps one
# per plain name. Kernels of a file start their loops alike (`for (int i = 0; ...)`, `sum = 0.0f`),
# and such a Sym costs a _measure, three joins and an interned structure to build.
_LOOP_SYMS: dict = {}
_MAX_LOOP_SYMS = 1 << 14


def shared_loop_sym(name: str, default: Expr, varying: bool) -> Sym:
    """Sym(name, default, varying), the one built before with the same name, varying and default
    structure. Shared only for defaults of the classes whose structure key tells them apart
    (_SHAREABLE, as shared_binary); any other default gets a Sym of its own."""
    if default.__class__ not in _SHAREABLE:
        return Sym(name, default, varying)
    signature = (name, default._key, varying)
    known = _LOOP_SYMS.get(signature)
    if known is None:
        known = Sym(name, default, varying)
        if len(_LOOP_SYMS) < _MAX_LOOP_SYMS:
            _LOOP_SYMS[signature] = known
    return known


# str(node) by structure key, for one file: the front end names a field of a value by its
# expression's text (`s.x`, `s.y`, ... of one float4 each print the same tree), and __str__
# recurses over the whole tree. Equal keys print alike (a key interns the kind, the name, text
# or constant and the operands' keys), for the classes whose key tells them apart (_SHAREABLE).
_TEXTS: dict = {}
_MAX_TEXTS = 1 << 14


def text_of(node: Expr) -> str:
    """str(node), kept by its structure key."""
    if node.__class__ not in _SHAREABLE:
        return str(node)
    key = node._key
    text = _TEXTS.get(key)
    if text is None:
        text = str(node)
        if len(_TEXTS) < _MAX_TEXTS:
            _TEXTS[key] = text
    return text


_INT64_LIMIT = 1 << 63

# np.count_nonzero(a) without an axis is this C function behind two Python layers (the array-function
# dispatch and the axis check), which cost more than counting a block's flags: the sync executor asks
# it at every access, barrier and loop iteration, the memory analysis of its masks, and
# `not count_nonzero(a < 0)` asks whether an array has no negative element for about half of what
# `a.min() >= 0` costs through ndarray.min's Python wrapper.
# (numpy's own module, not its public API: where a numpy release moves it, the public function,
# which gives the same answers, is taken instead)
try:    # numpy >= 2
    from numpy._core.multiarray import count_nonzero
except ImportError:
    try:    # numpy 1.x
        from numpy.core.multiarray import count_nonzero
    except ImportError:
        count_nonzero = np.count_nonzero


def _c_divide(a, b):
    """C integer division truncates toward zero (numpy's // floors)."""
    if isinstance(a, (float, np.floating)) or isinstance(b, (float, np.floating)):
        return np.true_divide(a, b)
    if _by_positive_int(a, b):
        # the usual case (`tid / 32`): what the general path does; for lanes that are never
        # negative (thread indices, offsets from them) numpy's floor is the truncation
        if not count_nonzero(a < 0):
            return a // b
        quotient = np.abs(a) // b
        return np.where(a < 0, -quotient, quotient)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        if np.any(b == 0):
            raise Unevaluable("division by zero")
        quotient = np.abs(a) // np.abs(b)
        return np.where((a < 0) ^ (b < 0), -quotient, quotient)
    if b == 0:
        raise Unevaluable("division by zero")
    return c_int_divide(a, b)


def c_int_divide(a: int, b: int) -> int:
    """C's division of two ints (truncating towards zero), for a nonzero `b`."""
    quotient = abs(a) // abs(b)
    return -quotient if (a < 0) ^ (b < 0) else quotient


def _c_modulo(a, b):
    if _by_positive_int(a, b) and not count_nonzero(a < 0):
        return a % b                       # (C's and numpy's remainders agree there)
    return a - _c_divide(a, b) * b


def _by_positive_int(a, b) -> bool:
    """An int64 array of some lanes over a positive Python int."""
    return type(b) is int and 0 < b < _INT64_LIMIT and type(a) is np.ndarray and a.dtype == np.int64 and a.size > 0


def _as_int_array(value):
    return np.asarray(value, dtype=np.int64) if isinstance(value, np.ndarray) else int(value)


def _shift(a, b, left: bool):
    if type(b) is int:
        # (the usual count: a constant or a loop's counter, as `s >>= 1` steps it; asked without
        # numpy's reductions, a few microseconds a shift)
        if not 0 <= b <= 62:
            raise Unevaluable("shift out of range")
    else:
        b_arr = np.asarray(b)
        if np.any(b_arr < 0) or np.any(b_arr > 62):
            raise Unevaluable("shift out of range")
    a, b = _as_int_array(a), _as_int_array(b)
    return (a << b) if left else (a >> b)


def _compare(function):
    def apply(a, b):
        result = function(a, b)
        return result.astype(np.int64) if isinstance(result, np.ndarray) else int(result)
    return apply


_BINARY = {
    "+": operator.add,          # (the operator module's functions: no Python frame per node)
    "-": operator.sub,
    "*": operator.mul,
    "/": _c_divide,
    "%": _c_modulo,
    "<<": lambda a, b: _shift(a, b, True),
    ">>": lambda a, b: _shift(a, b, False),
    "&": lambda a, b: _as_int_array(a) & _as_int_array(b),
    "|": lambda a, b: _as_int_array(a) | _as_int_array(b),
    "^": lambda a, b: _as_int_array(a) ^ _as_int_array(b),
    "<": _compare(operator.lt),
    "<=": _compare(operator.le),
    ">": _compare(operator.gt),
    ">=": _compare(operator.ge),
    "==": _compare(operator.eq),
    "!=": _compare(operator.ne),
    "&&": _compare(np.logical_and),
    "||": _compare(np.logical_or),
}

BINARY_OPERATORS = frozenset(_BINARY)


def apply_binary(op: str, a, b):
    try:
        function = _BINARY[op]
    except KeyError:
        raise Unevaluable(f"operator {op}") from None
    return function(a, b)  # callers silence numpy's overflow warnings once (see analyze_source)


def map_tree(expr: Expr, visit) -> Expr:
    """`expr` rebuilt with `visit(node)` in place of every node for which it returns an Expr (that
    node's subtree is then not visited); nodes for which it returns None are kept, their children
    visited. Loop variables' defaults count as children. A node shared by several parents is
    visited and rebuilt once, so the result shares it too."""
    done: dict = {}                 # id(node) -> its replacement
    opened: set = set()             # nodes whose children are being rebuilt
    stack = [expr]
    while stack:
        node = stack[-1]
        key = id(node)
        if key in done:
            stack.pop()
            continue
        if key not in opened:
            found = visit(node)
            if found is not None:
                done[key] = found
                stack.pop()
                continue
            opened.add(key)
            stack.extend(reversed([c for c in node.children() if id(c) not in done]))
            continue
        done[key] = _rebuild(node, [done[id(c)] for c in node.children()])
        stack.pop()
    return done[id(expr)]


def _rebuild(node: Expr, children: list) -> Expr:
    if all(new is old for new, old in zip(children, node.children())):
        folds = isinstance(node, Binary) and any(isinstance(c, Const) for c in children)
        return binary(node.op, *children) if folds else node
    if isinstance(node, Sym):
        return Sym(node.name, children[0], node.varying)
    if isinstance(node, Binary):
        return binary(node.op, *children)
    if isinstance(node, Unary):
        return Unary(node.op, children[0])
    if isinstance(node, Select):
        return Select(*children)
    if isinstance(node, Load):
        return Load(node.array, children[0])
    if isinstance(node, Call):
        return Call(node.name, tuple(children))
    if isinstance(node, Opaque):
        return Opaque(node.text, tuple(children), node.thread_varying)
    return node


def substitute(expr: Expr, names: dict) -> Expr:
    """Replace Syms by expressions (used to bind template constants and helper parameters)."""
    return map_tree(expr, lambda node: names.get(node.name) if isinstance(node, Sym) else None)


def replace_loads(expr: Expr, replacement) -> Expr:
    """The tree with every Load that `replacement(load)` maps to an Expr replaced by it (None keeps
    the Load and looks inside its index)."""
    return map_tree(expr, lambda node: replacement(node) if isinstance(node, Load) else None)


def is_block_uniform(expr: Expr) -> bool:
    """Same value for every thread of a block (depends only on block indices, shapes, parameters,
    uniform loop counters and data read at uniform addresses)."""
    return not expr.thread_dependent


def try_constant(expr: Expr, env: dict | None = None):
    """The integer value of an expression that does not depend on threads, or None."""
    try:
        value = expr.evaluate(env or {})
    except (Unevaluable, TypeError, ValueError, OverflowError):
        return None
    if isinstance(value, np.ndarray):
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def free_names(expr: Expr) -> frozenset:
    """Names with no value of their own: parameters and builtins, not loop variables (which carry
    their first-iteration value as a default)."""
    # Asked again and again of the same trees (every access and condition, by several analyses):
    # each node is built with its answer.
    return expr._free_names if isinstance(expr, Expr) else _EMPTY


def carried_names(expr: Expr) -> frozenset:
    """Names of loop-updated variables (symbols with a first-iteration default) the value reads."""
    return expr._carried

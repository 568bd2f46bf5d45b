"""Symbolic integer expressions over thread and block indices, parameters and loop variables.

The front end turns every index into an `Expr` tree. Analyses evaluate a tree for many threads at
once: the environment maps names such as "threadIdx.x" to numpy arrays (one entry per thread) and
parameters to integers, and `evaluate` returns an array. What cannot be known statically raises:
`Unbound` for a parameter with no value, `Indirect` for a value loaded from memory.

Loop variables and variables updated inside loops are `Sym`s with a `default`: the value they have on
the first iteration. An environment may override them (to look at later iterations).
"""

from __future__ import annotations

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
    __slots__ = ("_free_names",)   # memo of free_names(): trees are immutable once built

    def evaluate(self, env: dict):
        raise NotImplementedError

    def symbols(self) -> frozenset:
        """Every free name the value depends on (loop variables' defaults included)."""
        raise NotImplementedError

    def has_load(self) -> bool:
        return False

    @property
    def thread_dependent(self) -> bool:
        return bool(self.symbols() & THREAD_SYMBOLS) or self._opaque_thread_dependence()

    def _opaque_thread_dependence(self) -> bool:
        return False

    # Operators build trees (constant folding keeps them small).
    def __add__(self, other): return binary("+", self, other)
    def __radd__(self, other): return binary("+", other, self)
    def __sub__(self, other): return binary("-", self, other)
    def __rsub__(self, other): return binary("-", other, self)
    def __mul__(self, other): return binary("*", self, other)
    def __rmul__(self, other): return binary("*", other, self)


class Const(Expr):
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def evaluate(self, env):
        return self.value

    def symbols(self):
        return frozenset()

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

    def evaluate(self, env):
        value = env.get(self.name, _MISSING)
        if value is not _MISSING:
            return value
        if self.default is not None:
            return self.default.evaluate(env)
        raise Unbound(self.name)

    def symbols(self):
        own = frozenset({self.name})
        return own | self.default.symbols() if self.default is not None else own

    def has_load(self):
        return self.default is not None and self.default.has_load()

    def _opaque_thread_dependence(self):
        return self.varying or (self.default is not None and self.default.thread_dependent)

    def __str__(self):
        return self.name


class Load(Expr):
    """A value read from memory: `array[index]`. Its value is unknown; whether it varies across threads
    is not (threads that read the same address read the same value)."""
    __slots__ = ("array", "index")

    def __init__(self, array: str, index: Expr):
        self.array = array
        self.index = index

    def evaluate(self, env):
        raise Indirect(self.array)

    def symbols(self):
        return self.index.symbols()

    def has_load(self):
        return True

    def _opaque_thread_dependence(self):
        return self.index.thread_dependent

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

    def evaluate(self, env):
        raise Indirect(self.text)

    def symbols(self):
        result = frozenset()
        for operand in self.operands:
            result |= operand.symbols()
        return result

    def has_load(self):
        return True

    def _opaque_thread_dependence(self):
        return self.thread_varying or any(o.thread_dependent for o in self.operands)

    def __str__(self):
        return self.text


class Binary(Expr):
    __slots__ = ("op", "left", "right", "_apply")

    def __init__(self, op: str, left: Expr, right: Expr):
        self.op = op
        self.left = left
        self.right = right
        self._apply = _BINARY.get(op)   # looked up once: trees are evaluated many times

    def evaluate(self, env):
        if self._apply is None:
            raise Unevaluable(f"operator {self.op}")
        return self._apply(self.left.evaluate(env), self.right.evaluate(env))

    def symbols(self):
        return self.left.symbols() | self.right.symbols()

    def has_load(self):
        return self.left.has_load() or self.right.has_load()

    def _opaque_thread_dependence(self):
        return self.left._opaque_thread_dependence() or self.right._opaque_thread_dependence()

    def __str__(self):
        return f"({self.left} {self.op} {self.right})"


class Unary(Expr):
    __slots__ = ("op", "operand")

    def __init__(self, op: str, operand: Expr):
        self.op = op
        self.operand = operand

    def evaluate(self, env):
        value = self.operand.evaluate(env)
        if self.op == "-":
            return -value
        if self.op == "~":
            return ~np.asarray(value, dtype=np.int64) if isinstance(value, np.ndarray) else ~int(value)
        if self.op == "!":
            return np.logical_not(value).astype(np.int64) if isinstance(value, np.ndarray) else int(not value)
        return value

    def symbols(self):
        return self.operand.symbols()

    def has_load(self):
        return self.operand.has_load()

    def _opaque_thread_dependence(self):
        return self.operand._opaque_thread_dependence()

    def __str__(self):
        return f"{self.op}{self.operand}"


class Select(Expr):
    """`cond ? a : b`, also used to merge the values a variable has after an if/else."""
    __slots__ = ("condition", "if_true", "if_false")

    def __init__(self, condition: Expr, if_true: Expr, if_false: Expr):
        self.condition = condition
        self.if_true = if_true
        self.if_false = if_false

    def evaluate(self, env):
        condition = self.condition.evaluate(env)
        a = self.if_true.evaluate(env)
        b = self.if_false.evaluate(env)
        if isinstance(condition, np.ndarray) or isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return np.where(np.asarray(condition) != 0, a, b)
        return a if condition else b

    def symbols(self):
        return self.condition.symbols() | self.if_true.symbols() | self.if_false.symbols()

    def has_load(self):
        return self.condition.has_load() or self.if_true.has_load() or self.if_false.has_load()

    def _opaque_thread_dependence(self):
        return any(e._opaque_thread_dependence() for e in (self.condition, self.if_true, self.if_false))

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

    def evaluate(self, env):
        values = [a.evaluate(env) for a in self.args]
        function = self.FUNCTIONS[self.name]
        result = function(*values)
        return result if isinstance(result, np.ndarray) else int(result)

    def symbols(self):
        result = frozenset()
        for arg in self.args:
            result |= arg.symbols()
        return result

    def has_load(self):
        return any(a.has_load() for a in self.args)

    def _opaque_thread_dependence(self):
        return any(a._opaque_thread_dependence() for a in self.args)

    def __str__(self):
        return f"{self.name}({', '.join(map(str, self.args))})"


def const(value) -> Const:
    return Const(value)


def as_expr(value) -> Expr:
    return value if isinstance(value, Expr) else Const(value)


def binary(op: str, left, right) -> Expr:
    left, right = as_expr(left), as_expr(right)
    left_const, right_const = isinstance(left, Const), isinstance(right, Const)
    if not (left_const or right_const):
        return Binary(op, left, right)    # nothing to fold or simplify (most calls)
    if left_const and right_const:
        try:
            return Const(apply_binary(op, left.value, right.value))
        except (Unevaluable, ZeroDivisionError, ArithmeticError, TypeError, ValueError):
            pass
    if op == "+":
        if _is_const(left, 0):
            return right
        if _is_const(right, 0):
            return left
    if op == "-" and _is_const(right, 0):
        return left
    if op == "*":
        if _is_const(left, 1):
            return right
        if _is_const(right, 1):
            return left
        if _is_const(left, 0) or _is_const(right, 0):
            return Const(0)
    if op in ("/", ">>") and _is_const(right, 1 if op == "/" else 0):
        return left
    return Binary(op, left, right)


def _is_const(expr: Expr, value) -> bool:
    return isinstance(expr, Const) and expr.value == value


def _c_divide(a, b):
    """C integer division truncates toward zero (numpy's // floors)."""
    if isinstance(a, (float, np.floating)) or isinstance(b, (float, np.floating)):
        return np.true_divide(a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        if np.any(b == 0):
            raise Unevaluable("division by zero")
        quotient = np.abs(a) // np.abs(b)
        return np.where((a < 0) ^ (b < 0), -quotient, quotient)
    if b == 0:
        raise Unevaluable("division by zero")
    quotient = abs(a) // abs(b)
    return -quotient if (a < 0) ^ (b < 0) else quotient


def _c_modulo(a, b):
    return a - _c_divide(a, b) * b


def _as_int_array(value):
    return np.asarray(value, dtype=np.int64) if isinstance(value, np.ndarray) else int(value)


def _shift(a, b, left: bool):
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
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _c_divide,
    "%": _c_modulo,
    "<<": lambda a, b: _shift(a, b, True),
    ">>": lambda a, b: _shift(a, b, False),
    "&": lambda a, b: _as_int_array(a) & _as_int_array(b),
    "|": lambda a, b: _as_int_array(a) | _as_int_array(b),
    "^": lambda a, b: _as_int_array(a) ^ _as_int_array(b),
    "<": _compare(lambda a, b: a < b),
    "<=": _compare(lambda a, b: a <= b),
    ">": _compare(lambda a, b: a > b),
    ">=": _compare(lambda a, b: a >= b),
    "==": _compare(lambda a, b: a == b),
    "!=": _compare(lambda a, b: a != b),
    "&&": _compare(lambda a, b: np.logical_and(a, b)),
    "||": _compare(lambda a, b: np.logical_or(a, b)),
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
    visited. Loop variables' defaults count as children."""
    found = visit(expr)
    if found is not None:
        return found
    if isinstance(expr, Sym):
        return expr if expr.default is None else Sym(expr.name, map_tree(expr.default, visit), expr.varying)
    if isinstance(expr, Binary):
        return binary(expr.op, map_tree(expr.left, visit), map_tree(expr.right, visit))
    if isinstance(expr, Unary):
        return Unary(expr.op, map_tree(expr.operand, visit))
    if isinstance(expr, Select):
        return Select(map_tree(expr.condition, visit), map_tree(expr.if_true, visit), map_tree(expr.if_false, visit))
    if isinstance(expr, Load):
        return Load(expr.array, map_tree(expr.index, visit))
    if isinstance(expr, Call):
        return Call(expr.name, tuple(map_tree(a, visit) for a in expr.args))
    if isinstance(expr, Opaque):
        return Opaque(expr.text, tuple(map_tree(o, visit) for o in expr.operands), expr.thread_varying)
    return expr


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
    # Asked again and again of the same trees (every access and condition, by several analyses);
    # trees never change after construction, so the answer is kept on the node.
    try:
        return expr._free_names
    except AttributeError:
        pass
    names = _free_names(expr)
    if isinstance(expr, Expr):
        expr._free_names = names
    return names


def _free_names(expr) -> frozenset:
    if isinstance(expr, Sym):
        return free_names(expr.default) if expr.default is not None else frozenset({expr.name})
    if isinstance(expr, Binary):
        return free_names(expr.left) | free_names(expr.right)
    if isinstance(expr, Unary):
        return free_names(expr.operand)
    if isinstance(expr, Select):
        return free_names(expr.condition) | free_names(expr.if_true) | free_names(expr.if_false)
    if isinstance(expr, Load):
        return free_names(expr.index)
    if isinstance(expr, (Call, Opaque)):
        result = frozenset()
        for operand in (expr.args if isinstance(expr, Call) else expr.operands):
            result |= free_names(operand)
        return result
    return frozenset()

"""A tiny, safe evaluator for the arithmetic in problem specs ("ceil_div(n, 256)", "n * n").

Specs come from datasets and models, so `eval` is out of the question. We parse with `ast` and walk
a whitelist: numbers, names bound by the size configuration, + - * / // % **, unary minus, and the
functions below. Anything else is a SpecError naming the offending text.
"""

from __future__ import annotations

import ast
import math
import operator

from kernelscope.errors import InputError


class ExpressionError(InputError):
    """An expression in a spec is malformed or refers to an unknown name."""


def _ceil_div(a, b):
    return -(-a // b)


FUNCTIONS = {
    "ceil_div": _ceil_div,
    "min": min,
    "max": max,
    "abs": abs,
    "sqrt": math.sqrt,
    "int": int,
    "float": float,
}

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}

# Huge powers would let a spec hang the evaluator; sizes never need more than this.
_MAX_EXPONENT = 64
_MAX_TEXT = 500


def evaluate(text, names: dict) -> int | float:
    """Value of `text` (an expression string, int or float) with `names` bound."""
    if isinstance(text, bool):
        raise ExpressionError(f"expected a number or an expression, got {text!r}")
    if isinstance(text, (int, float)):
        return text
    if not isinstance(text, str):
        raise ExpressionError(f"expected a number or an expression, got {text!r}")
    if len(text) > _MAX_TEXT:
        raise ExpressionError(f"expression longer than {_MAX_TEXT} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ExpressionError(f"cannot parse expression {text!r}") from None
    try:
        return _walk(tree.body, names, text)
    except ZeroDivisionError:
        raise ExpressionError(f"division by zero in {text!r}") from None


def evaluate_int(text, names: dict) -> int:
    value = evaluate(text, names)
    if isinstance(value, float):
        if not value.is_integer():
            raise ExpressionError(f"{text!r} = {value} is not an integer")
        value = int(value)
    return value


def names_in(text) -> set[str]:
    """Free names an expression uses (for validating a spec without binding sizes)."""
    if not isinstance(text, str):
        return set()
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ExpressionError(f"cannot parse expression {text!r}") from None
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called}


def _walk(node, names, text):
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise ExpressionError(f"unknown name {node.id!r} in {text!r}")
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _walk(node.operand, names, text)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _walk(node.left, names, text)
        right = _walk(node.right, names, text)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ExpressionError(f"exponent {right} too large in {text!r}")
        return _BINARY[type(node.op)](left, right)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and not node.keywords):
        args = [_walk(arg, names, text) for arg in node.args]
        try:
            return FUNCTIONS[node.func.id](*args)
        except (TypeError, ValueError) as exc:
            raise ExpressionError(f"{node.func.id}(...) in {text!r}: {exc}") from None
    raise ExpressionError(f"unsupported syntax {ast.dump(node)[:40]}... in {text!r}")

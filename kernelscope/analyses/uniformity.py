"""Which values are the same for all threads of a launch, of a block, or of a warp.

Two ways to decide, used together:

- symbolically, from what an expression reads (`Expr.thread_dependent`): no thread index, no value
  loaded at a thread-dependent address, no variable updated with such values means the value is the
  same for every thread of a block;
- concretely, by evaluating the expression for every thread of one block (numpy arrays indexed by the
  linear thread id) when the block shape and the parameters it reads are known. That is what tells
  `threadIdx.x / 32 == 0` (the same within each warp) from `threadIdx.x % 2 == 0` (different in every
  warp), and `i < n` with n a multiple of the block size from one without.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernelscope import symbolic as sx

WARP_SIZE = 32

# uniformity levels, from most to least uniform
GRID = "grid"        # the same for every thread of the launch
BLOCK = "block"      # the same within each block
WARP = "warp"        # the same within each warp
THREAD = "thread"    # may differ between lanes of a warp

EVALUATION_ERRORS = (sx.Unevaluable, TypeError, ValueError, KeyError, OverflowError, ZeroDivisionError,
                     AttributeError, IndexError)


@dataclass(frozen=True)
class ThreadSpace:
    """The threads of one block, in linear order (x fastest), with their lane and warp numbers."""
    block: tuple
    linear: np.ndarray
    lane: np.ndarray
    warp: np.ndarray
    env: dict            # threadIdx.*, blockDim.*, %laneid, %warpid, warpSize

    @property
    def size(self) -> int:
        return int(self.linear.size)

    @property
    def warps(self) -> int:
        return int(self.warp[-1]) + 1 if self.size else 0


def thread_space(block) -> ThreadSpace:
    x, y, z = (tuple(block) + (1, 1, 1))[:3]
    linear = np.arange(x * y * z, dtype=np.int64)
    env = {
        "threadIdx.x": linear % x, "threadIdx.y": (linear // x) % y, "threadIdx.z": linear // (x * y),
        "blockDim.x": x, "blockDim.y": y, "blockDim.z": z, "warpSize": WARP_SIZE,
        "%laneid": linear % WARP_SIZE, "%warpid": linear // WARP_SIZE,
    }
    return ThreadSpace((x, y, z), linear, linear % WARP_SIZE, linear // WARP_SIZE, env)


def per_thread(expr, env: dict, size: int):
    """The expression's value for every thread (an array of `size`), or None when it cannot be known."""
    try:
        value = expr.evaluate(env)
    except EVALUATION_ERRORS:
        return None
    if isinstance(value, np.ndarray) and value.shape == (size,):
        # already one value per thread (the usual case): broadcast_to would only add overhead.
        # Callers treat the result as read-only either way.
        return None if value.dtype == object else value
    try:
        values = np.broadcast_to(np.asarray(value), (size,))
    except (ValueError, TypeError):
        return None
    return None if values.dtype == object else values


def truth(expr, env: dict, size: int):
    """A condition's truth for every thread, or None when it cannot be known."""
    values = per_thread(expr, env, size)
    if values is None:
        return None
    try:
        return np.asarray(values != 0, dtype=bool)
    except TypeError:
        return None


def level_of(values: np.ndarray, space: ThreadSpace) -> str:
    """How uniform concrete per-thread values are within the block."""
    if values.size == 0 or np.all(values == values[0]):
        return BLOCK
    first_of_warp = values[space.warp * WARP_SIZE]
    return WARP if np.all(values == first_of_warp) else THREAD


def classify(expr, block=None, bindings: dict | None = None) -> str:
    """The uniformity level of an expression; concrete when the block shape and bindings allow it."""
    if not expr.thread_dependent:
        reads_block = bool(expr.symbols() & sx.BLOCK_SYMBOLS)
        return BLOCK if reads_block or expr.has_load() else GRID
    if block is None:
        return THREAD
    space = thread_space(block)
    env = {**(bindings or {}), **space.env}
    values = per_thread(expr, env, space.size)
    return THREAD if values is None else level_of(values, space)


def divergent_branches(kernel, block, bindings: dict | None = None) -> list:
    """Branches whose condition can differ between the lanes of one warp."""
    return [branch for branch in kernel.branches
            if branch.condition is not None and classify(branch.condition, block, bindings) == THREAD]

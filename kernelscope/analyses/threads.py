"""The threads of one block as numpy arrays, and the environment that index expressions are evaluated in.

Every thread of the block is evaluated at once; warps are rows of 32 consecutive linear thread ids,
with the linear id `x + y*bx + z*bx*by` (so a 16x16 block puts two rows of 16 in each warp). A last,
partial warp is padded with inactive lanes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernelscope import symbolic as sx

WARP = 32
# Values for parameters nobody bound: large, and multiples of 64 elements, as real sizes usually are.
# Two different ones tell whether a quantity depends on the parameter.
PLACEHOLDER = 1 << 20
PLACEHOLDER_ALT = (1 << 20) + 64 * 7
DEFAULT_GRID = (1024, 1, 1)
REPRESENTATIVE_BLOCK = (1, 1, 1)   # blockIdx used for evaluation: not 0, so block offsets do not vanish
# What evaluating an index or a condition raises when its value cannot be known here
UNEVALUABLE = (sx.Unevaluable, TypeError, ValueError, OverflowError, ZeroDivisionError)


@dataclass(frozen=True)
class BlockShape:
    x: int
    y: int = 1
    z: int = 1

    @property
    def threads(self) -> int:
        return self.x * self.y * self.z

    @property
    def warps(self) -> int:
        return (self.threads + WARP - 1) // WARP

    def as_list(self) -> list[int]:
        return [self.x, self.y, self.z]


def thread_env(block: BlockShape, grid=None, bindings: dict | None = None) -> dict:
    """Environment with one entry per thread slot (warps padded to 32 lanes)."""
    slots = block.warps * WARP
    linear = np.arange(slots, dtype=np.int64)
    grid = grid or DEFAULT_GRID
    env = {
        "threadIdx.x": linear % block.x,
        "threadIdx.y": (linear // block.x) % block.y,
        "threadIdx.z": linear // (block.x * block.y),
        "%laneid": linear % WARP,
        "%warpid": linear // WARP,
        "blockDim.x": block.x, "blockDim.y": block.y, "blockDim.z": block.z,
        "gridDim.x": grid[0], "gridDim.y": grid[1], "gridDim.z": grid[2],
        "blockIdx.x": REPRESENTATIVE_BLOCK[0] if grid[0] > 1 else 0,
        "blockIdx.y": REPRESENTATIVE_BLOCK[1] if grid[1] > 1 else 0,
        "blockIdx.z": REPRESENTATIVE_BLOCK[2] if grid[2] > 1 else 0,
        "warpSize": WARP,
    }
    env.update(bindings or {})
    return env


def active_slots(block: BlockShape) -> np.ndarray:
    """True for slots that are real threads (the last warp may be partial)."""
    return np.arange(block.warps * WARP) < block.threads


def with_placeholders(expr: sx.Expr, env: dict, value: int) -> dict:
    """env plus `value` for every free name of expr that env does not bind."""
    return bind_missing(env, sx.free_names(expr), value)


def bind_missing(env: dict, names, value: int) -> dict:
    """env plus `value` for each of `names` that env does not bind (env itself when none)."""
    missing = [name for name in names if name not in env]
    return {**env, **dict.fromkeys(missing, value)} if missing else env


def evaluate_per_thread(expr: sx.Expr, env: dict, slots: int):
    """Evaluate for every slot; returns an int64 array of length `slots`."""
    value = expr.evaluate(env)
    array = np.asarray(value)
    if array.ndim == 0:
        array = np.full(slots, array.item())
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)):
            raise sx.Unevaluable("non-finite")
        array = array.astype(np.int64)
    return array.astype(np.int64, copy=False)


def condition_values(expr: sx.Expr, env: dict, slots: int) -> np.ndarray | None:
    """A condition's truth for every slot, placeholders standing in for unbound scalars; None when
    it cannot be evaluated (it reads data, or calls what we do not model) or when it depends on how
    unbound scalars compare: one placeholder for all makes `tid >= Size - 1 - t` true everywhere
    (Rodinia gaussian's early return), so two spreads of distinct values must agree with it."""
    unbound = sorted(name for name in sx.free_names(expr) if name not in env)
    try:
        truth = evaluate_per_thread(expr, bind_missing(env, unbound, PLACEHOLDER), slots) != 0
        if len(unbound) > 1 and _decided_by_stand_ins(expr, env, unbound, truth, slots):
            return None
        return truth
    except UNEVALUABLE:
        return None


def _decided_by_stand_ins(expr: sx.Expr, env: dict, unbound: list, truth: np.ndarray, slots: int) -> bool:
    """Whether spreading the unbound scalars over distinct values changes the condition's truth.
    Asked once per condition (kept on the node, as symbolic's folds are): the answer depends on how
    the scalars compare, not on the loop values the analyses try one after another."""
    names = tuple(unbound)
    kept = getattr(expr, "_decided_by_stand_ins", None)
    if kept is not None and kept[0] == names:
        return kept[1]
    decided = False
    for order in (unbound, unbound[::-1]):
        spread = {**env, **{name: PLACEHOLDER * (k + 2) for k, name in enumerate(order)}}
        if not np.array_equal(evaluate_per_thread(expr, spread, slots) != 0, truth):
            decided = True
            break
    expr._decided_by_stand_ins = (names, decided)
    return decided


def condition_mask(conditions, env: dict, slots: int) -> np.ndarray:
    """Which slots satisfy every guarding condition; conditions we cannot evaluate count as true."""
    mask = np.ones(slots, dtype=bool)
    for condition in conditions:
        truth = condition_values(condition.expr, env, slots)
        if truth is not None:
            mask &= ~truth if condition.negated else truth
    if not mask.any() and any(name not in env for c in conditions for name in sx.free_names(c.expr)):
        # no thread at all passes only because of the values standing in for unbound scalars (Rodinia
        # pathfinder's `xidx >= 0` with xidx = (256 - 2 * iteration) * bx - border + tx): undecided
        return condition_mask([c for c in conditions if all(n in env for n in sx.free_names(c.expr))], env, slots)
    return mask

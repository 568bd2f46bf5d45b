"""The threads of one block: their indices as numpy arrays, the environment that index expressions
and conditions are evaluated in, and which values are the same across a warp, a block or a launch.

Every thread of the block is evaluated at once, in linear order `x + y*bx + z*bx*by` (x fastest);
warps are rows of WARP_SIZE consecutive linear ids (so a 16x16 block puts two rows of 16 in each
warp). The memory analysis pads a last, partial warp with inactive lanes, so that arrays reshape
into whole warps; the sync analysis keeps exactly the block's threads. `thread_space` builds both.

Uniformity is decided two ways, used together:

- symbolically, from what an expression reads (`Expr.thread_dependent`): no thread index, no value
  loaded at a thread-dependent address, no variable updated with such values means the value is the
  same for every thread of a block;
- concretely, by evaluating the expression for every thread of one block when the block shape and
  the parameters it reads are known. That is what tells `threadIdx.x / 32 == 0` (the same within
  each warp) from `threadIdx.x % 2 == 0` (different in every warp), and `i < n` with n a multiple of
  the block size from one without.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.records import record

from kernelscope.symbolic import count_nonzero     # (re-exported: trips and sync take it from here)

WARP_SIZE = 32                     # lanes per warp
# Values for parameters nobody bound: large, and multiples of 64 elements, as real sizes usually are.
# Two different ones tell whether a quantity depends on the parameter.
PLACEHOLDER = 1 << 20
PLACEHOLDER_ALT = (1 << 20) + 64 * 7
DEFAULT_GRID = (1024, 1, 1)
REPRESENTATIVE_BLOCK = (1, 1, 1)   # blockIdx used for evaluation: not 0, so block offsets do not vanish

# Uniformity levels, from most to least uniform (the strings are what reports show)
LEVEL_GRID = "grid"                # the same for every thread of the launch
LEVEL_BLOCK = "block"              # the same within each block
LEVEL_WARP = "warp"                # the same within each warp
LEVEL_THREAD = "thread"            # may differ between lanes of a warp

# What evaluating an index or a condition raises when its value cannot be known here: symbolic's
# own errors, and what numpy and Python raise for values they cannot combine (a call to a function
# symbolic does not model is a KeyError, a shift out of range an OverflowError, ...)
UNEVALUABLE = (sx.Unevaluable, TypeError, ValueError, KeyError, OverflowError, ZeroDivisionError,
               AttributeError, IndexError)


@record(frozen=True)
class BlockShape:
    """A block's dimensions."""
    x: int
    y: int = 1
    z: int = 1

    @property
    def threads(self) -> int:
        return self.x * self.y * self.z

    @property
    def warps(self) -> int:
        return (self.threads + WARP_SIZE - 1) // WARP_SIZE

    @property
    def slots(self) -> int:
        """Lanes of the block's warps, the padding of a partial last warp included."""
        return self.warps * WARP_SIZE

    def as_list(self) -> list[int]:
        return [self.x, self.y, self.z]


@record(frozen=True)
class ThreadSpace:
    """The threads of one block as arrays indexed by linear thread id (padded to whole warps or not),
    with their lane and warp numbers and whether each slot is a real thread."""
    block: BlockShape
    linear: np.ndarray
    lane: np.ndarray
    warp: np.ndarray
    active: np.ndarray   # False for the padding of a partial last warp
    env: dict            # threadIdx.*, blockDim.*, %laneid, %warpid, warpSize

    @property
    def size(self) -> int:
        return int(self.linear.size)

    @property
    def warps(self) -> int:
        return self.block.warps


def block_shape(block) -> BlockShape:
    """A BlockShape from one, or from a sequence of up to three dimensions (missing ones are 1)."""
    if isinstance(block, BlockShape):
        return block
    return BlockShape(*(tuple(block) + (1, 1, 1))[:3])


def thread_space(block, padded: bool = False) -> ThreadSpace:
    """The block's threads; `padded` adds inactive lanes up to a whole last warp. One space per
    shape is built and shared (a file's kernels mostly run in a few shapes): treat it as read-only."""
    return _thread_space(block_shape(block), padded)


@lru_cache(maxsize=64)
def _thread_space(shape: BlockShape, padded: bool) -> ThreadSpace:
    x, y = shape.x, shape.y
    linear = np.arange(shape.slots if padded else shape.threads, dtype=np.int64)
    lane, warp = linear % WARP_SIZE, linear // WARP_SIZE
    env = {
        "threadIdx.x": linear % x, "threadIdx.y": (linear // x) % y, "threadIdx.z": linear // (x * y),
        "%laneid": lane, "%warpid": warp,
        "blockDim.x": x, "blockDim.y": y, "blockDim.z": shape.z, "warpSize": WARP_SIZE,
    }
    active = linear < shape.threads
    for array in (linear, lane, warp, active, *(value for value in env.values() if isinstance(value, np.ndarray))):
        array.setflags(write=False)       # shared by every kernel of this shape
    return ThreadSpace(shape, linear, lane, warp, active, env)


# -- the padded space of the memory, divergence and intensity analyses --------------------------------

def thread_env(block: BlockShape, grid=None, bindings: dict | None = None) -> dict:
    """Environment with one entry per thread slot (warps padded to WARP_SIZE lanes), the grid's
    shape, a representative block index, and `bindings` on top."""
    grid = grid or DEFAULT_GRID
    env = dict(thread_space(block, padded=True).env)
    env.update({
        "gridDim.x": grid[0], "gridDim.y": grid[1], "gridDim.z": grid[2],
        "blockIdx.x": REPRESENTATIVE_BLOCK[0] if grid[0] > 1 else 0,
        "blockIdx.y": REPRESENTATIVE_BLOCK[1] if grid[1] > 1 else 0,
        "blockIdx.z": REPRESENTATIVE_BLOCK[2] if grid[2] > 1 else 0,
    })
    env.update(bindings or {})
    return env


def shared_thread_env(block: BlockShape, grid=None, bindings: dict | None = None) -> tuple:
    """(thread_env(block, grid, bindings), its Lanes signature), made once per launch shape and
    bindings and shared by every kernel analysed with them (read-only, as Lanes treats its env):
    building the dict and sorting its signature was a third of a kernel's set-up for the memory
    and intensity analyses. Only grids and bindings of plain ints, bools and floats are keyed
    (see _scalar_key); others get a pair of their own."""
    return shared_launch(block, grid, bindings)[:2]


def shared_launch(block: BlockShape, grid=None, bindings: dict | None = None) -> tuple:
    """(env, signature, slots, active): shared_thread_env's pair with the block's slot count and
    active_slots(block), kept with it, so that a kernel's ExecWeights needs no look-up by the
    block's shape (the BlockShape hash and comparison of active_slots' cache)."""
    # one key over the block's, grid's and bindings' values together (one call, not one a part): a
    # block has three values and the bindings one a name, so the names tell where the grid's end
    sizes = grid or ()
    names = tuple(bindings) if bindings else ()
    values = _scalar_key((block.x, block.y, block.z, *sizes, *bindings.values()) if bindings
                         else (block.x, block.y, block.z, *sizes))
    key = None if values is None else (values, names)
    launch = _SHARED_ENVS.get(key) if key is not None else None
    if launch is None:
        env = thread_env(block, grid, bindings)
        slots = block.slots
        launch = (env, _signature(env, slots), slots, active_slots(block))
        if key is not None:
            if len(_SHARED_ENVS) >= _MAX_SHARED_ENVS:
                _SHARED_ENVS.clear()
            _SHARED_ENVS[key] = launch
    return launch


def _scalar_key(values):
    """A key for a sequence of plain scalars, equal only for values that evaluate alike (1, 1.0 and
    True are equal as Python keys, and so are 0.0 and -0.0: the type and a float's text tell them
    apart); None when one is anything else."""
    key = []
    for value in values:
        kind = type(value)
        if kind is int or kind is bool:
            key.append((kind, value))
        elif kind is float:
            key.append((kind, repr(value)))
        else:
            return None
    return tuple(key)


_SHARED_ENVS: dict = {}
_MAX_SHARED_ENVS = 256


def active_slots(block: BlockShape) -> np.ndarray:
    """True for slots that are real threads (the last warp may be partial): the padded thread
    space's, shared by every kernel of the shape (read-only), not made again for each."""
    return thread_space(block, padded=True).active


def with_placeholders(expr: sx.Expr, env: dict, value: int) -> dict:
    """env plus `value` for every free name of expr that env does not bind."""
    return bind_missing(env, sx.free_names(expr), value)


def bind_missing(env: dict, names, value: int) -> dict:
    """env plus `value` for each of `names` that env does not bind (env itself when none)."""
    missing = [name for name in names if name not in env]
    return {**env, **dict.fromkeys(missing, value)} if missing else env


def evaluate_per_thread(expr: sx.Expr, env: dict, slots: int):
    """Evaluate for every slot; returns an int64 array of length `slots`. Raises what UNEVALUABLE
    lists when the value cannot be known."""
    return _as_slots(expr.evaluate(env), slots)


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


def _decided_by_stand_ins(expr: sx.Expr, env: dict, unbound: list, truth: np.ndarray, slots: int,
                          evaluate=None) -> bool:
    """Whether spreading the unbound scalars over distinct values changes the condition's truth.
    Asked once per condition (kept on the node, as symbolic's folds are): the answer depends on how
    the scalars compare, not on the loop values the analyses try one after another. `evaluate`,
    when given, is evaluate_per_thread(expr, spread, slots) for an environment `spread` that
    differs from env in the unbound names only (Lanes' reuses env's values of the parts that
    read none of them)."""
    names = tuple(unbound)
    kept = _kept_verdict(expr, names)
    if kept is not None:
        return kept
    decided = False
    for order in (unbound, unbound[::-1]):
        spread = {**env, **{name: PLACEHOLDER * (k + 2) for k, name in enumerate(order)}}
        values = evaluate_per_thread(expr, spread, slots) if evaluate is None else evaluate(spread)
        if not _same_truth(values != 0, truth):
            decided = True
            break
    expr._decided_by_stand_ins = (names, decided)
    return decided


def _kept_verdict(expr: sx.Expr, names: tuple) -> bool | None:
    """What _decided_by_stand_ins answered for expr over these unbound names (sorted), kept on the
    node by the first environment that asked; None when it has not been asked for them."""
    kept = getattr(expr, "_decided_by_stand_ins", None)
    return kept[1] if kept is not None and kept[0] == names else None


def _same_truth(a: np.ndarray, b: np.ndarray) -> bool:
    """np.array_equal(a, b) for two boolean arrays, without its Python layers (asked twice for every
    guard over several unbound scalars judged for the first time)."""
    return a.shape == b.shape and not count_nonzero(a != b)


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


_UNSIGNED = object()
_NOT_KEPT = object()         # what no kept value or answer is (here, and for Lanes.answers' readers)

# mask_in computes the guards that read no loop variable once per set of guards, not once per
# combination of loop values (the switch is for tests that compare with the general path)
KEEP_FIXED_GUARDS = True
# Lanes._lanes_within gives the kernels of one environment one Lanes for a loop value, kept with the
# parent's kept values, instead of a new one per kernel: a kernel asks it only for conditions
# (mask_in), whose truths are kept by structure for the environment anyway, except those of nodes the
# stand-ins may decide (_own_truths), which each kernel (each parent Lanes) keeps apart and hands
# the shared Lanes when it asks (the switch is for tests that compare with a Lanes per kernel)
SHARE_WITHIN_LANES = True
# Lanes evaluates an expression under PLACEHOLDER_ALT, and a condition under _decided_by_stand_ins'
# spread values, with the values kept under PLACEHOLDER of its parts that read none of the unbound
# names (the switch is for tests that compare with the general path)
SHARE_BOUND_PARTS = True
# A Lanes of loop values (_lanes_within) evaluates an expression with the values its parent keeps of
# the parts that read none of the loop variables, and hands the parent those it computes, so that the
# next loop value finds them (the switch is for tests that compare with the general path)
SHARE_OUTER_PARTS = True
# Lanes._lanes_within finds a loop value's kept values through its parent's (the switch is for tests
# that compare with the general path)
WITHIN_THROUGH_PARENT = True


class Lanes:
    """The padded thread slots of one block under one environment, with what the memory, divergence
    and intensity analyses ask of them kept, so that each is computed once: every expression's
    value for every slot (PLACEHOLDER or PLACEHOLDER_ALT standing in for unbound scalars, as
    evaluate_per_thread(expr, with_placeholders(expr, env, value), slots) gives it), each node's
    value on the way, each condition's truth (condition_values) and each guard's mask
    (condition_mask). Values are kept by the expressions' structure (symbolic.structure_key), for
    every Lanes of an equal environment: subexpressions that a kernel's accesses and conditions
    share, and kernels written alike (copies, instantiations with the same arguments), are
    evaluated once per launch shape and bindings."""

    def __init__(self, env: dict, slots: int, active: np.ndarray, signature=_UNSIGNED, kept=None):
        """`kept`, when given, is _kept_for(signature, env, slots)'s answer, found by the caller."""
        self.env, self.slots, self.active = env, slots, active
        if signature is _UNSIGNED:
            signature = _signature(env, slots)
        self.signature = signature
        self._kept = kept if kept is not None else _kept_for(signature, env, slots)
        # kept()'s answers, for a caller that looks its key up before it makes the function that
        # computes the answer (read-only: kept() adds to it)
        self.answers = self._kept.answers
        # id(expr) -> truth, for conditions stand-ins may decide (in a Lanes of a loop value, which
        # kernels share, the asking kernel's: see _lanes_within)
        self._own_truths: dict = {}
        self._within: dict = {}      # changed names and values -> (Lanes of that environment, its _own_truths here)
        self._raw: dict = {}         # ids of conditions -> AND of the truths that are known
        self._masks: dict = {}       # ids of conditions -> condition_mask's answer
        self._active: dict = {}      # ids of conditions -> active slots that pass them
        # (ids of conditions, changed names) -> (the conditions, AND of the guards that read none of
        # those names, the guards that do): mask_in's part that stays for every value of the names
        self._fixed_parts: dict = {}
        self._whole_warps = None     # _fills_warps' answer, once asked
        # for a Lanes of loop values: (the parent's node values under PLACEHOLDER, the loop variables'
        # names), set by _lanes_within (see _evaluate_with_outer_parts)
        self._outer = None

    def values(self, expr: sx.Expr, stand_in: int = PLACEHOLDER) -> np.ndarray:
        """expr's value for every slot (int64, read-only by convention); raises what UNEVALUABLE lists."""
        values = self._kept.values[stand_in]
        key = sx.structure_key(expr)
        kept = values.get(key)
        if kept is None:
            # (an expression that cannot be evaluated raises again each time: keeping the exception
            # would keep its traceback's frames, and with them a kernel's records, alive; only what
            # a load raises is kept, as its class and arguments, since addresses of indirect
            # accesses are asked for in every kernel that has one)
            try:
                kept = values[key] = self._evaluate(expr, stand_in)
            except sx.Indirect as exc:
                values[key] = _Raised(exc.__class__, exc.args)
                raise
        elif kept.__class__ is _Raised:
            raise kept.error(*kept.args)
        return kept

    def bound_values(self, expr: sx.Expr) -> np.ndarray:
        """evaluate_per_thread(expr, env, slots): `values` where env binds every name expr reads (the
        two agree then, and `values` keeps its answer), else that call, which raises for the
        unbound names instead of standing in for them."""
        if all(name in self.env for name in sx.free_names(expr)):
            return self.values(expr)
        return evaluate_per_thread(expr, self.env, self.slots)

    def _evaluate(self, expr: sx.Expr, stand_in: int) -> np.ndarray:
        env = self.env
        missing = [name for name in sx.free_names(expr) if name not in env]
        if missing:
            env = {**env, **dict.fromkeys(missing, stand_in)}
            if not sx.carried_names(expr).isdisjoint(missing):
                # a name that is both unbound and a loop variable here: the stand-in replaces the
                # loop variable's first value in this expression only, so its nodes share nothing
                return _as_slots(sx.evaluate(expr, env), self.slots)
            if stand_in != PLACEHOLDER and SHARE_BOUND_PARTS:
                # the parts that read none of the missing names have the values they have under
                # PLACEHOLDER (memory's second stand-in asks again for an address asked before)
                nodes = self._kept.nodes[stand_in]
                for key, value in self._bound_parts(expr, missing).items():
                    nodes.setdefault(key, value)
        # Every node's value is now the same in each expression's environment: a node's unbound
        # names are unbound in every expression that contains it, and get the same stand-in.
        if self._outer is not None and stand_in == PLACEHOLDER:
            return _as_slots(self._evaluate_with_outer_parts(expr, env), self.slots)
        return _as_slots(sx.evaluate_shared(expr, env, self._kept.nodes[stand_in]), self.slots)

    def _evaluate_with_outer_parts(self, expr: sx.Expr, env: dict):
        """evaluate_shared(expr, env, nodes under PLACEHOLDER) in a Lanes of loop values, whose
        environment is its parent's with the loop variables set: a subtree that reads none of them
        has the value it has in the parent (the same names, bound alike or standing in alike). The
        largest such subtrees take the parent's kept values, and those the parent lacks are handed
        to it once computed here, for the other loop values (the index of a stencil's neighbour
        `(blockIdx.x * blockDim.x + threadIdx.x) + di` is computed once, not once per `di`)."""
        outer, loop_names, parts_by_expr = self._outer
        parts = parts_by_expr.get(expr._key)
        if parts is None:
            parts = parts_by_expr[expr._key] = _outer_parts(expr, loop_names)
        nodes = self._kept.nodes[PLACEHOLDER]
        lacking = []            # parts the parent has no value for
        for key in parts:
            value = outer.get(key, _NOT_KEPT)
            if value is not _NOT_KEPT:
                nodes.setdefault(key, value)
            elif key not in nodes:
                lacking.append(key)
        value = sx.evaluate_shared(expr, env, nodes)
        for key in lacking:
            part = nodes.get(key, _NOT_KEPT)
            if part is not _NOT_KEPT:
                outer.setdefault(key, part)
        return value

    def _bound_parts(self, expr: sx.Expr, names) -> dict:
        """{structure key: value} of the largest subtrees of expr that look up none of `names`, for
        those whose value under PLACEHOLDER is kept: their value in any environment that differs
        from this one's (with stand-ins) in `names` only."""
        kept = self._kept.nodes[PLACEHOLDER]
        parts = {}
        for node in _largest_parts_without(expr, names):
            value = kept.get(node._key, _NOT_KEPT)
            if value is not _NOT_KEPT:
                parts[node._key] = value
        return parts

    def _spread_evaluator(self, expr: sx.Expr, unbound: list):
        """evaluate_per_thread(expr, spread, slots) for _decided_by_stand_ins' environments (this one
        with `unbound` set), reusing the values kept here of the parts that read none of them;
        None (the general evaluation) for a tree where a loop variable is one of them."""
        if not SHARE_BOUND_PARTS or not sx.carried_names(expr).isdisjoint(unbound):
            return None
        parts = self._bound_parts(expr, unbound)
        if not parts:
            return None
        return lambda spread: _as_slots(sx.evaluate_shared(expr, spread, dict(parts)), self.slots)

    def condition(self, expr: sx.Expr) -> np.ndarray | None:
        """condition_values(expr, env, slots), once per condition."""
        # (the names env lacks, found in C: a frozenset's difference with a dict looks each name up
        # with its kept hash; only their number matters below unless there are several)
        unbound = sx.free_names(expr).difference(self.env)
        if len(unbound) > 1:
            unbound = sorted(unbound)    # (what condition_values judges with, in order)
            verdict = _kept_verdict(expr, tuple(unbound))
            if verdict is not None:
                # judged before, maybe in another environment: _decided_by_stand_ins keeps the
                # verdict of the first one the node met, so this truth is the node's own
                return self._own_truth(expr, verdict)
            return self._first_judgement(expr, unbound)
        return self._truth(expr)

    def truths_kept_by_structure(self, conditions) -> bool:
        """Whether condition() answers every one of `conditions` with the truth kept by its structure
        for this environment (_truth): each has at most one name the environment lacks. With more,
        stand-ins judge it, and their verdict is the first node's own, which may differ between
        kernels; an answer derived from such truths must not be kept by structure."""
        env = self.env
        return all(len(sx.free_names(c.expr).difference(env)) <= 1 for c in conditions)

    def _own_truth(self, expr: sx.Expr, decided: bool):
        """_judge(expr, unbound) for a node whose verdict on the stand-ins (`decided`) is kept for
        these unbound names already, first asked here: None when the stand-ins decide it, else the
        truth every condition of its structure has in this environment. That truth is kept with
        the environment's (`_truth`), so that the values are not compared with 0 again for each
        kernel's copy of the guard."""
        key = id(expr)
        if key not in self._own_truths:
            self._own_truths[key] = None if decided else self._truth(expr)
        return self._own_truths[key]

    def _truth(self, expr: sx.Expr):
        """values(expr) != 0, or None when it cannot be evaluated, kept by structure for every Lanes
        of an equal environment (what condition() keeps for conditions over at most one unbound
        scalar; a structure's unbound names are the same wherever it meets this environment)."""
        truths, key = self._kept.truths, sx.structure_key(expr)
        if key in truths:
            return truths[key]
        try:
            truth = self.values(expr) != 0
        except UNEVALUABLE:
            truth = None
        truths[key] = truth
        return truth

    def _judge(self, expr: sx.Expr, unbound: list):
        """A condition's truth per lane, or None when it cannot be evaluated or the stand-in
        values of the unbound scalars decide it."""
        try:
            truth = self.values(expr) != 0
            decided = _decided_by_stand_ins(expr, self.env, unbound, truth, self.slots,
                                            self._spread_evaluator(expr, unbound))
            return None if decided else truth
        except UNEVALUABLE:
            return None

    def _first_judgement(self, expr: sx.Expr, unbound: list):
        """The truth of a condition over several unbound scalars judged for the first time, here:
        the same for every node of its structure judged first in an equal environment, so kept
        with the verdict left on the node."""
        key = sx.structure_key(expr)
        kept = self._kept.judged.get(key)
        if kept is None:
            truth = self._judge(expr, unbound)
            kept = self._kept.judged[key] = (truth, getattr(expr, "_decided_by_stand_ins", None))
        elif kept[1] is not None:
            expr._decided_by_stand_ins = kept[1]
        self._own_truths[id(expr)] = kept[0]
        return kept[0]

    def mask(self, conditions) -> np.ndarray:
        """condition_mask(conditions, env, slots), once per distinct list of guards."""
        key = tuple(map(id, conditions))
        mask = self._masks.get(key)
        if mask is None:
            mask = self._known(conditions, key)
            if not count_nonzero(mask) and \
                    any(name not in self.env for c in conditions for name in sx.free_names(c.expr)):
                # see condition_mask: undecided when only the stand-ins make every thread fail
                # (count_nonzero: mask.any() without its Python layers)
                mask = self.mask([c for c in conditions if all(n in self.env for n in sx.free_names(c.expr))])
            self._masks[key] = mask
        return mask

    def _known(self, conditions, key: tuple) -> np.ndarray:
        """The AND of the guards' truths that are known; guards nest, so a list's prefix is usually
        kept already (the statements of an outer if)."""
        mask = self._raw.get(key)
        if mask is None:
            if not conditions:
                mask = _all_slots(self.slots)
            else:
                outer = self._known(conditions[:-1], key[:-1])
                last = conditions[-1]
                truth = self.condition(last.expr)
                if truth is None:
                    mask = outer
                else:
                    mask = outer & (~truth if last.negated else truth)
            self._raw[key] = mask
        return mask

    def mask_in(self, conditions, env: dict, changed: dict) -> np.ndarray:
        """condition_mask(conditions, env, slots) for an environment that differs from this one only
        in the names of `changed` (loop variables set to one of their values, as in env): a guard
        that reads none of them keeps the truth it has here."""
        if KEEP_FIXED_GUARDS:
            _, mask, varying = self._kept_fixed_part(conditions, changed)
            # (mask is read-only: the ANDs below make new arrays)
        else:
            mask, varying = np.ones(self.slots, dtype=bool), conditions
        within = None
        for condition in varying:
            expr = condition.expr
            if changed.keys().isdisjoint(expr._env_names):
                truth = self.condition(expr)
            else:
                within = within or self._lanes_within(env, changed)
                truth = within.condition(expr)
            if truth is not None:
                # (on booleans, mask > truth is mask & ~truth in one operation)
                mask = mask > truth if condition.negated else mask & truth
        if not count_nonzero(mask) and any(name not in env for c in conditions for name in sx.free_names(c.expr)):
            # see condition_mask (count_nonzero: mask.any() without its Python layers)
            return self.mask_in([c for c in conditions if all(n in env for n in sx.free_names(c.expr))], env, changed)
        return mask

    def masks_over_values(self, conditions, names: tuple, rows: list):
        """mask_in(conditions, {**env, **changed}, changed) with changed = dict(zip(names, row)) for
        every row of `rows` (tuples of loop values) at once, as the rows of a (len(rows), slots)
        boolean array: each guard that reads one of `names` is evaluated once, with each name bound
        to a column of its values (broadcast against the lanes). None where that could differ from
        the calls one row at a time, which the caller then makes: a guard that reads data or
        several names the environment lacks that no verdict on their stand-ins is kept for, one
        of a form or size whose array evaluation may differ from a value's (_magnitude), or an
        evaluation that fails (the failure may be one row's only). Rows no lane passes are not
        re-judged here (mask_in's retry without the guards over unbound names): the caller asks
        mask_in for them."""
        changed = dict.fromkeys(names)
        _, mask, varying = self._kept_fixed_part(conditions, changed)
        count = len(rows)
        columns = np.array(rows, dtype=np.int64).reshape(count, len(names))
        env = self.env
        scope = None
        magnitudes = self.kept(_MAGNITUDES, lambda: _env_magnitudes(env))
        if magnitudes is None:
            return None
        bounds = {**magnitudes, **dict.fromkeys(names, int(np.abs(columns).max()))}
        for condition in varying:
            expr = condition.expr
            unbound = [n for n in expr._free_names.difference(env) if n not in changed]
            if expr._has_load:
                return None
            if len(unbound) > 1:
                # condition() answers with the verdict on the stand-ins kept on the node, where it is
                # there for these names (judged first for another value, statement or kernel): none
                # when they decide it, else the truth under PLACEHOLDER; a node not judged yet is
                # judged by the general path
                verdict = _kept_verdict(expr, tuple(sorted(unbound)))
                if verdict is None:
                    return None
                if verdict:
                    continue
            if _magnitude(expr, bounds, PLACEHOLDER) is None:
                return None
            if scope is None:
                scope = {**env, **{name: columns[:, k:k + 1] for k, name in enumerate(names)}}
            try:
                truth = _as_rows(sx.evaluate(expr, {**scope, **dict.fromkeys(unbound, PLACEHOLDER)}
                                             if unbound else scope), count, self.slots)
            except UNEVALUABLE:
                return None
            if truth is None:
                return None
            mask = mask > truth if condition.negated else mask & truth
        if mask.ndim == 1:
            mask = np.broadcast_to(mask, (count, self.slots))
        return mask

    def _kept_fixed_part(self, conditions, changed: dict) -> tuple:
        """_fixed_part(conditions, changed), kept per guard list and set of changed names."""
        key = (tuple(map(id, conditions)), frozenset(changed))
        part = self._fixed_parts.get(key)
        if part is None:
            part = self._fixed_parts[key] = self._fixed_part(conditions, changed)
        return part

    def _fixed_part(self, conditions, changed: dict) -> tuple:
        """mask_in's guards split: the AND of those that read none of `changed` (their truth is this
        environment's, whatever the loop values), and the list of those that do, in order."""
        fixed = None            # (all slots: made only when no guard's truth is known)
        varying = []
        for condition in conditions:
            expr = condition.expr
            if changed.keys().isdisjoint(expr._env_names):
                truth = self.condition(expr)
                if truth is not None:
                    truth = ~truth if condition.negated else truth
                    fixed = truth if fixed is None else fixed & truth
            else:
                varying.append(condition)
        return conditions, _all_slots(self.slots) if fixed is None else fixed, varying

    def _lanes_within(self, env: dict, changed: dict) -> Lanes:
        """The Lanes of `env`, this environment with `changed` names set (to loop values)."""
        try:
            if len(changed) == 1:   # (one loop's variable, the usual case: nothing to sort)
                (name, value), = changed.items()
                key = ((name, type(value), value),)
            else:
                key = tuple(sorted((name, type(value), value) for name, value in changed.items()))
            known = self._within.get(key)
        except TypeError:              # a value that cannot be compared or hashed: not kept
            return Lanes(env, self.slots, self.active, None)
        if known is not None:
            lanes, lanes._own_truths = known
            return lanes
        # every kernel of this environment meets the same loop values: the derived signature and
        # its kept values are found through this environment's, by the small key, rather than
        # by hashing and comparing the nested signature in _KEPT again (valid while _KEPT has
        # dropped nothing since and the values stay within their bound, as _kept_for checks)
        derived = self._kept.within.get(key) if WITHIN_THROUGH_PARENT else None
        if derived is None or derived[0] != _DROPS[0] or derived[2].size() > _MAX_SLOTS_PER_ENVIRONMENT:
            signature = None if self.signature is None or any(type(v) not in _SCALARS for v in changed.values()) \
                else (self.signature, tuple((name, kind, repr(value)) for name, kind, value in key))
            kept = _kept_for(signature, env, self.slots)
            derived = (_DROPS[0], signature, kept, None)
        lanes = derived[3]
        if lanes is None or lanes.active is not self.active:
            lanes = Lanes(env, self.slots, self.active, derived[1], derived[2])
            if SHARE_OUTER_PARTS:
                loop_names = frozenset(changed)
                parts_by_expr = self._kept.outer_parts.setdefault(loop_names, {})
                lanes._outer = (self._kept.nodes[PLACEHOLDER], loop_names, parts_by_expr)
            if derived[1] is not None:
                self._kept.within[key] = (*derived[:3], lanes if SHARE_WITHIN_LANES else None)
        # (the truths of nodes the stand-ins may decide stay this kernel's, as in a Lanes of its
        # own: a node's verdict can change between kernels, since nodes are shared by structure)
        lanes._own_truths = {}
        self._within[key] = (lanes, lanes._own_truths)
        return lanes

    def active_mask(self, conditions) -> np.ndarray:
        """Slots that are real threads and pass the guards (read-only by convention)."""
        key = tuple(map(id, conditions))
        mask = self._active.get(key)
        if mask is None:
            mask = self.mask(conditions)
            if not self._fills_warps():
                mask = self.active & mask
            self._active[key] = mask
        return mask

    def _fills_warps(self) -> bool:
        """Whether every slot is a real thread (no padding in the last warp: the usual block): then
        the guards' mask is already active_mask's answer, and ANDing it with all-True would only
        copy it. Asked of the Lanes the memory analysis uses, counted once."""
        if self._whole_warps is None:
            self._whole_warps = count_nonzero(self.active) == self.active.size
        return self._whole_warps

    def kept(self, key, compute):
        """compute(), once for every Lanes of an equal environment: for an answer that depends only
        on the environment's values and on what `key` says (structure keys, bytes of masks)."""
        answers = self._kept.answers
        if key in answers:
            return answers[key]
        answer = answers[key] = compute()
        return answer

    def as_bytes(self, values: np.ndarray) -> bytes:
        """values.tobytes() for an array this Lanes returned (a value or a truth), kept with the
        environment's values: the memory analysis keys its per-layout answers by the bytes, and a
        bytes object made once hashes once (an address vector is 8 bytes a slot)."""
        kept = self._kept.bytes
        entry = kept.get(id(values))
        if entry is None or entry[0] is not values:
            entry = kept[id(values)] = (values, values.tobytes())
        return entry[1]


def _outer_parts(expr: sx.Expr, loop_names: frozenset) -> tuple:
    """Structure keys of the largest subtrees of expr that read none of `loop_names` and are not
    leaves (a constant's or a name's value is found without a kept one)."""
    return tuple(node._key for node in _largest_parts_without(expr, loop_names)
                 if type(node) is not sx.Const and type(node) is not sx.Sym)


def _largest_parts_without(expr: sx.Expr, names):
    """The roots of expr's largest subtrees that look up none of `names`, each structure once: an
    expression is a DAG, and a walk of its tree is exponential in its depth (`i = i > n ? i : i + 1;`
    thirty times)."""
    seen = set()          # structure keys visited
    stack = [expr]
    while stack:
        node = stack.pop()
        if node._key in seen:
            continue
        seen.add(node._key)
        if node._env_names.isdisjoint(names):
            yield node
        else:
            stack.extend(node.children())


# masks_over_values evaluates with loop variables as columns of their values only where no integer
# anywhere in the guard can reach 2**53 in magnitude (_magnitude): there a value's Python ints and the
# array's int64 are the same numbers, and both convert to floats exactly, so every operation gives
# each row what it gives the value alone. Operators not listed (`<<`, calls other than min and max)
# and every node that is not a name, constant, operator or select leave the general path to answer.
_COLUMN_LIMIT = 1 << 53
_INTEGER_ONLY = frozenset((">>", "&", "|", "^"))
_COMPARISONS = frozenset(("<", "<=", ">", ">=", "==", "!=", "&&", "||"))
_FLOAT = -1.0                    # _magnitude of a float value (its size does not matter)
_MAGNITUDES = ("column magnitudes",)    # Lanes.kept's key for _env_magnitudes(env)


def _magnitude(expr: sx.Expr, bounds: dict, default: int):
    """A bound on the magnitude of every integer expr's evaluation may make (_FLOAT for a float
    result), with names bounded by `bounds` (names it lacks: `default`, what stands in for them),
    or None when the guard is not one masks_over_values may evaluate with columns."""
    known: dict = {}
    stack = [expr]
    while stack:
        node = stack[-1]
        key = node._key
        if key in known:
            stack.pop()
            continue
        kind = type(node)
        if kind is sx.Const:
            value = node.value
            known[key] = abs(value) if type(value) is int else _FLOAT if type(value) is float else None
            stack.pop()
            continue
        if kind is sx.Sym:
            bound = bounds.get(node.name)
            if bound is None and node.default is None:
                bound = default
            if bound is not None:
                known[key] = bound
                stack.pop()
                continue
            parts = (node.default,)
        elif kind is sx.Binary or kind is sx.Unary or kind is sx.Select or \
                (kind is sx.Call and node.name in ("min", "max", "umin", "umax")):
            parts = node.children()
        else:
            return None
        pending = [part for part in parts if part._key not in known]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        values = [known[part._key] for part in parts]
        if None in values:
            return None
        known[key] = bound = _combined_magnitude(node, kind, values)
        if bound is None or bound >= _COLUMN_LIMIT:
            return None
    return known[expr._key]


def _combined_magnitude(node, kind, values):
    """_magnitude of one node from its operands' (_FLOAT for floats); None where unsafe."""
    if kind is sx.Sym:
        return values[0]
    floats = _FLOAT in values
    if kind is sx.Binary:
        op, (a, b) = node.op, values
        if op in _COMPARISONS:
            return 1
        if op in _INTEGER_ONLY:
            return None if floats else a if op == ">>" else 2 * max(a, b) + 1
        if floats:
            return _FLOAT if op in ("+", "-", "*", "/", "%") else None
        if op == "+" or op == "-":
            return a + b
        if op == "*":
            return a * b
        if op == "/" or op == "%":
            return a
        return None
    if kind is sx.Unary:
        if node.op == "!":
            return 1
        if node.op == "~":
            return None if floats else values[0] + 1
        return values[0] if node.op in ("-", "+") else None
    if kind is sx.Select:
        # (np.where makes one branch's ints floats where the other is float: a value's select keeps
        # the int, and `/` would then divide otherwise)
        branches = values[1:]
        if _FLOAT in branches:
            return _FLOAT if all(branch == _FLOAT for branch in branches) else None
        return max(branches)
    # min, max: a value's call makes its result an int (Call._combine), an array's stays float
    return None if floats else max(values)


def _env_magnitudes(env: dict) -> dict | None:
    """{name: magnitude bound} of env's values (_FLOAT for floats); None for other values."""
    bounds = {}
    for name, value in env.items():
        kind = type(value)
        if kind is int or kind is bool:
            bounds[name] = abs(int(value))
        elif kind is float:
            bounds[name] = _FLOAT
        elif kind is np.ndarray and value.dtype.kind in "iu":
            bounds[name] = int(np.abs(value).max()) if value.size else 0
        elif kind is np.ndarray and value.dtype.kind == "f":
            bounds[name] = _FLOAT
        else:
            return None
    return bounds


def _as_rows(value, count: int, slots: int):
    """What _as_slots makes of each row's value, as a (count, slots) truth (or one broadcast
    against it); None for a shape or value that one value's evaluation would treat otherwise."""
    array = np.asarray(value)
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)):
            return None          # (a value's evaluation fails for some rows only)
        array = array.astype(np.int64)
    elif array.dtype.kind not in "iub":
        return None
    if array.shape not in ((count, slots), (count, 1), (slots,), ()):
        return None
    if array.ndim == 2 and array.shape[1] == 1 and slots != 1:
        array = np.broadcast_to(array, (count, slots))
    return array != 0


@lru_cache(maxsize=64)
def _all_slots(slots: int) -> np.ndarray:
    """A read-only mask of every slot, shared: the AND of no guards (np.ones costs more than its
    fill, and Lanes' masks are never written to)."""
    mask = np.ones(slots, dtype=bool)
    mask.setflags(write=False)
    return mask


class _Raised:
    """What evaluating an expression raised, kept in place of its value (see Lanes.values)."""
    __slots__ = ("error", "args")

    def __init__(self, error: type, args: tuple):
        self.error, self.args = error, args


class _Kept:
    """Values kept for one environment (see Lanes), with the arrays of that environment held so
    that the ids that name them stay theirs."""

    def __init__(self, arrays: list, slots: int):
        self.arrays, self.slots = arrays, slots
        self.nodes = {PLACEHOLDER: {}, PLACEHOLDER_ALT: {}}   # stand-in -> {structure key: value}
        self.values = {PLACEHOLDER: {}, PLACEHOLDER_ALT: {}}  # stand-in -> {structure key: array}
        self.truths: dict = {}   # structure key -> truth, for conditions over at most one unbound scalar
        self.judged: dict = {}   # structure key -> (truth, verdict) of others judged first here
        self.bytes: dict = {}    # id(array) -> (array, its bytes), for Lanes.as_bytes
        self.answers: dict = {}  # Lanes.kept's
        # loop variables' names -> {structure key of an expression: _outer_parts' answer}, for the
        # Lanes of loop values made from this environment's (Lanes._evaluate_with_outer_parts)
        self.outer_parts: dict = {}
        self.within: dict = {}   # Lanes._lanes_within's key -> (_DROPS[0], signature, _Kept) of that environment

    def size(self) -> int:
        """Slots of the values kept (an upper bound: some are scalars)."""
        nodes, values = self.nodes, self.values
        return self.slots * (len(nodes[PLACEHOLDER]) + len(nodes[PLACEHOLDER_ALT]) + len(values[PLACEHOLDER])
                             + len(values[PLACEHOLDER_ALT]) + len(self.truths) + len(self.judged)
                             + len(self.bytes) + len(self.answers))


# Bounds for a long-lived process (the reward service analyses one candidate after another)
_KEPT: dict = {}
_MAX_KEPT_SLOTS = 1 << 23              # about 64 MB of int64 values over every environment ...
_MAX_SLOTS_PER_ENVIRONMENT = 1 << 21   # ... 16 MB for one ...
_MAX_KEPT_ENVIRONMENTS = 4096         # loop values make environments of their own
_CREATED = [0]
_DROPS = [0]                           # how many times _KEPT dropped environments (see Lanes._lanes_within)


_SCALARS = (int, bool, float)


def _signature(env: dict, slots: int):
    """What makes environments equal for Lanes: the same arrays (a launch shape's shared thread
    space) and equal scalars (by type, and by value for ints, by text for floats); None when env
    holds anything else."""
    items = []
    for name, value in env.items():
        kind = type(value)
        if kind is np.ndarray:
            items.append((name, id(value)))
        elif kind is int or kind is bool:
            items.append((name, kind, value))           # (equal ints of one type: the same value)
        elif kind is float:
            items.append((name, kind, repr(value)))     # (the text tells 0.0 from -0.0; a nan equals itself)
        else:
            return None
    items.sort()                                        # (names differ: only they are compared)
    return slots, tuple(items)


def _kept_for(signature, env: dict, slots: int) -> _Kept:
    """The values kept for environments of this signature (a fresh, unshared set for None)."""
    if signature is None:
        return _Kept([], slots)
    last = _LAST_KEPT
    # the kernels of a file mostly run in one launch shape, one after another: the signature object
    # its shared_launch keeps is known by identity, without hashing its nested tuple again (valid
    # while _KEPT has dropped nothing since)
    kept = last[2] if last[0] is signature and last[1] == _DROPS[0] else _KEPT.get(signature)
    if kept is not None and kept.size() > _MAX_SLOTS_PER_ENVIRONMENT:
        del _KEPT[signature]
        _DROPS[0] += 1
        kept = None
    if kept is None:
        _CREATED[0] += 1
        if len(_KEPT) >= _MAX_KEPT_ENVIRONMENTS or (
                _CREATED[0] % 64 == 0 and sum(k.size() for k in list(_KEPT.values())) > _MAX_KEPT_SLOTS):
            _KEPT.clear()              # start again rather than grow without bound in a long-lived process
            _DROPS[0] += 1
        kept = _KEPT[signature] = _Kept([value for value in env.values() if type(value) is np.ndarray], slots)
    last[:] = signature, _DROPS[0], kept
    return kept


# _kept_for's last answer: [signature, _DROPS[0] then, its _Kept]
_LAST_KEPT: list = [None, None, None]


def _as_slots(value, slots: int) -> np.ndarray:
    """What evaluate_per_thread makes of an evaluated value."""
    if type(value) is np.ndarray and value.dtype == np.int64 and value.ndim == 1:
        return value                      # the usual case, as the general path would return it
    array = np.asarray(value)
    if array.ndim == 0:
        array = np.full(slots, array.item())
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)):
            raise sx.Unevaluable("non-finite")
        array = array.astype(np.int64)
    return array.astype(np.int64, copy=False)


# -- values that may be unknown, for the sync analysis and the uniformity levels ----------------------

def per_thread(expr, env: dict, size: int):
    """The expression's value for every thread (an array of `size`), or None when it cannot be known."""
    try:
        value = expr.evaluate(env)
    except UNEVALUABLE:
        return None
    return one_per_thread(value, size)


def one_per_thread(value, size: int):
    """An evaluated value as one entry per thread (read-only), or None when it is not numbers."""
    if isinstance(value, np.ndarray) and value.shape == (size,):
        # already one value per thread (the usual case): broadcast_to would only add overhead
        return None if value.dtype == object else value
    try:
        array = np.asarray(value)
        if array.ndim == 0 and array.dtype != object:
            # a scalar (a uniform address or condition): the read-only stride-0 view broadcast_to
            # makes, built directly (broadcast_to's Python layers cost three times as much)
            values = np.ndarray((size,), array.dtype, array, 0, (0,))
            values.flags.writeable = False
            return values
        values = np.broadcast_to(array, (size,))
    except (ValueError, TypeError):
        return None
    return None if values.dtype == object else values


def truth(expr, env: dict, size: int):
    """A condition's truth for every thread, or None when it cannot be known."""
    return as_truth(per_thread(expr, env, size))


def as_truth(values):
    """Per-thread values (or None) as booleans (or None)."""
    if values is None:
        return None
    try:
        truth = values != 0
        if type(truth) is np.ndarray and truth.dtype == bool:
            return truth        # (what asarray would return: this very array)
        return np.asarray(truth, dtype=bool)
    except TypeError:
        return None


def level_of(values: np.ndarray, space: ThreadSpace) -> str:
    """How uniform concrete per-thread values are within the block."""
    if values.size == 0 or np.all(values == values[0]):
        return LEVEL_BLOCK
    first_of_warp = values[space.warp * WARP_SIZE]
    return LEVEL_WARP if np.all(values == first_of_warp) else LEVEL_THREAD


def classify(expr, block=None, bindings: dict | None = None) -> str:
    """The uniformity level of an expression; concrete when the block shape and bindings allow it."""
    if not expr.thread_dependent:
        reads_block = bool(expr.symbols() & sx.BLOCK_SYMBOLS)
        return LEVEL_BLOCK if reads_block or expr.has_load() else LEVEL_GRID
    if block is None:
        return LEVEL_THREAD
    space = thread_space(block)
    env = {**(bindings or {}), **space.env}
    values = per_thread(expr, env, space.size)
    return LEVEL_THREAD if values is None else level_of(values, space)


def divergent_branches(kernel, block, bindings: dict | None = None) -> list:
    """Branches whose condition can differ between the lanes of one warp."""
    return [branch for branch in kernel.branches
            if branch.condition is not None and classify(branch.condition, block, bindings) == LEVEL_THREAD]

"""Which global loads the compiler executes once outside a loop instead of on every iteration.

`acc = acc * x[i] + c[k]` inside `for (k ...)` reads x[i] at the same address on every iteration;
nvcc loads it once before the loop (loop-invariant code motion), so ncu counts one request, not one
per iteration. A load is lifted out of its innermost `for` loop when, in that loop,
- its address uses nothing the loop changes (the induction variable, loop-carried variables, moved
  pointers),
- no global store or atomic could overwrite it and no barrier or fence orders memory, except stores
  to the load's own address (`tmp[i] += A[i * n + j] * x[j]`: the compiler keeps tmp[i] in a register,
  each iteration's load reads what the previous one stored) and stores through the same pointer a
  fixed distance away (another field of the same struct), and
- it runs on every iteration (no condition inside the loop guards it: the compiler does not
  speculate loads).
It is then tried against the next enclosing loop. The analyses weigh such a load by the iterations of
the loops that remain (`Access.weight_context`).
"""

from __future__ import annotations

from kernelscope import symbolic as sx
from kernelscope.model import FENCES


def mark_loop_invariant_loads(scope) -> None:
    """Set `hoisted_loops` on every global load of a walked kernel `scope`."""
    if not scope.loops:
        return
    blocked = set()
    stores: dict = {}   # id(loop) -> the global stores inside it
    for record in scope.accesses:
        if record.op == "store" and record.space == "global":
            for loop in record.context.loops:
                stores.setdefault(id(loop), []).append(record)
        elif record.op != "load" and record.space == "global":
            blocked.update(id(loop) for loop in record.context.loops)
    for record in scope.barriers:
        blocked.update(id(loop) for loop in record.context.loops)
    for record in scope.calls:
        if record.name in FENCES:
            blocked.update(id(loop) for loop in record.context.loops)
    seeded: dict = {}   # what _disjoint evaluated in this kernel (see _seeded_value)
    changed: dict = {}  # id(loop) -> _changed_by(loop), asked again for each load in the loop
    for access in scope.accesses:
        if access.op == "load" and access.space == "global" and access.context.loops:
            access.hoisted_loops = _hoistable_depth(access, blocked, stores, seeded, changed)


def _same_location(store, load) -> bool:
    return store.array == load.array and store.elem_bytes == load.elem_bytes and store.address == load.address


_SEEDS = (3, 11)
_EVALUATION_FAILURES = (sx.Unevaluable, TypeError, ValueError, OverflowError)
_FAILED = object()      # (a _seeded_value that raised one of _EVALUATION_FAILURES)


def _disjoint(store, load, seeded: dict | None = None) -> bool:
    """Through the same pointer at a fixed distance that keeps the bytes apart (`d[t].s1 = ...` and
    `d[t].s0`): the compiler knows the store cannot change what the load read. The distance is
    taken at two made-up values of the names; `seeded` keeps the addresses' values across the
    calls of one kernel (see _seeded_value)."""
    if store.array != load.array:
        return False
    if seeded is None:
        seeded = {}
    names = tuple(sorted(sx.free_names(store.address) | sx.free_names(load.address)))
    distances = set()
    for seed in _SEEDS:
        # (each address as the pair's names give it, in the order one evaluation after another
        # would meet a failure)
        stored_at = _seeded_value(store.address, names, seed, seeded)
        if stored_at is _FAILED:
            return False
        loaded_at = _seeded_value(load.address, names, seed, seeded)
        if loaded_at is _FAILED:
            return False
        distances.add(stored_at - loaded_at)
    if len(distances) != 1:
        return False
    distance = distances.pop()
    return distance >= load.elem_bytes or -distance >= store.elem_bytes


def _seeded_value(address, names: tuple, seed: int, seeded: dict):
    """int(address) where the k-th of `names` is seed * (k + 1) + 1000, or _FAILED. A loop that
    stores several fields of one struct and loads others (`d[t].s0` ... `d[t].s7`) compares every
    load with every store, each pair over the same names: evaluated once per address, not once per
    pair (tests/test_walkfast6_hoisting.py compares it with evaluating each pair)."""
    key = (id(address), names, seed)    # (the kernel's records hold every address while `seeded` lives)
    known = seeded.get(key)
    if known is None:
        env = {name: seed * (k + 1) + 1000 for k, name in enumerate(names)}
        try:
            known = int(address.evaluate(env))
        except _EVALUATION_FAILURES:
            known = _FAILED
        seeded[key] = known
    return known


def _unaffected_by(store, load, seeded: dict | None = None) -> bool:
    return _same_location(store, load) or _disjoint(store, load, seeded)


def _hoistable_depth(access, blocked: set, stores: dict, seeded: dict | None = None,
                     changed: dict | None = None) -> int:
    names = access.address.symbols()
    if changed is None:
        changed = {}
    depth = 0
    for loop in reversed(access.context.loops):
        # (the stores last: most loads in a loop read at the loop variable and stop at the name
        # test, where comparing them with each store evaluates both addresses twice)
        if (loop.kind != "for" or loop.var is None or id(loop) in blocked
                or len(access.context.conditions) > loop.condition_depth
                or names & _changed_in(loop, changed)
                or not all(_unaffected_by(store, access, seeded) for store in stores.get(id(loop), ()))):
            break
        depth += 1
    return depth


def _changed_in(loop, changed: dict) -> frozenset:
    """_changed_by(loop), kept in `changed` by loop for the kernel's other loads."""
    known = changed.get(id(loop))
    if known is None:
        known = changed[id(loop)] = _changed_by(loop)
    return known


def _changed_by(loop) -> frozenset:
    return loop.assigned | {f"{name}@off" for name in loop.assigned} | {loop.var}

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
    for access in scope.accesses:
        if access.op == "load" and access.space == "global" and access.context.loops:
            access.hoisted_loops = _hoistable_depth(access, blocked, stores)


def _same_location(store, load) -> bool:
    return store.array == load.array and store.elem_bytes == load.elem_bytes and store.address == load.address


def _disjoint(store, load) -> bool:
    """Through the same pointer at a fixed distance that keeps the bytes apart (`d[t].s1 = ...` and
    `d[t].s0`): the compiler knows the store cannot change what the load read."""
    if store.array != load.array:
        return False
    names = sx.free_names(store.address) | sx.free_names(load.address)
    distances = set()
    for seed in (3, 11):
        env = {name: seed * (k + 1) + 1000 for k, name in enumerate(sorted(names))}
        try:
            distances.add(int(store.address.evaluate(env)) - int(load.address.evaluate(env)))
        except (sx.Unevaluable, TypeError, ValueError, OverflowError):
            return False
    if len(distances) != 1:
        return False
    distance = distances.pop()
    return distance >= load.elem_bytes or -distance >= store.elem_bytes


def _unaffected_by(store, load) -> bool:
    return _same_location(store, load) or _disjoint(store, load)


def _hoistable_depth(access, blocked: set, stores: dict) -> int:
    names = access.address.symbols()
    depth = 0
    for loop in reversed(access.context.loops):
        if (loop.kind != "for" or loop.var is None or id(loop) in blocked
                or not all(_unaffected_by(store, access) for store in stores.get(id(loop), ()))
                or len(access.context.conditions) > loop.condition_depth
                or names & _changed_by(loop)):
            break
        depth += 1
    return depth


def _changed_by(loop) -> frozenset:
    return loop.assigned | {f"{name}@off" for name in loop.assigned} | {loop.var}

"""Memory access analysis: what each global access costs in 32-byte sectors per warp request, what
each shared access costs in bank conflicts, and which branches split warps.

Addresses are evaluated for every thread of one block (see `threads.py`), split into warps of 32
lanes, and counted the way the hardware counts them:

- global: a warp request touches the distinct 32-byte sectors covering the bytes its active lanes
  read or write (allocations start 256-byte aligned, as cudaMalloc returns them). This is
  `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / l1tex__t_requests_..._ld.sum` in ncu.
- shared: 32 banks of 4 bytes. A request is served in wavefronts; 8-byte accesses are served per
  half-warp and 16-byte accesses per quarter-warp, so their conflict-free cost is 2 and 4 wavefronts.
  Within one such group, lanes that touch the same 4-byte word share it (broadcast); different words
  in the same bank serialise. `bank_ways` is wavefronts divided by the conflict-free count
  (1 = conflict-free); ncu's bank conflicts are the extra wavefronts.
- indirect addresses (`a[idx[i]]`) cannot be evaluated; the documented worst case is one sector per
  active lane (32 for a full warp of 4-byte loads), which is what random indices cost.
- an access only the first iteration of a loop is evaluated for; loops change the base address,
  not the pattern across lanes.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache

import numpy as np

from kernelscope import symbolic as sx
from kernelscope.analyses.rounding import ROUNDED, remember_rounded
from kernelscope.analyses.threads import (
    _NOT_KEPT, PLACEHOLDER, PLACEHOLDER_ALT, UNEVALUABLE, WARP_SIZE, BlockShape, Lanes, active_slots, bind_missing,
    count_nonzero, evaluate_per_thread, thread_env,
)
from kernelscope.analyses.trips import ExecWeights
from kernelscope.records import record

SECTOR = 32
BANKS = 32
BANK_WIDTH = 4
BROADCAST_SHARE = 8         # at most one distinct address per this many lanes counts as broadcast


@record
class AccessResult:
    line: int
    column: int
    expr: str
    array: str
    space: str
    op: str
    elem_bytes: int
    pattern: str
    stride_bytes: object            # int, symbolic text, or None
    sectors_per_request: float | None = None
    ideal_sectors: float | None = None
    bank_ways: float | None = None
    wavefronts_per_request: float | None = None
    exec_weight: object = 1
    requests_per_block: float | None = None
    active_lanes: float | None = None
    in_function: str | None = None
    note: str | None = None
    averaging_weight: float = 1.0   # exec_weight, or an assumption where it is symbolic (trips.ASSUMED_TRIPS)

    def to_json(self) -> dict:
        data = {
            "line": self.line, "column": self.column, "expr": self.expr, "array": self.array,
            "space": self.space, "op": self.op, "elem_bytes": self.elem_bytes, "pattern": self.pattern,
            "stride_bytes": self.stride_bytes, "exec_weight": self.exec_weight,
            "active_lanes": _round(self.active_lanes),
        }
        if self.space in ("global", "constant") or self.space == "local":
            data["sectors_per_request"] = _round(self.sectors_per_request)
            data["ideal_sectors_per_request"] = _round(self.ideal_sectors)
        if self.space == "shared":
            data["bank_ways"] = _round(self.bank_ways)
            data["wavefronts_per_request"] = _round(self.wavefronts_per_request)
        if self.in_function:
            data["in_function"] = self.in_function
        if self.note:
            data["note"] = self.note
        return data


@record
class BranchResult:
    line: int
    column: int
    kind: str
    divergent: bool | None          # None: depends on data we cannot see, and on the thread
    share_true: float | None
    divergent_warps: float | None   # fraction of warps with lanes on both sides
    in_loop: bool

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "kind": self.kind,
                "divergent": self.divergent, "share_true": _round(self.share_true),
                "divergent_warp_fraction": _round(self.divergent_warps), "in_loop": self.in_loop}


@record
class MemoryResult:
    accesses: list = field(default_factory=list)
    branches: list = field(default_factory=list)

    def divergence_json(self) -> dict:
        branches = self.branches
        divergent = [b.to_json() for b in branches if b.divergent is not False] if branches else []
        return {"divergent_branches": divergent, "branches": len(branches)}

    def mean_sectors_per_request(self, op: str) -> float | None:
        """Sectors per global request over every request a block issues for `op` (load, store), each
        access weighted by how often it executes: what ncu's l1tex sectors / requests measure."""
        sectors = requests = 0.0
        for access in self.accesses:
            if access.space != "global" or access.op != op or access.sectors_per_request is None:
                continue
            issued = access.averaging_weight * (access.requests_per_block or 0)
            sectors += access.sectors_per_request * issued
            requests += issued
        return sectors / requests if requests else None


def analyze(kernel, block: BlockShape, bindings: dict | None = None, grid=None,
            weights: ExecWeights | None = None) -> MemoryResult:
    """`weights`, when given, must be built on `thread_env(block, grid, bindings)`: the caller then
    shares its trip counts with the intensity analysis instead of computing them twice."""
    if weights is None:
        weights = ExecWeights(thread_env(block, grid, dict(bindings or {})), block.slots, active_slots(block))
    lanes = weights.lanes
    result = MemoryResult()
    # (_MaskBytes.of and _AccessSettings.of are methods, bound once: calling an instance through __call__
    # costs about twice a bound method's call, and they run for every access and branch)
    masks = _MaskBytes(lanes)
    if KEEP_ACCESS_FIELDS and KEEP_ADDRESS_LAYOUTS:
        setting_of = _AccessSettings(masks, weights).of
        append = result.accesses.append
        for access in kernel.accesses:
            append(_kept_access(access, lanes, setting_of(access)))
    else:
        for access in kernel.accesses:
            result.accesses.append(_access(access, lanes, *masks.of(access.context), weights))
    mask_of = masks.of
    for branch in kernel.branches:
        # (the mask first, as always: a first judgement of a guard leaves its verdict on the node)
        result.branches.append(_branch(branch, lanes, mask_of(branch.context)[1]))
    return result


class _MaskBytes:
    """(active slots, their bytes) for a context's guard list: the keys of the kept per-mask answers.
    Many statements share a guard, and Lanes keeps each guard's mask for its lifetime, so its bytes
    are made once per mask object (held here, so its id stays its own)."""

    def __init__(self, lanes: Lanes):
        self.lanes = lanes
        self.kept: dict = {}        # id(mask) -> (mask, mask.tobytes())
        self.by_context: dict = {}  # id(context) -> (context, its entry of `kept`)

    def of(self, context) -> tuple:
        """(active slots, their bytes) of the statements in `context`."""
        # the statements of one block share their Context object (half of them do in real programs):
        # known by it first, without the guard list's key (the entry holds the context, so its id
        # stays its own)
        known = self.by_context.get(id(context))
        if known is not None and known[0] is context:
            return known[1]
        entry = self._shared(context.conditions) if SHARE_MASK_BYTES else None
        if entry is None:
            entry = self._entry(context.conditions)
        self.by_context[id(context)] = (context, entry)
        return entry

    def _entry(self, conditions) -> tuple:
        mask = self.lanes.active_mask(conditions)
        entry = self.kept.get(id(mask))
        if entry is None or entry[0] is not mask:
            entry = self.kept[id(mask)] = (mask, mask.tobytes())
        return entry

    def _shared(self, conditions):
        """_entry's answer kept with the environment's values for every guard list built alike (the
        guards' structures and negations), in every kernel of an equal environment, where each
        guard has at most one name the environment lacks (its truth is then kept by structure:
        Lanes.condition judges no stand-ins, whose verdict may differ between kernels); None where
        it is not kept so."""
        key = ("active mask", tuple([(c.expr._key, c.negated) for c in conditions]))
        lanes = self.lanes
        entry = lanes.answers.get(key, _NOT_KEPT)
        if entry is _NOT_KEPT:
            entry = self._entry(conditions)
            shareable = lanes.truths_kept_by_structure(conditions)
            lanes.kept(key, lambda: entry if shareable else None)
        return entry


@lru_cache(maxsize=4096)
def _layout(addresses: bytes, active: bytes, elem: int, shared: bool, symbolic_stride):
    """(stride_bytes, pattern, wavefronts or sectors per request, conflict-free count) of one address
    vector under one mask, both as bytes. Accesses often share both (`x[i]` and `y[i]`, the load and
    the store of `s[t] += ...`, and the same indexing in many kernels of a file): each distinct case
    is counted once in a process (the answer depends on the values only)."""
    active_bytes = active
    addresses = np.frombuffer(addresses, dtype=np.int64)
    active = np.frombuffer(active, dtype=bool)
    stride, pattern = _pattern(addresses, active, elem, symbolic_stride)
    if shared:
        cost, ideal = _shared_wavefronts(addresses, active, elem, active_bytes)
    else:
        cost, ideal = _sectors(addresses, active, elem, active_bytes)
    return stride, pattern, cost, ideal


def _access(access, lanes: Lanes, active: np.ndarray, active_bytes: bytes, weights: ExecWeights) -> AccessResult:
    numeric_weight, symbolic_weight = weights.weight(access.weight_context)
    result = AccessResult(access.line, access.column, access.text, access.array, access.space, access.op,
                          access.elem_bytes, "unknown", None, in_function=access.in_function,
                          exec_weight=_round(numeric_weight) if numeric_weight is not None else symbolic_weight,
                          averaging_weight=numeric_weight if numeric_weight is not None else
                          weights.averaging_weight(access.weight_context))
    _, _, result.active_lanes, result.requests_per_block = _warp_requests(active_bytes)
    return _with_layout(result, _access_layout(access, lanes, active, active_bytes), active_bytes)


def _access_layout(access, lanes: Lanes, active: np.ndarray, active_bytes: bytes):
    """_address_layout's answer for the access under this mask."""
    if not KEEP_ADDRESS_LAYOUTS:
        return _address_layout(access, lanes, active, active_bytes)
    # what the address tells depends on its structure, the environment, the mask, the element
    # size and the space only: kept for every access alike (`x[i]` and `y[i]`, the load and the
    # store of `s[t] += ...`, kernels that index alike) in an equal environment
    return lanes.kept(("address layout", sx.structure_key(access.address), active_bytes, access.elem_bytes,
                       access.space), lambda: _address_layout(access, lanes, active, active_bytes))


# _access keeps each address's layout answer per environment (the switch is for tests that compare
# with the general path)
KEEP_ADDRESS_LAYOUTS = True
# analyze() takes _kept_access instead of _access: the layout's fields (as _with_layout and
# _warp_requests fill them in) kept per environment with the layout, and each context's mask and
# weights found once per kernel (_AccessSettings; the switch is for tests that compare with the
# general path)
KEEP_ACCESS_FIELDS = True


def _kept_access(access, lanes: Lanes, setting: tuple) -> AccessResult:
    """_access's AccessResult, made in one constructor call: what the address' layout decides
    (pattern, stride, sectors or wavefronts, lanes, requests, note) is the same for every access
    alike in an equal environment under the same mask, so it is kept as the tuple of those fields
    (by the keys _access keeps the layout with); `setting` is _AccessSettings' answer."""
    active, active_bytes, exec_weight, averaging_weight = setting
    # (access.address._key is sx.structure_key(access.address), read without the call)
    key = ("access fields", access.address._key, active_bytes, access.elem_bytes, access.space)
    # (looked up here first: the closure for lanes.kept is made only where the fields are new)
    fields = lanes.answers.get(key)
    if fields is None:
        fields = _new_layout_fields(key, access, lanes, active, active_bytes)
    pattern, stride, sectors, ideal, ways, wavefronts, requests, active_lanes, note = fields
    return AccessResult(access.line, access.column, access.text, access.array, access.space, access.op,
                        access.elem_bytes, pattern, stride, sectors, ideal, ways, wavefronts, exec_weight,
                        requests, active_lanes, access.in_function, note, averaging_weight)


def _new_layout_fields(key: tuple, access, lanes: Lanes, active: np.ndarray, active_bytes: bytes) -> tuple:
    """_layout_fields' answer, kept by `key` for every Lanes of an equal environment."""
    return lanes.kept(key, lambda: _layout_fields(access, lanes, active, active_bytes))


def _layout_fields(access, lanes: Lanes, active: np.ndarray, active_bytes: bytes) -> tuple:
    """(pattern, stride_bytes, sectors_per_request, ideal_sectors, bank_ways, wavefronts_per_request,
    requests_per_block, active_lanes, note) of an AccessResult that _access fills in for this
    access' address, mask, element size and space: read off such a result, made the way _access
    makes it (weights aside, which these fields do not read)."""
    result = AccessResult(0, 0, "", "", access.space, access.op, access.elem_bytes, "unknown", None)
    _, _, result.active_lanes, result.requests_per_block = _warp_requests(active_bytes)
    result = _with_layout(result, _access_layout(access, lanes, active, active_bytes), active_bytes)
    return (result.pattern, result.stride_bytes, result.sectors_per_request, result.ideal_sectors,
            result.bank_ways, result.wavefronts_per_request, result.requests_per_block, result.active_lanes,
            result.note)


class _AccessSettings:
    """(active slots, their bytes, exec_weight, averaging_weight) of an access, as _access gets them
    (the mask from _MaskBytes, the weights from ExecWeights), once per context and count of hoisted
    loops (what the access' mask and weight_context are made of): the accesses of one statement or
    block share them, and a hoisted access' weight_context is a new Context each time."""

    def __init__(self, masks: _MaskBytes, weights: ExecWeights):
        self.masks, self.weights = masks, weights
        self.kept: dict = {}    # (id(context), hoisted loops) -> (context, the answer)

    def of(self, access) -> tuple:
        """(active slots, their bytes, exec_weight, averaging_weight) of `access`."""
        context = access.context
        key = (id(context), access.hoisted_loops)
        known = self.kept.get(key)
        if known is not None and known[0] is context:
            return known[1]
        active, active_bytes = self.masks.of(context)  # (first, as _access's caller asks it)
        weights, weight_context = self.weights, access.weight_context
        numeric, symbolic = weights.weight(weight_context)
        if numeric is not None:
            answer = active, active_bytes, _round(numeric), numeric
        else:
            answer = active, active_bytes, symbolic, weights.averaging_weight(weight_context)
        self.kept[key] = (context, answer)
        return answer


# _MaskBytes keeps a guard list's active slots for every guard list built alike, per environment (the
# switch is for tests that compare with the general path)
SHARE_MASK_BYTES = True


_INDIRECT = "indirect"


def _address_layout(access, lanes: Lanes, active: np.ndarray, active_bytes: bytes) -> tuple:
    """(note, layout) of an access's address under the mask: layout is _INDIRECT (data-dependent),
    None (not evaluable; the note says why) or (stride_bytes, pattern, cost, ideal) as _layout
    gives them, a strided pattern that costs about the ideal counted as coalesced."""
    env, slots = lanes.env, lanes.slots
    free = sx.free_names(access.address)
    note = None
    try:
        addresses = lanes.values(access.address)
    except sx.Indirect:
        # the same for every access alike in an equal environment under the same mask
        addresses = lanes.kept(
            ("warp-uniform loads", sx.structure_key(access.address), active_bytes),
            lambda: _with_warp_uniform_loads(access.address, bind_missing(env, free, PLACEHOLDER), slots, active))
        if addresses is None:
            return None, _INDIRECT
        note = "address reads data that is the same across each warp (e.g. a row index): modelled per warp"
    except UNEVALUABLE as exc:
        return f"address not evaluable: {exc}", None
    unbound = [n for n in free if n not in env] if free else None
    symbolic_stride = _symbolic_stride(access, lanes, addresses, unbound) if unbound else None
    shared = access.space == "shared"
    stride, pattern, cost, ideal = _layout(lanes.as_bytes(addresses), active_bytes, access.elem_bytes, shared,
                                           symbolic_stride)
    if not shared and pattern == "strided" and cost is not None and ideal and cost <= ideal * 1.25:
        pattern = "coalesced"  # e.g. 2-D blocks: rows of a warp are each contiguous
    return note, (stride, pattern, cost, ideal)


def _with_layout(result: AccessResult, layout: tuple, active_bytes: bytes) -> AccessResult:
    """`result` with the fields of its address' layout (_address_layout's answer) filled in."""
    note, found = layout
    if found is _INDIRECT:
        return _indirect(result, active_bytes)
    result.note = note
    if found is None:
        return result
    result.stride_bytes, result.pattern, cost, ideal = found
    if result.space == "shared":
        result.wavefronts_per_request = cost
        result.bank_ways = cost / ideal if ideal else None
    else:
        result.sectors_per_request, result.ideal_sectors = cost, ideal
    return result


@lru_cache(maxsize=1024)
def _warp_requests(active: bytes):
    """(active lanes of each warp, which warps issue a request, mean active lanes of those, their
    number) for a mask of active slots; accesses mostly share a few masks."""
    lanes_per_warp = np.frombuffer(active, dtype=bool).reshape(-1, WARP_SIZE).sum(axis=1)
    issuing = lanes_per_warp > 0
    return lanes_per_warp, issuing, _mean(lanes_per_warp[issuing]) if issuing.any() else 0.0, float(issuing.sum())


def _with_warp_uniform_loads(address, env: dict, slots: int, active: np.ndarray):
    """Addresses of `weight[idx[t] * dim + d]`-like accesses, where every value read from memory comes
    from one address per warp (all lanes of a warp read the same idx[t]): such a value is unknown but
    shared by the warp, so the lanes' addresses keep their pattern around it. Each distinct index
    stands for a pseudo-random value (equal indices, equal values). None when some loaded value may
    differ between the lanes of a warp, or cannot be placed at all."""
    loaded: dict = {}

    def stand_in(load):
        try:
            index = evaluate_per_thread(load.index, env, slots)
        except UNEVALUABLE:
            raise _NotWarpUniform from None
        index = np.broadcast_to(np.asarray(index, dtype=np.int64), (slots,))
        if not _same_per_warp(index, active):
            raise _NotWarpUniform
        name = f"@load{len(loaded)}"
        # a multiplicative hash: distinct rows land at unrelated offsets, as real indices would
        loaded[name] = (index * 2654435761 + 40503) % 8191
        return sx.Sym(name)

    try:
        replaced = sx.replace_loads(address, stand_in)
        return evaluate_per_thread(replaced, {**env, **loaded}, slots)
    except (_NotWarpUniform, *UNEVALUABLE):
        return None


class _NotWarpUniform(Exception):
    pass


def _same_per_warp(values: np.ndarray, active: np.ndarray) -> bool:
    warps = values.reshape(-1, WARP_SIZE)
    lanes = active.reshape(-1, WARP_SIZE)
    first = warps[np.arange(warps.shape[0]), np.argmax(lanes, axis=1)]
    return bool(np.all((warps == first[:, None]) | ~lanes))


def _indirect(result: AccessResult, active: bytes) -> AccessResult:
    result.pattern = "indirect"
    result.stride_bytes = None
    worst = _worst_sectors(active, result.elem_bytes)
    if worst is not None:
        result.sectors_per_request, result.ideal_sectors = worst
        if result.space == "shared":
            result.bank_ways = None
    result.note = "data-dependent address: worst case of one sector per active lane"
    return result


@lru_cache(maxsize=1024)
def _worst_sectors(active: bytes, elem_bytes: int):
    """(sectors per request at one sector per active lane, the ideal) for a mask of active slots as
    bytes and an element size, or None when no warp issues: the same for every indirect access of
    that size under that mask."""
    lanes_per_warp, issuing, _, _ = _warp_requests(active)
    if not issuing.any():
        return None
    per_lane = max(1, -(-elem_bytes // SECTOR))
    # (_mean: np.mean's float for these small counts)
    return (_mean(np.minimum(lanes_per_warp[issuing] * per_lane, 32 * per_lane)),
            _mean(np.ceil(lanes_per_warp[issuing] * elem_bytes / SECTOR)))


def _symbolic_stride(access, lanes: Lanes, addresses, free):
    """If the lane-to-lane stride depends on an unbound parameter, describe it symbolically."""
    if not free:
        return None
    try:
        other = lanes.values(access.address, PLACEHOLDER_ALT)
    except Exception:
        return None
    stride_a = _lane_stride(addresses)
    stride_b = _lane_stride(other)
    if stride_a is None or stride_a == stride_b:
        return None
    per_unit = (stride_b - stride_a) / (PLACEHOLDER_ALT - PLACEHOLDER)
    constant = stride_a - per_unit * PLACEHOLDER
    names = "*".join(sorted(free))
    coefficient = int(per_unit) if per_unit == int(per_unit) else round(per_unit, 3)
    text = f"{coefficient}*{names}" if coefficient != 1 else names
    if constant:
        text += f" + {int(constant)}"
    return text


def _lane_stride(addresses: np.ndarray):
    if addresses.size < 2:
        return None
    return int(addresses[1] - addresses[0])


def _pattern(addresses: np.ndarray, active: np.ndarray, elem: int, symbolic_stride):
    """(stride_bytes, pattern) from the first warp with at least two active lanes."""
    warps = addresses.reshape(-1, WARP_SIZE)
    masks = active.reshape(-1, WARP_SIZE)
    for warp, mask in zip(warps, masks):
        lanes = warp[mask]
        if lanes.size < 2:
            continue
        values = lanes.tolist()
        low, high = min(values), max(values)
        if low == high:
            return 0, "broadcast"
        if -_EXACT < low and high < _EXACT:
            return _pattern_of(values, elem, symbolic_stride)
        differences = np.diff(lanes)
        # (increasing addresses, the usual case, are all distinct: no need to count them)
        if symbolic_stride is None and not (differences > 0).all() and \
                np.unique(lanes).size * BROADCAST_SHARE <= lanes.size:
            # a few addresses shared by many lanes (a 16x16 block reading a[row * n + k]: two rows,
            # one element each): a broadcast per group of lanes, not a stride
            return 0, "broadcast"
        stride = int(differences[0]) if (differences == differences[0]).all() else int(np.median(differences))
        if symbolic_stride is not None:
            return symbolic_stride, "strided"
        if stride == elem and (differences[differences != stride] >= 0).all():
            return stride, "coalesced"
        return stride, "strided"
    return None, "broadcast" if addresses.size else "unknown"


# Below this magnitude the lanes' differences fit in int64, so Python ints give numpy's answers
_EXACT = 1 << 62


def _pattern_of(values: list, elem: int, symbolic_stride):
    """_pattern's judgement of one warp's active lanes (at least two distinct addresses), on Python
    ints: a few dozen lanes cost less as a list than as numpy calls."""
    differences = [b - a for a, b in zip(values, values[1:])]
    if symbolic_stride is None and min(differences) <= 0 and len(set(values)) * BROADCAST_SHARE <= len(values):
        return 0, "broadcast"      # see _pattern
    first = differences[0]
    stride = first if differences.count(first) == len(differences) else int(np.median(np.asarray(differences)))
    if symbolic_stride is not None:
        return symbolic_stride, "strided"
    if stride == elem and all(d >= 0 for d in differences if d != stride):
        return stride, "coalesced"
    return stride, "strided"


def _sectors(addresses: np.ndarray, active: np.ndarray, elem: int, active_bytes: bytes):
    """Mean distinct sectors per issuing warp, and the ideal for the same number of active lanes.
    (Asked once per distinct address vector and mask in a process, each time new: written for few
    numpy calls rather than for brevity; `active_bytes` is active.tobytes(), _warp_requests' key.)"""
    lanes_per_warp, _, _, issuing = _warp_requests(active_bytes)
    if not issuing:
        return None, None
    # every slot active: no mask to apply, and every touched sector is >= 0 below (for an element of
    # 0 bytes, which the clipping below maps to the sector before, the general count)
    whole = elem > 0 and count_nonzero(active) == active.size
    lowest = int(addresses.min() if whole else addresses[active].min())
    if lowest < 0:
        # below the base (a pointer moved back by a halo, or stand-ins for unbound scalars): move the
        # whole vector up by whole 128-byte lines, which keeps every lane's sector and alignment
        addresses = addresses + (-lowest // 128 + 1) * 128
    first = (addresses // SECTOR).reshape(-1, WARP_SIZE)
    if 0 < elem <= SECTOR and (addresses & (SECTOR - 1) <= SECTOR - elem).all():
        # no lane crosses a sector boundary (aligned elements): each lane touches its first sector only
        touched = first if whole else np.where(active.reshape(-1, WARP_SIZE), first, -1)
    else:
        span = max(1, -(-elem // SECTOR) + (1 if elem % SECTOR else 0))
        # every sector a lane may touch: first .. first + span - 1, clipped to its last byte's sector
        last = ((addresses + elem - 1) // SECTOR).reshape(-1, WARP_SIZE)
        touched = np.minimum(first[:, :, None] + np.arange(span)[None, None, :], last[:, :, None])
        if not whole:
            touched = np.where(active.reshape(-1, WARP_SIZE)[:, :, None], touched, -1)
        touched = touched.reshape(len(first), -1)
    touched.sort(axis=1)        # (a new array: sorted in place)
    # distinct sectors of all warps together (a warp with no active lane counts none: only active
    # lanes' sectors are >= 0, and inactive ones are -1, sorted first), over the issuing warps
    changes = touched[:, 1:] != touched[:, :-1]
    if whole:
        distinct = count_nonzero(changes) + len(touched)
    else:
        distinct = count_nonzero(changes & (touched[:, 1:] >= 0)) + count_nonzero(touched[:, 0] >= 0)
    # (idle warps' ideal is 0: summed over all warps)
    ideal = int(np.add.reduce(-(-lanes_per_warp * elem // SECTOR)))
    return float(distinct) / issuing, float(ideal) / issuing


def _shared_wavefronts(addresses: np.ndarray, active: np.ndarray, elem: int, active_bytes: bytes):
    """Mean wavefronts per request and the conflict-free count. Lanes are served in groups (warp,
    half-warp for 8-byte, quarter-warp for 16-byte accesses); in a group, each bank serves one
    distinct 4-byte word per wavefront. (Asked once per distinct address vector and mask in a
    process, as _sectors is: few numpy calls; `active_bytes` is active.tobytes().)"""
    issuing = _warp_requests(active_bytes)[3]
    if not issuing:
        return None, None
    group = _LANES_PER_GROUP.get(elem, WARP_SIZE)
    words_per_lane = max(1, elem // BANK_WIDTH)
    masks = active.reshape(-1, WARP_SIZE // group, group)
    words = (addresses // BANK_WIDTH).reshape(masks.shape)
    if words_per_lane > 1:
        words = words[..., None] + np.arange(words_per_lane)
        words = np.where(masks[..., None], words, -1).reshape(masks.shape[0], masks.shape[1], -1)
    else:
        words = np.where(masks, words, -1)
    words.sort(axis=2)          # (a new array: sorted in place)
    first_of_kind = np.ones(words.shape, dtype=bool)
    first_of_kind[..., 1:] = words[..., 1:] != words[..., :-1]
    distinct = first_of_kind & (words >= 0)
    banks = np.where(distinct, words % BANKS, BANKS)   # BANKS: a repeat or an inactive lane
    # distinct words per (warp, group, bank): one bincount over the three indices flattened
    cells = banks.shape[0] * banks.shape[1]
    flat = _cell_offsets(banks.shape[0], banks.shape[1]) + banks
    per_bank = np.bincount(flat.ravel(), minlength=cells * (BANKS + 1)).reshape(banks.shape[:2] + (BANKS + 1,))
    # summed over all warps and groups: an idle group's banks are all empty (no wavefront), and
    # it is no active group
    wavefronts = int(np.add.reduce(per_bank[..., :BANKS].max(axis=2), axis=None))
    ideal = count_nonzero(masks.any(axis=2))
    return float(wavefronts) / issuing, float(ideal) / issuing


_LANES_PER_GROUP = {8: 16, 16: 8}       # element bytes -> lanes served together (else a warp)


@lru_cache(maxsize=64)
def _cell_offsets(warps: int, groups: int) -> np.ndarray:
    """Each (warp, group) cell's first index in _shared_wavefronts' flat bincount, shaped to add
    to its banks (read-only, shared)."""
    offsets = np.arange(warps * groups).reshape(warps, groups, 1) * (BANKS + 1)
    offsets.setflags(write=False)
    return offsets


def _branch(branch, lanes: Lanes, active_bytes: bytes) -> BranchResult:
    in_loop = bool(branch.context.loops)
    expr = branch.condition
    if not expr.thread_dependent:
        return BranchResult(branch.line, branch.column, branch.kind, False, None, 0.0, in_loop)
    values = lanes.condition(expr)
    if values is None:
        return BranchResult(branch.line, branch.column, branch.kind, None, None, None, in_loop)
    share, fraction = _split(lanes.as_bytes(values), active_bytes)
    return BranchResult(branch.line, branch.column, branch.kind, fraction > 0, share, fraction, in_loop)


@lru_cache(maxsize=1024)
def _split(truth: bytes, active: bytes):
    """(share of active slots where the condition holds, fraction of issuing warps with active lanes
    on both sides) for a condition's truth and the active slots, both as bool bytes."""
    values, active = np.frombuffer(truth, dtype=bool), np.frombuffer(active, dtype=bool)
    truth, masks = values.reshape(-1, WARP_SIZE), active.reshape(-1, WARP_SIZE)
    issuing = masks.any(axis=1)
    split = ((truth & masks).any(axis=1) & (~truth & masks).any(axis=1))[issuing]
    share = _mean(values[active]) if active.any() else None
    fraction = _mean(split) if split.size else 0.0
    return share, fraction


def _mean(values: np.ndarray) -> float:
    """np.mean costs several times a sum on the small arrays used here. (np.add.reduce: the sum
    without the Python function that ndarray.sum calls on the way to it.)"""
    return float(np.add.reduce(values, axis=None)) / values.size if values.size else 0.0


def _round(value):
    if type(value) is float:            # the usual case, first: what the general path below does, remembered
        try:
            return ROUNDED[value]
        except KeyError:
            return remember_rounded(value)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    value = float(value)
    return int(value) if value == int(value) else round(value, 4)

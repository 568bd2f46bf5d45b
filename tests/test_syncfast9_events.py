"""`program_order` makes its events a record kind at a time, and `_mark_carried` reads each kind's own
field through `_OWN_CARRIED`: both must give what the general paths (`_general_event`,
`_every_field_carried`, below: what sync did before) give, over every kernel the project has."""

from collections import Counter

from kernelscope import symbolic as sx
from kernelscope.analyses import sync
from project_sources import project_kernels

FLAGS = ("kind", "conditions", "condition_key", "inert", "plain_access", "block_barrier", "warp_call",
         "read_only", "trusted", "unbound_address")


def _general_event(kind: str, record) -> sync.Event:
    """The event of one record of any kind, its flags asked of the record whatever its kind."""
    inert = sync._inert(kind, record)
    return sync.Event(kind, record, inert, kind == "access" and not inert and record.op != "atomic",
                      kind == "barrier" and record.kind in sync.BLOCK_BARRIERS,
                      kind == "call" and not inert and record.name not in sync.FENCES)


def _every_field_carried(record) -> set:
    """The loop-updated names any of a record's address, mask, condition and args read."""
    names: set = set()
    for name in ("address", "mask", "condition"):
        value = getattr(record, name, None)
        if isinstance(value, sx.Expr):
            names |= sx.carried_names(value)
    for arg in getattr(record, "args", ()):
        if isinstance(arg, sx.Expr):
            names |= sx.carried_names(arg)
    return names


def _general_order(kernel) -> list:
    records = [("access", a) for a in kernel.accesses] + [("barrier", b) for b in kernel.barriers] + \
        [("call", c) for c in kernel.calls] + [("return", r) for r in kernel.early_returns]
    return sorted((_general_event(kind, record) for kind, record in records), key=lambda e: sync._walk_position(e.record))


def test_program_order_makes_the_general_events():
    seen: Counter = Counter()
    for kernel in project_kernels():
        ours, general = sync.program_order(kernel), _general_order(kernel)
        assert [e.record for e in ours] == [e.record for e in general]
        for mine, theirs in zip(ours, general):
            assert [getattr(mine, name) for name in FLAGS] == [getattr(theirs, name) for name in FLAGS]
            assert mine.condition_key == tuple(id(c) for c in mine.conditions)
            seen[mine.kind, min(len(mine.conditions), 2), mine.inert, mine.plain_access or mine.block_barrier
                 or mine.warp_call] += 1
    # every kind, with no condition, one and several, and each of the flags both ways, was compared
    assert {kind for kind, *_ in seen} == {"access", "barrier", "call", "return"}
    assert {conditions for _, conditions, *_ in seen} == {0, 1, 2}
    assert {(kind, inert) for kind, _, inert, _ in seen} >= {("access", True), ("access", False), ("call", True),
                                                             ("call", False)}
    assert {(kind, flagged) for kind, _, _, flagged in seen} >= {("access", True), ("access", False),
                                                                 ("barrier", True), ("call", True)}


def test_own_carried_by_kind_as_asking_every_field():
    compared = carried = 0
    for kernel in project_kernels():
        for event in sync.program_order(kernel):
            general = _every_field_carried(event.record)
            assert sync._OWN_CARRIED[event.kind](event.record) == general
            compared += 1
            carried += bool(general)
    assert compared > 1000 and carried > 20


CARRIED_EVERYWHERE = """
__global__ void carried_mask(float* a, int n) {
    unsigned mask = 0xffffffffu;
    int limit = n;
    for (int i = 0; i < n; i++) {
        __syncwarp(mask);
        if (threadIdx.x > limit) return;
        a[threadIdx.x + limit] = __shfl_sync(mask, a[threadIdx.x], 0);
        mask >>= 1;
        limit -= 2;
    }
}
"""


def test_own_carried_by_kind_reads_barrier_masks_and_return_conditions():
    """The project's kernels have no barrier mask or early return that reads a loop-updated name."""
    from kernelscope.frontend.parse import parse_file

    kernel = parse_file(CARRIED_EVERYWHERE, "carried.cu").kernels[0]
    found = {}
    for event in sync.program_order(kernel):
        general = _every_field_carried(event.record)
        assert sync._OWN_CARRIED[event.kind](event.record) == general
        found.setdefault(event.kind, set()).update(general)
    assert found == {"barrier": {"mask"}, "return": {"limit"}, "call": {"mask"}, "access": {"limit"}}

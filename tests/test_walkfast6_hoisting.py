"""Loop-invariant load marking (frontend/hoisting.py) keeps, for one kernel, each address's value at
the two made-up name values `_disjoint` compares stores and loads with (`_seeded_value`), and each
loop's changed names; and it tests a load's names before comparing it with the loop's stores. Each
must answer what evaluating every pair afresh answers: on every store/load pair of every kernel of
the project's CUDA files (the kernel's one memo shared across its pairs, as the marking shares it),
on pairs whose addresses cannot be evaluated, and in the loads' final marks."""

import pytest

from kernelscope import symbolic as sx
from kernelscope.errors import InputError
from kernelscope.frontend import hoisting
from kernelscope.frontend.parse import parse_file
from kernelscope.model import Access
from test_walker_fast_paths import CUDA_FILES


def _disjoint_afresh(store, load) -> bool:
    """_disjoint as it was: both addresses evaluated for each pair and seed."""
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


def _hoistable_afresh(access, blocked, stores) -> int:
    """_hoistable_depth as it was: the stores compared before the names are tested."""
    names = access.address.symbols()
    depth = 0
    for loop in reversed(access.context.loops):
        if (loop.kind != "for" or loop.var is None or id(loop) in blocked
                or not all(hoisting._same_location(s, access) or _disjoint_afresh(s, access)
                           for s in stores.get(id(loop), ()))
                or len(access.context.conditions) > loop.condition_depth
                or names & hoisting._changed_by(loop)):
            break
        depth += 1
    return depth


def _kernels():
    for path in CUDA_FILES:
        try:
            model = parse_file(path.read_text(errors="replace"), str(path))
        except InputError:
            continue
        yield from model.kernels


KERNELS = list(_kernels())


def test_every_pair_of_every_kernel_gets_the_answer_of_a_fresh_evaluation():
    compared = same_array = disjoint = 0
    for kernel in KERNELS:
        seeded = {}
        accesses = kernel.accesses
        for store in accesses:
            for load in accesses:
                expected = _disjoint_afresh(store, load)
                assert hoisting._disjoint(store, load, seeded) == expected, (kernel.name, store.text, load.text)
                compared += 1
                same_array += store.array == load.array
                disjoint += expected
    # (not vacuous: many pairs share an array, and some of those are apart)
    assert compared > 10_000 and same_array > 1_000 and disjoint > 50


def _marks(kernel) -> list:
    return [access.hoisted_loops for access in kernel.accesses]


def test_every_load_is_marked_as_the_fresh_evaluation_marks_it(monkeypatch):
    fast = [_marks(kernel) for kernel in KERNELS]
    monkeypatch.setattr(hoisting, "_hoistable_depth",
                        lambda access, blocked, stores, seeded=None, changed=None:
                        _hoistable_afresh(access, blocked, stores))
    general = [_marks(kernel) for kernel in _kernels()]
    assert fast == general
    assert sum(depth for marks in fast for depth in marks if depth) > 20


STRUCT_LOOP = """
struct S8 { float s0, s1, s2, s3, s4, s5, s6, s7; };
__global__ void k(S8* d, const float* x, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < n; r++) {
        d[t].s1 = d[t].s0 + x[r];
        d[t].s2 = d[t].s1 * 2.0f;
        d[t].s0 = d[t].s3;
    }
}
"""


def test_struct_fields_stored_and_loaded_in_a_loop_keep_their_marks(monkeypatch):
    [kernel] = parse_file(STRUCT_LOOP, "s.cu").kernels
    fast = _marks(kernel)
    monkeypatch.setattr(hoisting, "_disjoint", lambda store, load, seeded=None: _disjoint_afresh(store, load))
    [again] = parse_file(STRUCT_LOOP, "s.cu").kernels
    assert fast == _marks(again)
    # (the field no store touches, s3, is loaded once before the loop)
    assert [a.hoisted_loops for a in kernel.accesses if a.text == "d[t].s3"] == [1]


def _access(address, array="a", elem_bytes=4, op="load"):
    return Access(array, "global", op, address, elem_bytes, 1, 1, "a[?]")


N, T = sx.Sym("n"), sx.Sym("threadIdx.x")
EDGE_PAIRS = [
    (N, sx.binary("+", N, sx.Const(4))),                        # apart by one element
    (N, sx.binary("+", N, sx.Const(2))),                        # overlapping
    (N, sx.binary("*", N, sx.Const(2))),                        # distance changes with n
    (sx.Load("p", N), sx.binary("+", sx.Load("p", N), sx.Const(8))),    # unevaluable (a load)
    (sx.binary("/", sx.Const(8), sx.binary("-", N, N)), N),   # division by zero
    (sx.Opaque("f", (N,)), N),                                  # an opaque value
    (sx.binary("+", T, sx.Const(16)), sx.binary("+", N, sx.Const(16))),   # other names
]


@pytest.mark.parametrize("store_address, load_address", EDGE_PAIRS)
def test_edge_pairs_get_the_answer_of_a_fresh_evaluation(store_address, load_address):
    store, load = _access(store_address, op="store"), _access(load_address)
    seeded = {}
    for _ in range(2):      # (the second time from the memo)
        assert hoisting._disjoint(store, load, seeded) == _disjoint_afresh(store, load)
        assert hoisting._disjoint(load, store, seeded) == _disjoint_afresh(load, store)


def test_one_address_is_evaluated_once_per_names_and_seed(monkeypatch):
    evaluations = []
    evaluate = sx.Binary.evaluate

    def counted(node, env):
        evaluations.append(id(node))
        return evaluate(node, env)

    monkeypatch.setattr(sx.Binary, "evaluate", counted)
    base = sx.binary("*", N, sx.Const(32))
    fields = [sx.binary("+", base, sx.Const(4 * k)) for k in range(1, 5)]
    seeded = {}
    for a in fields:
        for b in fields:
            if a is not b:
                assert hoisting._disjoint(_access(a, op="store"), _access(b), seeded)
    assert len(evaluations) == len(fields) * 2

"""Shortcuts of the body walk (walkfast5), each against the general path it stands for:

- _operand reads `threadIdx.x` and the like as a Sym without expr_field_expression's Value;
- sx.binary's plain int operands (element sizes, strides) and the kernel's pointer parameters'
  zero offsets are one shared Const per value and file (sx.shared_const);
- the walk keeps the element sizes it asks for (Walker._size_of);
- names without a default (parameters, builtin indices, unset variables) are one shared Sym
  per name and file (sx.shared_sym);
- _merge reads each branch's names from its own dict instead of a union of both;
- an assignment reads its target name's value once, and makes a Sym for a name only when the
  name has no value yet.

The models of every CUDA file of the project are compared by the digest of
tests/test_walker_fast_paths.py (expression nodes named by first-met order, so that sharing must
agree too), and each shortcut broken on purpose must make some file differ."""

import dataclasses
import itertools
import random

from kernelscope import symbolic as sx
from kernelscope.frontend import body
from kernelscope.frontend.body import Pointer, Value
from test_walker_fast_paths import CUDA_FILES, ROOT, _Digest, digest, digests

SOME_FILES = sorted((ROOT / "examples").glob("*.cu")) + CUDA_FILES[:40]


def _differing(monkeypatch, paths, general_path, fast_patch=None, read=digest) -> list:
    body._load_kind_tables()        # (so that an emptied kind set is not filled again by a first walk)
    return digests(monkeypatch, paths, general_path, fast_patch, read)


# -- builtin fields read as operands ------------------------------------------------------------------

def _fields_through_expression(monkeypatch):
    monkeypatch.setattr(body, "_OPERAND_FIELDS", frozenset())
    monkeypatch.setattr(body, "_LEAF_FIELDS", frozenset())     # (_binary_parts' own reading of them)


def test_builtin_operands_are_what_expression_builds(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES, _fields_through_expression) == []


def test_a_builtin_operand_not_shared_with_the_walk_is_caught(monkeypatch):
    def unshared(patched):
        patched.setattr(body.Walker, "_builtin", lambda walker, name: sx.Sym(name))
    # (the general path keeps the walk's own Syms: only the operands' would be new)
    assert _differing(monkeypatch, SOME_FILES, _fields_through_expression, unshared) != []


def test_a_builtin_operand_read_with_another_type_is_caught(monkeypatch):
    operand = body.Walker._operand

    def floating(walker, node, depth):
        # (a float index would make `blockIdx.x * blockDim.x` counted arithmetic)
        parts = operand(walker, node, depth)
        return (parts[0], parts[1], "float", parts[3]) if parts[2] == "unsigned int" and parts[0] is None else parts

    def broken(patched):
        # (_binary_parts reads builtins itself since walkfast14: emptied, so that they reach _operand)
        patched.setattr(body, "_LEAF_FIELDS", frozenset())
        patched.setattr(body.Walker, "_operand", floating)

    assert _differing(monkeypatch, SOME_FILES, _fields_through_expression, broken) != []


# -- shared int constants ----------------------------------------------------------------------------

class _LeavesByValue(_Digest):
    """The digest with constants named by their type and value and names without a default by
    their name, so that whether two equal ones are one object or two does not show (every other
    node's sharing still does). Records are numbered by a count of their own (the digest's counts
    expression nodes too)."""

    def __init__(self):
        super().__init__()
        self.records = 0

    def _name(self, structure: tuple):
        if structure[0] == "Const" or structure[0] == "Sym" and not structure[2]:
            return (structure[0],) + structure[1]
        return super()._name(structure)

    def _record(self, value) -> tuple:
        if id(value) in self.seen:
            return ("record", self.seen[id(value)])
        self.seen[id(value)] = self.records
        self.records += 1
        self.keep.append(value)
        return (type(value).__name__,) + tuple(self.value(getattr(value, f.name)) for f in dataclasses.fields(value)
                                               if f.name != "text")


def _by_value(path):
    from kernelscope.errors import InputError
    from kernelscope.frontend.parse import parse_file
    try:
        model = parse_file(path.read_text(errors="replace"), str(path))
    except InputError as exc:
        return ("error", str(exc))
    found = _LeavesByValue()
    return found.value(model), found.nodes


def _a_const_per_use(monkeypatch):
    monkeypatch.setattr(sx, "shared_const", sx.Const)


def test_shared_int_constants_build_the_same_models(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES, _a_const_per_use, read=_by_value) == []


def test_a_shared_constant_of_the_wrong_value_is_caught(monkeypatch):
    def off_by_one(value):
        return sx.Const(value + 1 if value.__class__ is int and value > 1 else value)
    assert _differing(monkeypatch, SOME_FILES, _a_const_per_use,
                      lambda m: m.setattr(sx, "shared_const", off_by_one), read=_by_value) != []


# -- shared names ----------------------------------------------------------------------------------------

def _a_sym_per_use(monkeypatch):
    monkeypatch.setattr(sx, "shared_sym", sx.Sym)


def test_shared_names_build_the_same_models(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES, _a_sym_per_use, read=_by_value) == []


def test_a_name_shared_under_the_wrong_key_is_caught(monkeypatch):
    kept = {}

    def by_length(name):
        # (`n` and `i` would be one name)
        return kept.setdefault(len(name), sx.Sym(name))
    assert _differing(monkeypatch, SOME_FILES, _a_sym_per_use,
                      lambda m: m.setattr(sx, "shared_sym", by_length), read=_by_value) != []


def test_shared_names_start_afresh_for_each_file():
    n = sx.shared_sym("n")
    assert sx.shared_sym("n") is n and n.default is None and not n.varying
    sx.forget_file_tables()
    assert sx.shared_sym("n") is not n and sx.structure_key(sx.shared_sym("n")) == sx.structure_key(n)


def test_shared_constants_keep_bools_and_floats_apart():
    name = sx.Sym("n")
    one = sx.binary("*", sx.binary("+", name, 1), 2)
    true = sx.binary("*", sx.binary("+", name, True), 2)
    real = sx.binary("*", sx.binary("+", name, 1.0), 2)
    keys = {sx.structure_key(e.left.right) for e in (one, true, real)}
    assert len(keys) == 3
    assert [type(e.left.right.value) for e in (one, true, real)] == [int, bool, float]
    assert sx.shared_const(7) is sx.shared_const(7)
    assert sx.shared_const(7.0) is not sx.shared_const(7.0)     # (floats are not kept)


def test_shared_constants_start_afresh_for_each_file():
    seven = sx.shared_const(7)
    sx.forget_file_tables()
    again = sx.shared_const(7)
    assert again is not seven and sx.structure_key(again) == sx.structure_key(seven) and again.value == 7


# -- element sizes kept per walk ----------------------------------------------------------------------

def _sizes_asked_each_time(monkeypatch):
    monkeypatch.setattr(body.Walker, "_size_of", lambda walker, type_name: walker.types.size_of(type_name))


def test_kept_sizes_build_the_same_models(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES, _sizes_asked_each_time) == []


def test_a_size_kept_under_the_wrong_type_is_caught(monkeypatch):
    def first_size(walker, type_name):
        # every type answered with the first size the walk asked for
        if not walker._sizes:
            walker._sizes[type_name] = walker.types.size_of(type_name)
        return next(iter(walker._sizes.values()))
    assert _differing(monkeypatch, SOME_FILES, _sizes_asked_each_time,
                      lambda m: m.setattr(body.Walker, "_size_of", first_size)) != []


def test_a_template_kernel_sees_each_binding_of_its_type_parameter():
    from kernelscope.frontend.parse import parse_file
    source = """
template <typename T> __global__ void copy(const T* in, T* out) { out[threadIdx.x] = in[threadIdx.x]; }
template __global__ void copy<double>(const double*, double*);
__global__ void narrow(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }
"""
    kernels = {k.name: k for k in parse_file(source, "t.cu").kernels}
    assert [a.elem_bytes for a in kernels["copy"].accesses] == [8, 8]
    assert [a.elem_bytes for a in kernels["narrow"].accesses] == [4, 4]


# -- merging the branches of an if ---------------------------------------------------------------------

def _merge_over_both_names(condition, then_env, else_env, before):
    """_merge as it was: one loop over the union of both branches' names."""
    merged = dict(before)
    for name in set(then_env) | set(else_env):
        a, b = then_env.get(name), else_env.get(name)
        if a is b:
            if a is not None:
                merged[name] = a
            continue
        if a is None or b is None:
            merged[name] = a or b
            continue
        if a.pointer is not None or b.pointer is not None:
            merged[name] = a if a.pointer is not None else b
            continue
        merged[name] = Value(sx.Select(condition, a.expr, b.expr), a.ctype or b.ctype, None, a.dims)
    return merged


def _same_merge(first: dict, second: dict) -> bool:
    if first.keys() != second.keys():
        return False
    for name, a in first.items():
        b = second[name]
        if isinstance(a, Value) and isinstance(a.expr, sx.Select) and a.pointer is None:
            if not (isinstance(b, Value) and isinstance(b.expr, sx.Select)
                    and (a.expr.condition, a.expr.if_true, a.expr.if_false, a.ctype, a.dims)
                    == (b.expr.condition, b.expr.if_true, b.expr.if_false, b.ctype, b.dims)):
                return False
        elif a is not b:
            return False
    return True


def test_merge_agrees_with_the_merge_over_both_names():
    chooser = random.Random(5)
    condition = sx.Sym("c")
    pointer = Pointer("p", "global", sx.Const(0), "float")
    names = [f"v{k}" for k in range(8)]
    kinds = ("same", "then", "else", "both", "then only", "else only", "pointer", "none")
    for trial in range(400):
        before = {name: Value(sx.Sym(name), "int") for name in names[:chooser.randrange(len(names) + 1)]}
        then_env, else_env = dict(before), dict(before)
        for name in names:
            kind = chooser.choice(kinds)
            fresh_then = Value(sx.Sym(name + "'"), "float")
            fresh_else = Value(sx.Sym(name + "''"), None, None, (1, 2, 3))
            if kind == "then":
                then_env[name] = fresh_then
            elif kind == "else":
                else_env[name] = fresh_else
            elif kind == "both":
                then_env[name], else_env[name] = fresh_then, fresh_else
            elif kind == "then only":
                then_env[name] = fresh_then
                else_env.pop(name, None)
            elif kind == "else only":
                else_env[name] = fresh_else
                then_env.pop(name, None)
            elif kind == "pointer":
                then_env[name] = Value(sx.Const(0), "float*", pointer)
                else_env[name] = fresh_else
            elif kind == "none":
                then_env[name] = None
        found = body._merge(condition, then_env, else_env, before)
        expected = _merge_over_both_names(condition, then_env, else_env, before)
        assert _same_merge(found, expected), trial


def test_a_merge_that_drops_the_else_branch_is_caught():
    condition = sx.Sym("c")
    else_value = Value(sx.Sym("y"), "int")
    then_env, else_env = {}, {"y": else_value}
    assert not _same_merge({}, _merge_over_both_names(condition, then_env, else_env, {}))
    assert _same_merge(body._merge(condition, then_env, else_env, {}),
                       _merge_over_both_names(condition, then_env, else_env, {}))
    assert list(itertools.islice(body._merge(condition, then_env, else_env, {}), 1)) == ["y"]


# -- assignments to names -----------------------------------------------------------------------------

def test_a_name_assigned_before_any_declaration_reads_as_its_own_symbol():
    from kernelscope.frontend.parse import parse_file
    source = """
__global__ void k(float* a) { n = n + 2; a[n] = 0.f; m += 3; a[m] = 1.f; }
"""
    kernel = parse_file(source, "t.cu").kernels[0]
    assert [str(access.address) for access in kernel.accesses] == ["((n + 2) * 4)", "((m + 3) * 4)"]

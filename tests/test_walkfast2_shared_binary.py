"""A Binary node of an operator and two operands whose structure was built before in the same file
is that node again (symbolic.shared_binary, and its lookup written out in symbolic.binary,
symbolic.element_offset and Walker._binary_parts, which build a missing node by new_shared_binary). The model must hold the same structures as when every Binary is built anew,
on every CUDA file of the project; a file must be read alike whatever was read before it (the
table starts afresh per file); a table that confused operators, or outlived its file, is caught."""

import dataclasses

from kernelscope import symbolic as sx
from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES, ROOT, _Digest, digest, digests
from kernelscope.errors import InputError
from kernelscope.frontend.parse import parse_file


class _StructureDigest(_Digest):
    """A model as nested tuples, each expression node named by its structure (the first-met index
    of its kind, own fields and operands' names): equal structures read alike however shared.
    Records are written out whole, each time they are met, with their text."""

    def __init__(self):
        super().__init__()
        self.names: dict = {}       # structure -> index

    def _name(self, structure: tuple) -> int:
        return self.names.setdefault(structure, len(self.names))

    def _record(self, value) -> tuple:
        return (type(value).__name__,) + tuple(self.value(getattr(value, f.name)) for f in dataclasses.fields(value))


def _structures(path):
    try:
        model = parse_file(path.read_text(errors="replace"), str(path))
    except InputError as exc:
        return ("error", str(exc))
    return _StructureDigest().value(model)


def _unshared(monkeypatch):
    """Every Binary built anew: tables that stay empty, shared_binary a plain constructor."""
    monkeypatch.setattr(sx, "shared_binary", sx.Binary)
    monkeypatch.setattr(sx, "new_shared_binary", lambda signature, op, left, right: sx.Binary(op, left, right))
    monkeypatch.setattr(sx, "_BINARY_NODES", {})
    monkeypatch.setattr(body, "_BINARY_NODES", {})


def _differing(monkeypatch, paths, shared_patch=None) -> list:
    return digests(monkeypatch, paths, _unshared, shared_patch, read=_structures)


def test_equal_structures_give_one_node():
    sx.forget_file_tables()
    i, n = sx.Sym("i"), sx.Sym("n")
    first = sx.binary("*", i, n)
    assert sx.binary("*", sx.Sym("i"), sx.Sym("n")) is first
    assert sx.shared_binary("*", sx.Sym("i"), sx.Sym("n")) is first
    assert sx.binary("+", i, n) is not first and sx.binary("*", n, i) is not first
    sx.forget_file_tables()
    assert sx.binary("*", i, n) is not first


def test_sharing_builds_the_structures_of_unshared_nodes(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES) == []


def test_a_table_that_confuses_operators_is_caught(monkeypatch):
    def by_operands_only(op, left, right):
        signature = ("?", left._key, right._key)
        node = sx._BINARY_NODES.get(signature)
        if node is None:
            node = sx._BINARY_NODES[signature] = sx.Binary(op, left, right)
        return node

    def broken(patched):
        patched.setattr(sx, "shared_binary", by_operands_only)
        patched.setattr(sx, "new_shared_binary", lambda signature, op, left, right: by_operands_only(op, left, right))
        patched.setattr(sx, "_BINARY_NODES", {})       # (the inline lookups then always miss)
        patched.setattr(body, "_BINARY_NODES", {})

    paths = sorted((ROOT / "examples").glob("*.cu"))
    assert _differing(monkeypatch, paths, broken) != []


def _read_after(paths, before) -> list:
    """Names of the files whose model (sharing included) differs when `before` is read first."""
    alone = [digest(p) for p in paths]
    after = []
    for path in paths:
        digest(before)
        after.append(digest(path))
    return [p.name for p, a, b in zip(paths, alone, after) if a != b]


def test_a_file_reads_alike_whatever_was_read_before():
    paths = sorted((ROOT / "examples").glob("*.cu"))
    assert _read_after(paths, paths[0]) == [] and _read_after(paths, paths[-1]) == []


def test_a_table_that_outlives_its_file_is_caught(monkeypatch):
    monkeypatch.setattr(sx, "forget_file_tables", sx._UNIONS.clear)
    paths = sorted((ROOT / "examples").glob("*.cu"))
    assert _read_after(paths, paths[0]) + _read_after(paths, paths[-1]) != []


def test_an_operand_of_a_subclass_is_not_taken_for_its_class():
    class Counted(sx.Sym):
        pass

    sx.forget_file_tables()
    plain = sx.binary("*", sx.Sym("i"), 4)
    counted = Counted("i")      # (the structure key of a Sym named i)
    for node in (sx.binary("*", counted, 4), sx.binary("*", counted, sx.Sym("n"))):
        assert node.left is counted
    assert plain.left is not counted

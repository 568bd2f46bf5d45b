"""Where the walk reads only an expression (loop conditions, bounds and steps, subscripts' indices,
ternaries' conditions, array sizes) it asks Walker._expr_of, which reads the node by _operand without
the Value that `expression` makes; and _operand sees through parentheses. The model must be what
`expression` builds at those places, on every CUDA file of the project (compared by the digest of
tests/test_walker_fast_paths.py, which names expression nodes by first-met order so that sharing must
agree too); a parenthesised operand read without its type is caught."""

from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES, ROOT, digests


def _general(monkeypatch):
    body._load_kind_tables()        # (so that the emptied set is not filled again by a first walk)
    monkeypatch.setattr(body.Walker, "_expr_of", lambda walker, node, depth=0: walker.expression(node, depth).expr)
    monkeypatch.setattr(body, "_OPERAND_PARENTHESES", frozenset())
    monkeypatch.setattr(body, "_PARENTHESIZED_BINARIES", frozenset())    # (_binary_parts' own look inside)


def _differing(monkeypatch, paths, fast_patch=None) -> list:
    body._load_kind_tables()
    return digests(monkeypatch, paths, _general, fast_patch)


def test_expressions_read_alone_are_what_expression_builds(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES) == []


def test_a_parenthesised_operand_without_its_type_is_caught(monkeypatch):
    operand = body.Walker._operand

    def untyped(walker, node, depth):
        parts = operand(walker, node, depth)
        return (parts[0], parts[1], None, parts[3]) if node.kind_id in body._OPERAND_PARENTHESES else parts

    def broken(patched):
        # (_binary_parts reads `(a + b)` itself since walkfast14: emptied, so that it reaches _operand)
        patched.setattr(body, "_PARENTHESIZED_BINARIES", frozenset())
        patched.setattr(body.Walker, "_operand", untyped)

    paths = sorted((ROOT / "examples").glob("*.cu")) + CUDA_FILES[:40]
    assert _differing(monkeypatch, paths, broken) != []

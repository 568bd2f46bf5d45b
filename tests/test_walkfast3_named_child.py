"""The walker reads a node's only, first or last named child with Node.named_child instead of
making the list of all its children (Node.named_children): an expression statement's expression, an
`if (...)` clause's condition, a parenthesised expression's inside and a subscript's first index.
The model must be what the walk by named_children builds, on every CUDA file of the project
(compared by the digest of tests/test_walker_fast_paths.py, which names expression nodes by
first-met order so that sharing must agree too); a child read wrongly must be caught."""

from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES, ROOT, digests


def _expression_statement(walker, node) -> None:
    for child in node.named_children:
        walker.expression(child)


def _condition_clause(walker, node, depth, whole_struct=False):
    value = body.UNKNOWN
    for child in node.named_children:
        if child.type == "declaration":
            walker.stmt_declaration(child)
            name, _, _ = walker._declarator_shape(child.child_by_field_id(body.FIELD.declarator))
            value = walker.env.get(name, body.UNKNOWN)
        else:
            value = walker.expression(child, depth)
    return value


def _by_named_children(monkeypatch):
    """Every child read from Node.named_children, as before named_child was used."""
    body._load_kind_tables()
    monkeypatch.setattr(body, "_first_named_child", lambda node: node.named_children[0] if node.named_children else None)
    monkeypatch.setattr(body, "_last_named_child", lambda node: node.named_children[-1] if node.named_children else None)
    monkeypatch.setitem(body._STATEMENT_HANDLERS, "expression_statement", _expression_statement)
    monkeypatch.setitem(body._EXPRESSION_HANDLERS, "condition_clause", _condition_clause)
    monkeypatch.setattr(body, "_STATEMENT_BY_KIND", body.kind_table(body._STATEMENT_HANDLERS))
    monkeypatch.setattr(body, "_EXPRESSION_BY_KIND", body.kind_table(body._EXPRESSION_HANDLERS))


def _differing(monkeypatch, paths, fast_patch=None) -> list:
    body._load_kind_tables()
    return digests(monkeypatch, paths, _by_named_children, fast_patch)


def test_children_read_alone_are_those_named_children_gives(monkeypatch):
    assert _differing(monkeypatch, CUDA_FILES) == []


_SOME_FILES = sorted((ROOT / "examples").glob("*.cu")) + CUDA_FILES[:40]


def test_a_subscript_read_without_its_index_is_caught(monkeypatch):
    assert _differing(monkeypatch, _SOME_FILES, lambda m: m.setattr(body, "_first_named_child", lambda node: None)) != []


def test_an_expression_statement_read_wrongly_is_caught(monkeypatch):
    def first_child_of_its_first_child(walker, node):
        # (the expression's first operand instead of the expression)
        inner = node.named_child(0) if node.named_child_count else None
        if inner is not None and inner.named_child_count:
            walker.expression(inner.named_child(0))

    def broken(patched):
        patched.setitem(body._STATEMENT_HANDLERS, "expression_statement", first_child_of_its_first_child)
        patched.setattr(body, "_STATEMENT_BY_KIND", body.kind_table(body._STATEMENT_HANDLERS))

    assert _differing(monkeypatch, _SOME_FILES, broken) != []

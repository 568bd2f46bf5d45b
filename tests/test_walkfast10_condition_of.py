"""The condition of an `if`, `while` or `switch` is read by Walker._condition_of: the clause's one
expression through _expr_of, without the dispatch of `expression` and expr_condition_clause and the
Value they make only for its expression to be read. The model must be what the general path builds
(`expression(clause).expr`), on every CUDA file of the project (compared by the digest of
tests/test_walker_fast_paths.py, which names expression nodes by first-met order, so that sharing
must agree too); a shortcut that read the condition without recording its loads is caught."""

from kernelscope.frontend import body
from kernelscope.frontend.parse import parse_file
from test_walker_fast_paths import CUDA_FILES, ROOT, digests, kind_sets_emptied


_general = kind_sets_emptied("_CONDITION_CLAUSES")


def _differing(monkeypatch, paths, fast_patch=None) -> list:
    return digests(monkeypatch, paths, _general, fast_patch)


def test_conditions_read_alone_are_what_expression_builds(monkeypatch):
    body._load_kind_tables()
    assert body._CONDITION_CLAUSES          # (the shortcut is on: what the comparison compares with)
    assert _differing(monkeypatch, CUDA_FILES) == []


def test_the_shortcut_is_taken(monkeypatch):
    """Most conditions are one expression: the comparison above compares the shortcut, not the
    fallback it shares with the general path."""
    taken = []
    expr_of = body.Walker._expr_of

    def counting(walker, node, depth=0):
        if node.parent is not None and node.parent.type == "condition_clause":
            taken.append(node.parent.parent.type)
        return expr_of(walker, node, depth)

    body._load_kind_tables()
    monkeypatch.setattr(body.Walker, "_expr_of", counting)
    for path in sorted((ROOT / "examples").glob("*.cu")):
        parse_file(path.read_text(), str(path))
    assert "if_statement" in taken


def test_a_condition_read_without_recording_its_loads_is_caught(monkeypatch):
    condition_of = body.Walker._condition_of

    def unrecorded(walker, node):
        recording, walker.record = walker.record, False
        try:
            return condition_of(walker, node)
        finally:
            walker.record = recording

    assert _differing(monkeypatch, CUDA_FILES, lambda m: m.setattr(body.Walker, "_condition_of", unrecorded)) != []

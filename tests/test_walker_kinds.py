"""The walker dispatches on node kind ids (ints) where it used to read node types (strings made
anew on every read): for every node of every CUDA file of the project, what the id finds in the
kind tables must be what the type finds in the tables by name."""

from pathlib import Path

from kernelscope.frontend import body
from kernelscope.frontend.nodes import kind_ids, language
from kernelscope.frontend.parse import FileUnit, _parser
from kernelscope.frontend.macros import preprocess

ROOT = Path(__file__).resolve().parents[1]
CUDA_FILES = sorted(p for folder in ("tests", "examples", "corpus") for p in (ROOT / folder).rglob("*")
                    if p.suffix in (".cu", ".cuh") and p.is_file())

def _loaded():
    body.Walker(FileUnit(preprocess("", None, "sm_90"), ""), body.Scope(), {})   # fills the tables


def _nodes(root):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def test_kind_ids_read_what_types_read():
    _loaded()
    parser = _parser()
    checked = set()
    for path in CUDA_FILES:
        tree = parser.parse(path.read_bytes())
        for node in _nodes(tree.root_node):
            kind, name = node.kind_id, node.type
            if (kind, name) in checked:
                continue
            checked.add((kind, name))
            assert body._EXPRESSION_BY_KIND.get(kind) is body._EXPRESSION_HANDLERS.get(name), (kind, name)
            assert body._STATEMENT_BY_KIND.get(kind) is body._STATEMENT_HANDLERS.get(name), (kind, name)
            for attribute, names in body._KIND_SETS.items():
                assert (kind in getattr(body, attribute)) == (name in names), (attribute, kind, name)
    assert any(name == "ERROR" for _, name in checked)      # (files with errors were among them)


def test_every_id_of_an_aliased_name_is_found():
    # binary_expression has two ids in the grammar (an alias): a table of one of them would miss
    # the nodes of the other
    ids = kind_ids("binary_expression")
    assert len(ids) > 1
    _loaded()
    assert all(body._EXPRESSION_BY_KIND[kind] is body.Walker.expr_binary_expression for kind in ids)
    grammar = language()
    assert {grammar.node_kind_for_id(kind) for kind in ids} == {"binary_expression"}


def test_the_kind_sets_name_the_types_the_walk_compares_with():
    assert set(body._KIND_SETS["_EXIT_KINDS"]) == body._EXITS
    assert set(body._KIND_SETS["_LOOP_KINDS"]) == body._LOOP_STATEMENTS
    _loaded()
    assert all(getattr(body, name) for name in body._KIND_SETS)     # (every type is in the grammar)

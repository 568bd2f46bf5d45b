"""Small readers of tree-sitter nodes shared by the front end's modules, and the grammar itself."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def language():
    """The tree-sitter-cuda grammar (loaded on first use: commands that parse nothing never pay)."""
    import tree_sitter_cuda
    from tree_sitter import Language

    return Language(tree_sitter_cuda.language())


class _FieldIds:
    """Field ids of the grammar by field name (`FIELD.left`), read from the grammar on first use.
    `child_by_field_id` costs a third of `child_by_field_name`, which looks the name up in the
    grammar on every call; the walker asks for fields about 200 times per kernel.

    The first lookup sets every field of the grammar as an attribute and turns the object into a
    _GrammarFieldIds, which has no __getattr__: while a class defines one, every attribute read
    goes through the slower lookup that can fall back on it, even for attributes that are set."""

    def __getattr__(self, name: str) -> int:
        if name.startswith("__"):
            raise AttributeError(name)
        grammar = language()
        for field_id in range(1, grammar.field_count + 1):
            setattr(self, grammar.field_name_for_id(field_id), field_id)
        self.__class__ = _GrammarFieldIds
        return getattr(self, name)


class _GrammarFieldIds:
    """FIELD once loaded: a field the CUDA grammar does not have is an AttributeError."""


FIELD = _FieldIds()


@lru_cache(maxsize=None)
def kind_ids(*names: str) -> frozenset:
    """The grammar's node kind ids (Node.kind_id) of the nodes whose type (Node.type) is one of
    names: several ids share a name where the grammar aliases one rule to another."""
    by_name = _kind_ids_by_name()
    return frozenset().union(*(by_name.get(name, ()) for name in names))


@lru_cache(maxsize=1)
def _kind_ids_by_name() -> dict:
    """node type -> its kind ids, read off the grammar in one pass: the walker's ~50 kind tables
    are built at a fresh process's first analysis, and scanning every kind of the grammar once per
    table cost about a tenth of a one-kernel analysis's start-up."""
    grammar = language()
    by_name: dict = {}
    for kind in range(grammar.node_kind_count):
        by_name.setdefault(grammar.node_kind_for_id(kind), []).append(kind)
    return by_name


def node_text(node) -> str:
    """A node's source text ('' for a missing node); latin-1 so that any byte decodes."""
    return node.text.decode("latin-1") if node is not None else ""


def leaf_name(node) -> str:
    """The name a declarator declares, under any pointer, reference, array or function wrapping."""
    while node is not None:
        if node.type in ("identifier", "field_identifier", "type_identifier"):
            return node_text(node)
        inner = node.child_by_field_id(FIELD.declarator)
        if inner is None:
            identifiers = [c for c in node.named_children if c.type in ("identifier", "field_identifier")]
            return node_text(identifiers[-1]) if identifiers else ""
        node = inner
    return ""


def ancestors(root, node) -> list:
    """The nodes around `node` under `root`, nearest first (`node.parent`, its parent, ..., root's child
    that holds it). One search down from the root: each Node.parent call searches from the root
    anew, over its children in turn, so asking for parents one by one costs more the later the node
    lies in a large file."""
    found = []
    current = root.child_with_descendant(node)
    while current is not None and current != node:
        found.append(current)
        current = current.child_with_descendant(node)
    found.reverse()
    return found

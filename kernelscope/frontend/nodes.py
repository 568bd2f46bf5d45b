"""Small readers of tree-sitter nodes shared by the front end's modules."""

from __future__ import annotations


def node_text(node) -> str:
    """A node's source text ('' for a missing node); latin-1 so that any byte decodes."""
    return node.text.decode("latin-1") if node is not None else ""


def leaf_name(node) -> str:
    """The name a declarator declares, under any pointer, reference, array or function wrapping."""
    while node is not None:
        if node.type in ("identifier", "field_identifier", "type_identifier"):
            return node_text(node)
        inner = node.child_by_field_name("declarator")
        if inner is None:
            identifiers = [c for c in node.named_children if c.type in ("identifier", "field_identifier")]
            return node_text(identifiers[-1]) if identifiers else ""
        node = inner
    return ""

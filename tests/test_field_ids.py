"""FIELD (frontend/nodes.py) loads every field id of the grammar on first use and then reads them as
plain attributes: each must be the id the grammar gives for that name."""

from kernelscope.frontend.nodes import FIELD, language


def test_every_field_id_is_the_grammars_and_the_loaded_object_has_no_fallback():
    grammar = language()
    assert FIELD.left == grammar.field_id_for_name("left")
    for field_id in range(1, grammar.field_count + 1):
        name = grammar.field_name_for_id(field_id)
        assert getattr(FIELD, name) == grammar.field_id_for_name(name)
    assert "__getattr__" not in vars(type(FIELD))

"""kind_ids reads the grammar once into a name -> ids map; it must give what a scan of every kind
of the grammar gives, for each name the grammar has (aliases share a name), for several names at
once, and nothing for a name the grammar lacks."""

from kernelscope.frontend.nodes import kind_ids, language


def _scanned(*names):
    grammar = language()
    return frozenset(k for k in range(grammar.node_kind_count) if grammar.node_kind_for_id(k) in names)


def test_every_grammar_name_maps_to_the_kinds_a_scan_finds():
    grammar = language()
    names = {grammar.node_kind_for_id(k) for k in range(grammar.node_kind_count)}
    assert len(names) > 100
    aliased = [name for name in names if len(_scanned(name)) > 1]
    assert aliased, "the grammar aliases some rules: the map must keep every id of a name"
    for name in names:
        assert kind_ids(name) == _scanned(name), name


def test_several_names_and_unknown_names():
    assert kind_ids("identifier", "call_expression") == _scanned("identifier", "call_expression")
    assert kind_ids("no_such_node_kind") == frozenset()
    assert kind_ids("identifier", "no_such_node_kind") == _scanned("identifier")

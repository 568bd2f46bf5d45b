"""template_types.ScopeDeclarations walks a scope's named nodes only, by kind id; it must find what
a walk over every node (tokens too) by type finds: every name's first declared type, in every
function, class, struct and file scope of every CUDA file of the project (with and without
preprocessing, so trees with errors too) and of cases with declarations inside expressions."""

from kernelscope.frontend import parse as front
from kernelscope.frontend.ctypes import normalise_type
from kernelscope.frontend.nodes import FIELD, leaf_name, node_text
from kernelscope.frontend.template_types import _DECLARATIONS, _FILE_LEVEL, ScopeDeclarations
from test_walked_captures import CUDA_FILES, parsed

SCOPES = ("function_definition", "class_specifier", "struct_specifier")

CASES = [
    "void host(float* a) { launch(a, [&](double* inner) { int* deeper; }); }",
    "void host(int n) { if (int* p = 0) { } for (float* q = 0; q; ) { } while (char* r = 0) { } }",
    "extern \"C\" { int* in_block; } namespace ns { float* in_ns; }\n#ifdef X\nshort* in_if;\n#else\nlong* in_else;\n#endif\n",
    "struct S { int* m; void g() { char* local; } }; class C { double* d; };",
    "void broken(float* a) { int* ok; float* = ; double* after; }",
]


def _every_type_by_children(scope, nested: bool) -> dict:
    """The walk ScopeDeclarations made before: every node, children and tokens, read by type."""
    found: dict = {}
    stack = list(reversed(scope.children))
    while stack:
        node = stack.pop()
        if node.type in _DECLARATIONS:
            type_node = node.child_by_field_id(FIELD.type)
            if type_node is not None:
                for declarator in node.children_by_field_id(FIELD.declarator):
                    name = leaf_name(declarator)
                    if name and name not in found:
                        written = node_text(declarator)
                        stars = written.split(name)[0].count("*") + written.count("[")
                        found[name] = normalise_type(node_text(type_node)) + "*" * stars
        if nested or node.type in _FILE_LEVEL:
            stack.extend(reversed(node.children))
    return found


def _scopes(root) -> list:
    found = [(root, False)]
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in SCOPES:
            found.append((node, True))
        stack.extend(node.children)
    return found


def _compare(tree) -> int:
    compared = 0
    for scope, nested in _scopes(tree.root_node):
        expected = _every_type_by_children(scope, nested)
        assert ScopeDeclarations(scope, nested).every_type() == expected, node_text(scope)[:200]
        compared += len(expected)
    return compared


def _trees():
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        yield parsed(text)
        yield front._parser().parse(text.encode("ascii", "replace"))
    for source in CASES:
        yield front._parser().parse(source.encode())


def test_the_named_walk_finds_what_the_walk_of_every_node_finds():
    compared = errors = 0
    for tree in _trees():
        compared += _compare(tree)
        errors += tree.root_node.has_error
    assert compared > 2000 and errors > 0


def test_declarations_inside_expressions_and_conditions_are_found():
    tree = front._parser().parse(CASES[0].encode() + CASES[1].encode())
    found = ScopeDeclarations(tree.root_node.children[0], True).every_type()
    assert found["inner"] == "double*" and found["deeper"] == "int*"
    found = ScopeDeclarations(tree.root_node.children[1], True).every_type()
    assert found == {"n": "int", "p": "int*", "q": "float*", "r": "char*"}


def test_no_token_of_the_project_trees_has_nodes_under_it():
    # (what the named walk relies on: an unnamed node is a leaf)
    for tree in _trees():
        stack = [tree.root_node]
        while stack:
            node = stack.pop()
            assert node.is_named or node.child_count == 0, node.type
            stack.extend(node.children)

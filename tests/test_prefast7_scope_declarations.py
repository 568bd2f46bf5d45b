"""A scope's declared types walked only as far as the names asked for (ScopeDeclarations, what a
launch's host context reads) against one walk over the whole scope (ScopeDeclarations.every_type): every name
of every function, class and file scope of every CUDA file of the project, asked in random
orders, with names declared twice, declared late, or not at all."""

import random

from kernelscope.frontend import parse
from kernelscope.frontend.template_types import ScopeDeclarations
from test_walker_fast_paths import CUDA_FILES

SCOPES = ("function_definition", "class_specifier", "struct_specifier")

TWICE = """
void host(float* a, int n) {
    int* late;
    { double* a; char late2; }
    for (int i = 0; i < n; ++i) { short* inner; }
    auto f = [](long* captured) { return captured; };
    float b[4], *c, d;
}
struct S { int* m; void g() { char* local; } };
int* global_p;
"""


def _scopes(root) -> list:
    found = [(root, False)]
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in SCOPES:
            found.append((node, True))
        stack.extend(node.children)
    return found


def _names(root) -> list:
    names = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "field_identifier", "type_identifier"):
            names.add(node.text.decode("latin-1"))
        stack.extend(node.children)
    return sorted(names) + ["never_declared"]


def _compare(root, rng) -> int:
    names = _names(root)
    asked = 0
    for scope, nested in _scopes(root):
        whole = ScopeDeclarations(scope, nested).every_type()
        lazy = ScopeDeclarations(scope, nested)
        for name in rng.sample(names, len(names)):
            assert lazy.first_type(name) == whole.get(name), (scope.type, name)
            asked += 1
    return asked


def test_lazy_walks_give_the_whole_walks_types_on_every_cuda_file():
    assert len(CUDA_FILES) > 100
    rng = random.Random(7)
    asked = 0
    for path in CUDA_FILES[::3]:
        model_root = parse._parser().parse(path.read_bytes()).root_node
        asked += _compare(model_root, rng)
    assert asked > 5000


def test_names_declared_twice_late_or_in_nested_scopes():
    root = parse._parser().parse(TWICE.encode()).root_node
    for seed in range(20):
        _compare(root, random.Random(seed))
    function = next(n for n, nested in _scopes(root) if n.text.startswith(b"void host"))
    lazy = ScopeDeclarations(function, True)
    assert lazy.first_type("a") == "float*"          # the parameter, not the block's double*
    assert lazy.first_type("c") == "float*" and lazy.first_type("b") == "float*"
    assert lazy.first_type("never") is None

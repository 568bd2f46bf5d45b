"""parse._function_qualifiers reads a function definition without errors from the text before its
declarator (_qualifiers_of_definition: the `__global__`/`__device__` tokens found where their text
occurs), and any other definition from every child's field name and type (_qualifiers_of_children).
The two must agree on every function definition of the project's CUDA files, on cases where the
keywords' text occurs without being a qualifier token, and on random definitions."""

import random

from kernelscope.frontend import parse as front
from test_walked_captures import CUDA_FILES, parsed

# Keyword text that is not a qualifier token of the definition, qualifiers in every order and
# position, declarators that are not function declarators.
CASES = [
    "/* __global__ */ void f(int a) { }",
    "void /* __global__ */ f(int a) { }",
    "int /*__device__*/ __device__ f(int a) { return a; }",
    "// __device__\nvoid f(int a) { }",
    "__device__ __forceinline__ const float* g(int a) { return 0; }",
    "__host__ __device__ inline int h(int a) { return a; }",
    "static __global__ void __launch_bounds__(256) k(int a) { }",
    "template <typename T> __global__ void k(T* a) { }",
    "__device__ int (*pick(int a))(int) { return 0; }",
    "struct S { __device__ int f(int a) { return a; } __host__ int g() { return 0; } };",
    "__global__ void a(int x) { } __device__ void b(int x) { } void c(int x) { }",
    "__device__ __global__ void both(int x) { }",
    "const __device__ int __device__x(int a) { return a; }",
    "extern \"C\" __global__ void k(float* y) { y[0] = 1; }",
    "__device__ S<int> make(int a) { return S<int>(); }",
    "__device__ int S::f(int a) { return a; }",
    "__device__ bool operator==(const S& a, const S& b) { return true; }",
    "__device__ auto lam = [] __device__ (int x) { return x; };",
]

WORDS = ["__global__", "__device__", "__host__", "static", "inline", "const", "void", "int", "float*", "T",
         "/* __global__ */", "/*__device__*/", "__forceinline__", "S<int>", "unsigned"]


def _definitions(tree) -> list:
    root = tree.root_node
    return front._walked_captures_of_all(root).get("function", [])


def _text_of(tree) -> str:
    return tree.root_node.text.decode("latin-1")


def _compare(tree) -> tuple[int, set]:
    """How many definitions without errors were compared, and the labels they gave."""
    text = _text_of(tree)
    compared, labels = 0, set()
    for node in _definitions(tree):
        expected = front._qualifiers_of_children(node)
        assert front._function_qualifiers(node, text) == expected, text[node.start_byte:node.end_byte]
        if not node.has_error:
            assert front._qualifiers_of_definition(node, text) == expected, text[node.start_byte:node.end_byte]
            compared += 1
            labels.update(expected)
    return compared, labels


def test_the_two_readings_agree_on_every_definition_of_the_project():
    compared, labels = 0, set()
    for path in CUDA_FILES:
        count, seen = _compare(parsed(path.read_text(encoding="latin-1")))
        compared += count
        labels |= seen
    assert compared > 500
    assert labels == {"kernel", "device"}


def test_the_two_readings_agree_where_the_keywords_are_not_qualifiers():
    for source in CASES:
        _compare(front._parser().parse(source.encode()))


def test_keyword_text_in_a_comment_is_no_qualifier():
    # (a reading that took the keyword's text for the token would call this a kernel)
    tree = front._parser().parse(b"void /* __global__ */ f(int a) { }")
    (node,) = _definitions(tree)
    assert not node.has_error
    assert "__global__" in _text_of(tree)[node.start_byte:node.end_byte]
    assert front._qualifiers_of_definition(node, _text_of(tree)) == []


def test_the_two_readings_agree_on_random_definitions():
    rng = random.Random(10)
    compared = 0
    for _ in range(400):
        prefix = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 5)))
        declarator = rng.choice(["k(int a)", "*k(int a)", "k<int>(int a)", "S::k(int a)", "(k)(int a)", "k"])
        source = f"{prefix} {declarator} {{ return; }}\n"
        count, _ = _compare(front._parser().parse(source.encode()))
        compared += count
    assert compared > 100


def test_the_parse_passes_the_parsed_text_to_the_fast_reading(monkeypatch):
    calls = []
    fast = front._qualifiers_of_definition
    monkeypatch.setattr(front, "_qualifiers_of_definition", lambda node, text: calls.append(node) or fast(node, text))
    model = front.parse_file("__global__ void k(float* y) { y[0] = 1; }\n__device__ int f(int a) { return a; }\n")
    assert [k.name for k in model.kernels] == ["k"] and "f" in model.device_functions
    assert len(calls) == 2

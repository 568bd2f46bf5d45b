"""A kernel parameter written the common way (`const float* __restrict__ a`, `int n`, `T* p`) is
read from its text alone by parse._plain_param_shape, without the tree's child lookups. Wherever it
answers, its answer must be what the tree gives (parse._param_shape_from_tree): for every parameter
declaration of every CUDA file of the project, and for hand-written parameters chosen to sit at the
edges of what it accepts."""

from types import SimpleNamespace

import pytest

from kernelscope.frontend import parse as front
from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.shims import apply_shims
from kernelscope.frontend.source import normalise
from test_walker_fast_paths import CUDA_FILES

# Parameters at the edges of the plain form: sized types, qualifiers on either side of the type and
# of the stars, type names holding `const`, references, arrays, comments, namespaces, templates,
# unnamed and abstract parameters, keywords where a name would be.
EDGE_PARAMETERS = [
    "unsigned n", "unsigned int n", "long long n", "signed char c", "short s", "const unsigned int n",
    "const float* const p", "float * __restrict__ const q", "float* __restrict r", "volatile int* flag",
    "const_t x", "my_constant_t* y", "float const* a", "float const * const b", "T** pp", "const T* const* cc",
    "int long_name", "float* /* out */ a", "float* a /* out */", "const float& r", "float a[4]", "float* a[4]",
    "size_t n", "std::size_t m", "struct Point* points", "Vec<float>* v", "float*", "const int", "int",
    "float* const", "register int k", "__restrict__ float* z", "const volatile double* w",
    "float\n    *\n    out", "int constant", "int volatile_count", "float4* __restrict__ const v4",
    "float (*f)(int)", "int x = 3", "restrict float* rr", "float* restrict rs",
]


def _parsed(text: str):
    """The root of `text` parsed as the analysis parses a file."""
    expanded = preprocess(normalise(text), None, "sm_90").text
    parsed, _ = apply_shims(expanded.encode("ascii", "replace").decode("ascii"))
    parsed += "}" * front._unclosed_braces(parsed)
    return parsed, front._parser().parse(parsed.encode("ascii")).root_node


def _parameters(text: str) -> list:
    """(parsed text, parameter declaration node) for every parameter declaration in `text`."""
    parsed, root = _parsed(text)
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "parameter_declaration":
            found.append((parsed, node))
        stack.extend(node.named_children)
    return found


def _project_parameters() -> list:
    found = []
    for path in CUDA_FILES:
        found.extend(_parameters(path.read_text(errors="replace")))
    return found


PROJECT = _project_parameters()
EDGES = [found for text in EDGE_PARAMETERS for found in _parameters(f"__global__ void k({text}) {{ }}\n")]


def _from_tree(parsed: str, param):
    """What the tree reads, without the line (the plain reading leaves it to _param_shape)."""
    front._load_name_kinds()
    unit = SimpleNamespace(text=parsed, line_col=lambda offset: (1, 1))
    shape = front._param_shape_from_tree(unit, param)
    return None if shape is None else shape[:5]


def _disagreements(read_plainly, parameters) -> list:
    """The parameters whose plain reading is given and differs from the tree's."""
    wrong = []
    for parsed, param in parameters:
        if param.has_error:
            continue
        plain = read_plainly(parsed[param.start_byte:param.end_byte])
        if plain is not None and plain != _from_tree(parsed, param):
            wrong.append((parsed[param.start_byte:param.end_byte], plain, _from_tree(parsed, param)))
    return wrong


def test_most_project_parameters_are_read_plainly():
    plain = [p for parsed, p in PROJECT if front._plain_param_shape(parsed[p.start_byte:p.end_byte]) is not None]
    assert len(plain) > 1000 and len(PROJECT) > len(plain)


def test_plain_readings_of_project_parameters_are_the_trees():
    assert _disagreements(front._plain_param_shape, PROJECT) == []


def test_plain_readings_of_edge_parameters_are_the_trees():
    assert len(EDGES) >= len(EDGE_PARAMETERS) - 2      # (a text the grammar reads as no parameter at all)
    assert _disagreements(front._plain_param_shape, EDGES) == []


@pytest.mark.parametrize("text", ["unsigned int n", "const float& r", "float a[4]", "Vec<float>* v", "float*",
                                  "float* /* out */ a", "std::size_t m", "struct Point* points"])
def test_texts_beyond_the_plain_form_go_to_the_tree(text):
    assert front._plain_param_shape(text) is None


def test_a_reading_that_drops_the_qualifiers_is_caught():
    def broken(text):
        shape = front._plain_param_shape(text)
        return None if shape is None else shape[:3] + (False, False)

    assert len(_disagreements(broken, PROJECT)) > 100


def test_whole_shapes_keep_the_parameters_line():
    parsed, root = _parsed("__global__ void k(const float* a,\n                  int n) { }\n")
    unit = SimpleNamespace(text=parsed, line_col=lambda offset: (parsed.count("\n", 0, offset) + 1, 1))
    shapes = [front._param_shape(unit, p) for _, p in _parameters(parsed)]
    assert sorted(shapes) == [("a", "float", True, True, False, 1), ("n", "int", False, False, False, 2)]

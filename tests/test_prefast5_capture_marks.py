"""parse._captures walks a tree without errors visiting only the nodes whose text could hold a
capture that _refine keeps (_walked_captures_to_refine): its marks are the keywords of kernels,
device functions, classes, structs, typedefs and instantiations, and a `<` with a `>` after it.
Its refined captures must be those of the walk of every node and of the compiled query, on
every CUDA file of the project, on the pruning cases of test_walked_captures and on random
kernels mixing comparisons, shifts, template ids and launches."""

import random

import pytest

from kernelscope.frontend import parse as front
from test_walked_captures import CUDA_FILES, PRUNING_CASES, found, parsed

# Where a `<` and a `>` meet without a template id, and template ids and launches right after them.
MARK_CASES = [
    "__global__ void k(float* y, int n) { if (n < 4) y[0] = 1; y[1] = n > 2; S<int> s; }",
    "void h(float* y, int n) { for (int i = 0; i < n; i++) { y[i] = i >> 1; } k<<<n, 32>>>(y, n); }",
    "void h(float* y, int n) { int a = n < 2, b = n > 1; f<float>(y); }",
    "int g(int a, int b) { return a < b; }\ntemplate <class T> T m(T a) { return a; }\nint z = m<int>(1);",
    "struct P { int* q; int f() { return q[0] < 1; } }; void h(P* p) { p->q[0] = 1 < 2; }",
    "class C { __device__ int f(int a) { return a < 3 ? Box<int>::v : 0; } };",
]


def _refined(captures: dict) -> dict:
    return found(front._refine(captures))


def _trees():
    sources = PRUNING_CASES + MARK_CASES
    trees = [parsed(path.read_text(encoding="latin-1")) for path in CUDA_FILES]
    return trees + [front._parser().parse(source.encode()) for source in sources]


def _agree(tree) -> dict:
    root = tree.root_node
    marked = _refined(front._walked_captures_to_refine(root))
    assert marked == _refined(front._walked_captures_of_all(root))
    assert marked == _refined(front._query_captures(root))
    return marked


def test_the_marked_walk_finds_the_refined_captures_on_every_file_and_case():
    compared = 0
    for tree in _trees():
        if not tree.root_node.has_error:
            _agree(tree)
            compared += 1
    assert compared > 100


def test_the_mark_cases_parse_without_errors_and_capture_templates_and_launches():
    kinds = set()
    for source in MARK_CASES:
        tree = front._parser().parse(source.encode())
        assert not tree.root_node.has_error, source
        kinds |= set(_agree(tree))
    assert kinds >= {"kernel", "device", "launch", "template_id.name", "template_id.args"}


@pytest.mark.parametrize("left_out", front._REFINED_CAPTURE_MARKS)
def test_a_walk_without_one_of_the_marks_misses_captures(monkeypatch, left_out):
    # each keyword is needed: leaving one out loses a refined capture on the cases
    monkeypatch.setattr(front, "_REFINED_CAPTURE_MARKS", tuple(m for m in front._REFINED_CAPTURE_MARKS if m != left_out))
    trees = [front._parser().parse(source.encode()) for source in PRUNING_CASES + MARK_CASES]
    assert any(_refined(front._walked_captures_to_refine(tree.root_node)) !=
               _refined(front._walked_captures_of_all(tree.root_node)) for tree in trees)


def test_a_walk_that_read_no_close_misses_template_ids_and_launches(monkeypatch):
    # (the `<` pairs are what find them in host code: without the `>` the walk passes them by)
    monkeypatch.setattr(front, "_ANGLE_PAIR", ("<", "\x00"))      # (a `>` the texts never hold)
    trees = [front._parser().parse(source.encode()) for source in MARK_CASES]
    missed = set()
    for tree in trees:
        full = _refined(front._walked_captures_of_all(tree.root_node))
        marked = _refined(front._walked_captures_to_refine(tree.root_node))
        missed |= {name for name in full if marked.get(name) != full[name]}
    assert missed >= {"launch", "template_id.name"}


STATEMENTS = ["y[{i}] = n < {i};", "y[{i}] = n > {i};", "y[{i}] = n >> {i};", "if (n < {i}) {{ y[{i}] = 0; }}",
              "S<int> s{i};", "k<<<{i}, 32>>>(y, n);", "f<float, {i}>(y);", "for (int i = 0; i < n; i++) y[i] = {i};",
              "y[{i}] = (n < 1) + (n > 2);", "struct L{i} {{ int v; }};", "typedef int I{i};", "{{ y[{i}] = 1; }}",
              "auto g{i} = [&](int a) {{ return a < n; }};", "y[{i}] = Box<int>::v > n;"]


def test_the_marked_walk_agrees_on_random_bodies():
    rng = random.Random(5)
    compared = 0
    for _ in range(300):
        body = " ".join(rng.choice(STATEMENTS).format(i=i) for i in range(rng.randint(1, 12)))
        head = rng.choice(["__global__ void k", "void h", "__device__ int d", "template <class T> __global__ void t"])
        tree = front._parser().parse(f"{head}(float* y, int n) {{ {body} }}\n".encode())
        if not tree.root_node.has_error:
            _agree(tree)
            compared += 1
    assert compared > 200

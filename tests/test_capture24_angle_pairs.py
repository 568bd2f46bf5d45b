"""parse._walked_captures_to_refine lets a node in by its `<` only where that `<` could open a
template argument list or a launch (parse._angle_pairs): not `<<` or `<=`, not a `<` whose first
telling character after it is `;`, `)`, `]` or `}` (a comparison), and only with a `>` that could
close it in the node (capture24). Its refined captures must be those of the walk of every node and
of the compiled query on hostile cases: nested template ids closed by `>>` and `>>>`, comparisons
and shifts mixed with template ids, launches of template kernels and inside template arguments,
comments and literals holding `<`, `>`, `;` and brackets, template arguments holding parentheses,
braces, arrows and decrements."""

import random

from kernelscope.frontend import parse as front
from test_prefast5_capture_marks import _refined
from test_walked_captures import PRUNING_CASES

HOSTILE = [
    "void h(float* y, int n) { Box<Box<int>> a; Box<Box<Box<int>>> b; if (n < 2) y[0] = n > 1; }",
    "void h(float* y, int n) { for (int i = 0; i < n; i++) y[i] = Box<int>::v >> 2; k<<<n < 4 ? 1 : 2, 32>>>(y); }",
    "void h(float* y, int n) { k<float><<<Box<int>::v, f<int>(n)>>>(y, n); y[0] = n << 2 < 3; }",
    "void h(float* y, int n) { y[0] = f<(2 > 1)>(n); y[1] = g<sizeof(int)>(n); y[2] = n <= 3 && n >= 1; }",
    "void h(float* y, int n) { S<int{3}> s; y[0] = f<';'>(n); y[1] = g</*;)*/ int>(n); y[2] = q<int // ;\n>(n); }",
    "void h(float* y, int n) { y[0] = f<n-->(n); y[1] = f<n->v>(n); y[2] = n < 1; y[3] = p->v; }",
    "void h(float* y, int n) { /* k<<<1, 2>>>(y) S<int> */ y[0] = n < 3; // f<int>(y) ;\n y[1] = n > 2; }",
    "void h(float* y, int n) { const char* s = \"S<int> ; )\"; y[0] = n < 3 ? Box<int>::v : n > 2; }",
    "void h(float* y, int n) { auto g = [&](int a) { return a < n; }; y[0] = g(1) > 0; S <int> s; S/**/<int> t; }",
    "template <class T, int N = (3 > 2)> struct W { T v[N]; };\nvoid h(float* y) { W<float, 2> w; W<W<int>, 1> x; }",
    "void h(float* y, int n) { y[0] = (n < 2); y[1] = y[n < 3]; { y[2] = n < 4; } y[3] = Box<int>::v; }",
    "__global__ void k(float* y, int n) { if (threadIdx.x < n) y[0] = reinterpret_cast<const float4*>(y)->x; }",
    # keywords inside words, comments and other constructs; two qualifiers on one definition
    "__device__ __global__ void both(float* y) { y[0] = 1; }\nint classify(int subclass) { return subclass; } // class struct typedef template",
    "enum class E { A }; union U { int a; }; typedef struct { int a; } T; struct Q; class R : Box<int> { int v; };",
    # explicit instantiations with and without a qualifier, and template ids in other positions
    "template <class T> __global__ void k(T* y) { y[0] = 0; }\ntemplate __global__ void k<float>(float*);\n"
    "template void k<int>(int*);\nextern template void k<double>(double*);",
    "#include <vector>\nnamespace ns { template <class T> T f(T a) { return a; } }\nstruct O { bool operator<(const O&) const; "
    "template <class T> T g(); };\nvoid h(O o, int n) { n = ns::f<int>(n); n = ns::Box<int>::v; n = o.template g<int>(); }",
]

# statements that put `<` and `>` in every role, for random bodies
PIECES = ["y[{i}] = n < {i};", "y[{i}] = n > {i};", "y[{i}] = n >> {i};", "y[{i}] = n << {i};", "y[{i}] = p->v;",
          "if (n < {i}) y[0] = 1;", "while (n < {i}) n++;", "y[{i}] = y[n < 2];", "Box<Box<int>> b{i};",
          "k<<<{i}, 32>>>(y, n);", "k<float><<<Box<int>::v, {i}>>>(y, n);", "f<float, {i}>(y);",
          "y[{i}] = (n < 1) + (n > 2);", "for (int i = 0; i < n; i++) y[i] = i >= {i};", "{{ y[{i}] = n < 1; }}",
          "y[{i}] = n <= {i} || n >= 1;", "y[{i}] = f<(2 > 1)>(n);", "/* a < b ; */ y[{i}] = n > 1;",
          "// c < d )\n y[{i}] = 1;", "y[{i}] = n < 3 ? Box<int>::v : 1;", "auto g{i} = [&](int a) {{ return a < n; }};",
          "y[{i}] = f<n-->(n);", "S<int{{3}}> s{i};", "y[{i}] = g<';'>(n);"]


def _agree(source: str) -> dict | None:
    tree = front._parser().parse(source.encode())
    root = tree.root_node
    if root.has_error:
        return None
    marked = _refined(front._walked_captures_to_refine(root, source))
    assert marked == _refined(front._walked_captures_of_all(root)), source
    assert marked == _refined(front._query_captures(root)), source
    assert marked == _refined(front._walked_captures_to_refine(root)), source
    return marked


def test_the_hostile_cases_parse_without_errors_and_agree():
    kinds = set()
    for source in HOSTILE:
        marked = _agree(source)
        assert marked is not None, source
        kinds |= set(marked)
    assert kinds >= {"kernel", "launch", "template_id.name", "template_id.args", "struct"}


def test_random_bodies_of_hostile_pieces_agree():
    rng = random.Random(24)
    compared = 0
    for _ in range(300):
        body = " ".join(rng.choice(PIECES).format(i=i) for i in range(rng.randint(1, 10)))
        head = rng.choice(["__global__ void k", "void h", "__device__ int d", "template <class T> __global__ void t"])
        source = f"template <class T> struct Box {{ static const int v = 1; }};\n{head}(float* y, int n, Box<int>* p) {{ {body} }}\n"
        compared += _agree(source) is not None
    assert compared > 200


def test_comparisons_are_not_taken_for_template_openings():
    opens, _ = front._angle_pairs("k < n; (i < 3) y[i < 2] {a < b} x << 2; x <= 1; S<int> k<<<1, 2>>>")
    text = "k < n; (i < 3) y[i < 2] {a < b} x << 2; x <= 1; S<int> k<<<1, 2>>>"
    assert opens == [text.index("<int>"), text.index("<<<")]


def test_an_opening_pairs_with_the_least_later_close():
    text = "f<(a > b)> g<int> q<';'>"
    opens, closes = front._angle_pairs(text)
    assert opens == [1, 12, 19]
    assert closes == [text.index(">"), text.index("<int>") + 4, len(text) - 1]


def test_a_walk_without_angle_pairs_misses_captures(monkeypatch):
    # (the pairs are what find template ids and launches in host code: without them the walk passes
    # them by, so the comparisons above can fail)
    monkeypatch.setattr(front, "_angle_pairs", lambda text: ([], []))
    missed = 0
    for source in HOSTILE + PRUNING_CASES:
        root = front._parser().parse(source.encode()).root_node
        if not root.has_error:
            missed += _refined(front._walked_captures_to_refine(root)) != _refined(front._walked_captures_of_all(root))
    assert missed > 5


def test_the_lookup_and_the_walk_from_the_root_agree_on_every_file_and_case():
    # (the walk serves trees with a top-level node of more than MAX_QUERY_START_DEPTH nodes)
    from test_prefast5_capture_marks import _trees
    compared = 0
    for tree in _trees() + [front._parser().parse(source.encode()) for source in HOSTILE]:
        root = tree.root_node
        if not root.has_error:
            text = root.text.decode("latin-1")
            looked_up = _refined(front._looked_up_captures(root, text))
            assert looked_up == _refined(front._marked_walk(root, text))
            compared += 1
    assert compared > 100


def test_trees_with_a_top_level_node_past_the_depth_bound_are_walked(monkeypatch):
    used = []
    monkeypatch.setattr(front, "_marked_walk", lambda root, text: used.append("walk") or {})
    monkeypatch.setattr(front, "_looked_up_captures", lambda root, text: used.append("lookup") or {})
    front._walked_captures_to_refine(front._parser().parse(b"void h() { int a = 1; }").root_node)
    deep = "int x = " + "(" * 3000 + "1" + ")" * 3000 + ";\nvoid h() { }"
    front._walked_captures_to_refine(front._parser().parse(deep.encode()).root_node)
    assert used == ["lookup", "walk"]


def test_a_lookup_without_the_instantiation_mark_misses_instantiations(monkeypatch):
    monkeypatch.setattr(front, "_INSTANTIATION_MARK", "\x00")
    source = HOSTILE[-2]
    root = front._parser().parse(source.encode()).root_node
    full = _refined(front._walked_captures_of_all(root))
    assert len(full["instance"]) == 3
    # (only the one written with `__global__` is still found, by that keyword)
    assert len(_refined(front._walked_captures_to_refine(root))["instance"]) == 1

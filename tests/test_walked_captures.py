"""The front end finds grammars/cuda.scm's captures either by running the compiled query or by
walking the tree in Python: a tree with errors, in a process that has not compiled the query yet,
by the walk of every node (_walked_captures_of_all); a tree without errors, always, by the walk of
the nodes that could hold a capture _refine keeps (_walked_captures_to_refine). Each must find
what the query finds (refined alike, for the second) on every file: the project's own CUDA files,
token soup, and nesting around the start-depth bound."""

import random
from pathlib import Path

import pytest

from kernelscope.frontend import parse as front
from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.shims import apply_shims
from kernelscope.frontend.source import normalise

ROOT = Path(__file__).resolve().parents[1]
CUDA_FILES = sorted(p for folder in ("tests/kernels", "examples", "corpus") for p in (ROOT / folder).rglob("*")
                    if p.suffix in (".cu", ".cuh") and p.is_file())


def parsed(text: str):
    """The tree parse_file gets for `text` (preprocessed, shimmed, unclosed blocks closed)."""
    expanded = preprocess(normalise(text), None, "sm_90").text
    shimmed, _ = apply_shims(expanded.encode("ascii", "replace").decode("ascii"))
    shimmed += "}" * front._unclosed_braces(shimmed)
    return front._parser().parse(shimmed.encode("ascii"))


def found(raw: dict) -> dict:
    return {name: sorted((n.start_byte, n.end_byte, n.type, n.id) for n in nodes)
            for name, nodes in raw.items() if nodes}


def refined(raw: dict) -> dict:
    return found(front._refine(raw))


def assert_same_captures(tree) -> None:
    """What the query captures is what the walk of every node captures, and, in a tree without
    errors, what the marked walk does after _refine."""
    root = tree.root_node
    queried = front._query_captures(root)
    assert found(front._walked_captures_of_all(root)) == found(queried)
    if not root.has_error:
        assert refined(front._walked_captures_to_refine(root)) == refined(queried)


def test_the_project_has_cuda_files_to_compare_on():
    assert len(CUDA_FILES) > 100


@pytest.mark.parametrize("path", CUDA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_walk_and_query_find_the_same_nodes_in_each_file(path):
    assert_same_captures(parsed(path.read_text(encoding="latin-1")))


TOKENS = ["__global__", "__device__", "void", "int", "float", "k", "(", ")", "{", "}", ";", "<<<", ">>>", "<", ">",
          "template", "typename", "T", "struct", "class", "typedef", "S", "=", "+", "x", "[", "]", ",", "0", "1",
          "namespace", "extern", '"C"', "\n", "#define", "A", "::", "std", "vector", "return", "if", "for", "union"]


def test_walk_and_query_agree_on_token_soup():
    # broken input puts ERROR and MISSING nodes everywhere, also a missing token at byte 0, which
    # the query cursor skips (it ends where the cursor's range starts)
    rng = random.Random(2026)
    for _ in range(1500):
        source = " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 60)))
        assert_same_captures(front._parser().parse(source.encode()))


@pytest.mark.parametrize("nesting", [front.MAX_QUERY_START_DEPTH - 4, front.MAX_QUERY_START_DEPTH,
                                     front.MAX_QUERY_START_DEPTH + 4])
def test_walk_and_query_agree_around_the_start_depth_bound(nesting):
    deep = "(" * nesting + "S<int>(x" + ")" * nesting
    for source in (f"__global__ void k() {{ int y = {deep}; f<<<1, 1>>>(); }}", f"int a = {deep};"):
        assert_same_captures(front._parser().parse(source.encode()))


def test_a_process_walks_trees_with_errors_until_its_budget_is_spent_then_compiles_the_query(monkeypatch):
    tree = front._parser().parse(b"__global__ void k(float* y) { y[threadIdx.x] = 1.0f }\n")
    assert tree.root_node.has_error
    used = []
    monkeypatch.setattr(front, "_walked_captures_of_all", lambda root: used.append("walk") or {})
    monkeypatch.setattr(front, "_query_captures", lambda root: used.append("query") or {})
    monkeypatch.setattr(front._query, "cache_info", lambda: type("Info", (), {"currsize": 0})())
    monkeypatch.setattr(front, "_walked_bytes", front.WALK_BUDGET_BYTES - 2 * tree.root_node.end_byte)
    for _ in range(3):
        front._captures(tree.root_node)
    assert used == ["walk", "walk", "query"]


def test_trees_without_errors_are_always_walked(monkeypatch):
    # the pruned walk costs a fraction of the query's run, compiled or not, whatever the budget says
    tree = front._parser().parse(b"__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }\n")
    used = []
    monkeypatch.setattr(front, "_walked_captures_to_refine", lambda root, text: used.append("walk") or {})
    monkeypatch.setattr(front, "_query_captures", lambda root: used.append("query") or {})
    monkeypatch.setattr(front, "_walked_bytes", front.WALK_BUDGET_BYTES)
    front._query()
    for _ in range(2):
        front._captures(tree.root_node)
    assert used == ["walk", "walk"]


# Every kind of capture where a walk that passes by the nodes without a capture mark could miss
# it: members without a body (`= default`, `= delete`), local classes and structs, a function
# nested in a block, template ids and launches deep in expressions and lambdas, typedefs and
# explicit instantiations in odd places, text before the tree's first node.
PRUNING_CASES = [
    "struct S { S() = default; S(const S&) = delete; int f() const; virtual void g() = 0; };",
    "class C { public: C() = default; ~C() = delete; operator int() = default; };",
    "  \n\n  template <typename T> __global__ void k(T* p) { p[0] = T(); }\n"
    "template __global__ void k<float>(float*);\ntemplate void h(float);",
    "__global__ void k(float* y) { struct L { __device__ int m() { return 1; } }; class M { int n; }; "
    "typedef int I; I i = 0; int q() { return 2; } y[i] = 0; }",
    "void host(float* y) { auto f = [&](int n) { k<<<n, 32>>>(y); }; f(1); "
    "int v = reduce<float, 4>(y) + (int)(sizeof(Vec<int>) * 2); k<<<1, 1, 0>>>(y); }",
    "namespace a { extern \"C\" { __device__ float h(float x) { return x; } } }\n"
    "typedef struct { int a; } T; using U = Box<T>; struct D : Base<int> { D(); };",
]


def test_the_marked_walk_finds_what_the_walk_of_every_node_and_the_query_find():
    # on the pruning cases too: each capture there lies under nodes the marked walk must not pass by
    trees = [parsed(path.read_text(encoding="latin-1")) for path in CUDA_FILES] + \
        [front._parser().parse(source.encode()) for source in PRUNING_CASES]
    compared = 0
    for tree in trees:
        if tree.root_node.has_error:
            continue
        compared += 1
        marked = refined(front._walked_captures_to_refine(tree.root_node))
        assert marked == refined(front._walked_captures_of_all(tree.root_node))
        assert marked == refined(front._query_captures(tree.root_node))
    assert compared > 100


def test_the_pruning_cases_have_every_capture_and_no_errors():
    kinds, kept = set(), set()
    for source in PRUNING_CASES:
        tree = front._parser().parse(source.encode())
        assert not tree.root_node.has_error, source
        kinds |= set(found(front._query_captures(tree.root_node)))
        kept |= set(refined(front._walked_captures_to_refine(tree.root_node)))
    assert kinds >= {"function", "launch", "instance", "template_id.name", "template_id.args", "class.name",
                     "class", "struct", "typedef"}
    assert kept >= {"kernel", "device", "launch", "instance", "template_id.name", "template_id.args", "class.name",
                    "class", "struct", "typedef"}


def test_a_walk_that_passes_every_node_by_misses_the_pruning_cases_captures(monkeypatch):
    # (the comparisons above can fail: a walk that finds no mark anywhere finds nothing)
    monkeypatch.setattr(front, "_mark_offsets", lambda text, marks: [])
    monkeypatch.setattr(front, "_ANGLE_PAIR", ("\x00", "\x00"))    # (a `<` the texts never hold)
    for source in PRUNING_CASES:
        tree = front._parser().parse(source.encode())
        assert refined(front._walked_captures_to_refine(tree.root_node)) != \
            refined(front._walked_captures_of_all(tree.root_node)), source


def test_the_marked_walk_finds_what_the_walk_of_every_node_finds_near_the_depth_bound():
    # a template id nested this deep starts around the depth bound: found at the first nestings,
    # not at the last (see test_walk_and_query_agree_on_clean_trees_around_the_start_depth_bound);
    # the marked walk, which visits named nodes only, must count depth as the walk of every node does
    found_at = set()
    for n in range(front.MAX_QUERY_START_DEPTH - 12, front.MAX_QUERY_START_DEPTH - 1):
        tree = front._parser().parse(f"int a = {'(' * n}S<int>(x){')' * n};".encode())
        assert not tree.root_node.has_error
        marked = refined(front._walked_captures_to_refine(tree.root_node))
        assert marked == refined(front._walked_captures_of_all(tree.root_node))
        found_at.add(bool(marked))
    assert found_at == {True, False}


def test_walk_and_query_agree_on_clean_trees_around_the_start_depth_bound():
    bound = front.MAX_QUERY_START_DEPTH
    kinds = set()
    for n in range(bound - 12, bound - 1):
        tree = front._parser().parse(f"int a = {'(' * n}S<int>(x){')' * n};".encode())
        assert not tree.root_node.has_error
        assert_same_captures(tree)
        kinds.add(bool(front._query_captures(tree.root_node)))
    assert kinds == {True, False}            # the range straddles the bound

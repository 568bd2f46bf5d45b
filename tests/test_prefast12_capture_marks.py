"""parse._walked_captures_to_refine tests a node's `<` pair by two searches of its text (the first
`<` from the node's start, then a `>` after it before the node's end) instead of bisecting a list
of every `<`'s offset with each one's next `>` (prefast12). The walk must visit the same nodes and
find the same raw captures, in the same order, as that walk (kept here as the reference) on every
CUDA file of the project, the marking and pruning cases and random bodies of comparisons, shifts,
arrows, template ids and launches. (Since capture24 the raw captures may differ in functions that
_refine drops; the refined ones are compared.)"""

import bisect
import random

from kernelscope.frontend import parse as front
from test_prefast5_capture_marks import MARK_CASES, _trees
from test_walked_captures import PRUNING_CASES, parsed


def _reference_walk(root, text: str | None = None) -> dict:
    """_walked_captures_to_refine as it was before prefast12: the `<` offsets bisected."""
    found: dict = {}
    kinds = front._walked_kind_ids()
    if text is None:
        text = " " * root.start_byte + root.text.decode("latin-1")
    words = front._mark_offsets(text, front._REFINED_CAPTURE_MARKS)
    opens = front._mark_offsets(text, ("<",))
    closes = []
    for offset in opens:
        position = text.find(">", offset + 1)
        closes.append(position if position >= 0 else len(text))
    levels = [iter((root,))]
    while levels:
        for node in levels[-1]:
            if node.end_byte == 0 or node.child_count == 0:
                continue
            start, end = node.start_byte, node.end_byte
            index = bisect.bisect_left(words, start)
            if index == len(words) or words[index] >= end:
                index = bisect.bisect_left(opens, start)
                if index == len(opens) or closes[index] >= end:
                    continue
            if node.kind_id in kinds:
                front._walked_match(node, node.type, found)
            if len(levels) <= front.MAX_QUERY_START_DEPTH:
                children = node.named_children
                if children:
                    levels.append(iter(children))
                    break
        else:
            levels.pop()
    return found


def _raw(captures: dict) -> dict:
    return {name: [(n.start_byte, n.end_byte, n.type, n.id) for n in nodes] for name, nodes in captures.items()}


def _same_walk(tree, text: str | None = None) -> dict:
    # (since capture24 the walk passes by functions that hold no mark and only comparisons, which
    # _refine drops: the raw captures may differ there, the refined ones may not)
    root = tree.root_node
    walked = _raw(front._walked_captures_to_refine(root, text))
    assert _raw(front._refine(front._walked_captures_to_refine(root, text), text)) == \
        _raw(front._refine(_reference_walk(root, text), text))
    return walked


def test_the_searched_pairs_walk_as_the_bisected_ones_on_every_file_and_case():
    compared = 0
    kinds = set()
    for tree in _trees():
        if not tree.root_node.has_error:
            kinds |= set(_same_walk(tree))
            compared += 1
    assert compared > 100
    assert kinds >= {"function", "launch", "template_id.name", "template_id.args", "struct", "typedef"}


# statements that put a `<`, a `>` or both in a node in every order, with and without template ids
PIECES = ["y[{i}] = n < {i};", "y[{i}] = n > {i};", "y[{i}] = n >> {i};", "y[{i}] = p->v;", "if (n < {i}) y[0] = 1;",
          "S<int> s{i};", "k<<<{i}, 32>>>(y, n);", "f<float, {i}>(y);", "y[{i}] = (n < 1) + (n > 2);",
          "for (int i = 0; i < n; i++) y[i] = i > {i};", "{{ y[{i}] = n < 1; }}", "{{ y[{i}] = n > 1; }}",
          "y[{i}] = Box<int>::v > n;", "y[{i}] = n <= {i} || n >= 1;", "auto g{i} = [&](int a) {{ return a < n; }};"]


def test_the_searched_pairs_walk_as_the_bisected_ones_on_random_bodies():
    rng = random.Random(12)
    compared = 0
    for case in range(150):
        body = " ".join(rng.choice(PIECES).format(i=i) for i in range(rng.randint(1, 8)))
        head = rng.choice(["__global__ void k", "void h", "__device__ int d", "static void s"])
        source = f"template <class T> struct S {{ T v; }};\nstruct P {{ int v; }};\n{head}(float* y, int n, P* p) {{ {body} }}\n"
        tree = front._parser().parse(source.encode())
        if not tree.root_node.has_error:
            _same_walk(tree, source)
            _same_walk(tree)
            compared += 1
    assert compared > 75


def test_the_comparison_fails_when_the_pair_is_not_searched(monkeypatch):
    # (the reference reads `<` and `>` itself: without a `>` to find, the walk passes template ids by)
    monkeypatch.setattr(front, "_ANGLE_PAIR", ("<", "\x00"))
    differ = 0
    for source in PRUNING_CASES + MARK_CASES:
        root = parsed(source).root_node
        differ += _raw(front._walked_captures_to_refine(root)) != _raw(_reference_walk(root))
    assert differ > 0

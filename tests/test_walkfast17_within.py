"""walkfast17: AssignmentIndex.within reads a range inside the last one searched (a nested loop,
a loop's body) from the assignments found there; it must give what a search of the range itself
gives (a fresh index), for the loops and bodies of the project's CUDA files asked in walk order
and for ranges where runs of `+` or `-` cross the range's start."""

from pathlib import Path

from kernelscope.frontend.body import AssignmentIndex
from kernelscope.frontend.nodes import FIELD
from kernelscope.frontend.parse import _parser

ROOT = Path(__file__).resolve().parents[1]
_LOOPS = ("for_statement", "while_statement", "do_statement")


def _parsed(text: str):
    source = text.encode("ascii", "replace").decode("ascii")
    return source, _parser().parse(source.encode("ascii")).root_node


def _pre_order(root):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _asked(root):
    """The loops and their bodies, in the order a walk asks about them (a loop, then its body's loops)."""
    for node in _pre_order(root):
        if node.type in _LOOPS and not node.has_error:
            yield node
            body = node.child_by_field_id(FIELD.body)
            if body is not None and not body.has_error:
                yield body


def _plain(assignments):
    return [(name, (value.start_byte, value.end_byte) if value is not None else None) for name, value in assignments]


def _check(source, root):
    shared = AssignmentIndex(source)
    asked = 0
    for node in _asked(root):
        assert _plain(shared.within(node)) == _plain(AssignmentIndex(source).within(node)), node.text
        asked += 1
    return asked


def test_project_loops_in_walk_order():
    files = sorted(ROOT.glob("corpus/**/*.cu")) + sorted(ROOT.glob("examples/**/*.cu"))
    asked = 0
    for path in files:
        asked += _check(*_parsed(path.read_text(errors="replace")))
    assert asked > 500


def test_runs_of_plus_and_minus_at_a_nested_loop():
    # `k+++i`: the inner loop's body `++i;` starts inside the run `+++` (the outer search pairs
    # `++` at the run's start, a search of the body alone at its own)
    source, root = _parsed("""
    __global__ void f(int* a, int n) {
        int i = 0, k = 0, s = 0;
        for (int j = 0; j < n; j++) {
            while (i < n) k+++i;
            for (; s < n; s += 2) --k;
            do { a[j] -= --i; i--; } while (i > 0);
        }
    }
    """)
    assert _check(source, root) >= 6


def test_a_loop_outside_the_last_range_is_searched():
    source, root = _parsed("__global__ void f(int n) { int i, j; for (i = 0; i < n; i++) {} "
                           "for (j = 0; j < n; j += 2) {} }")
    index = AssignmentIndex(source)
    first, second = [node for node in _pre_order(root) if node.type == "for_statement"]
    assert _plain(index.within(first)) == [("i", (first.start_byte + 9, first.start_byte + 10)), ("i", None)]
    assert [name for name, _ in index.within(second)] == ["j", "j"]


class _Range:
    """A node's stand-in over any range of the text (named descendants found from the root)."""

    def __init__(self, root, start, end):
        self.root, self.start_byte, self.end_byte = root, start, end

    def named_descendant_for_byte_range(self, start, end):
        return self.root.named_descendant_for_byte_range(start, end)


def test_every_range_inside_a_searched_one():
    source, root = _parsed("void f(int i, int k) { k+++i; k---i; i += k++; k = --i + ++k; i==k; }")
    body = next(node for node in _pre_order(root) if node.type == "compound_statement")
    shared = AssignmentIndex(source)
    compared = 0
    for start in range(body.start_byte, body.end_byte + 1):
        for end in range(start, body.end_byte + 1):
            shared.within(body)         # (the range searched last)
            inner = _Range(root, start, end)
            assert _plain(shared.within(inner)) == _plain(AssignmentIndex(source).within(inner)), (start, end)
            compared += 1
    assert compared > 1000

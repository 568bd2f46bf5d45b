"""What a loop assigns, as the walker reads it before walking the loop (variables assigned in it
become named unknowns): found from the operators in the loop's text (AssignmentIndex), it must be
what a walk over every node of the loop's tree finds, on every CUDA file the project has, and must
not take comparisons, declarations, comments or member stores for assignments."""

from pathlib import Path

import pytest

from kernelscope.frontend import body
from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.parse import FileUnit, _parser
from kernelscope.frontend.shims import apply_shims
from kernelscope.frontend.source import normalise

ROOT = Path(__file__).resolve().parent.parent
LOOPS = ("for_statement", "while_statement", "do_statement")


class _Walk:
    """What _loop_assignments reads of a Walker."""

    def __init__(self, unit):
        self.unit, self._source, self._assignments = unit, unit.text, {}


def _unit(source: str):
    pre = preprocess(normalise(source))
    text, _ = apply_shims(pre.text.encode("ascii", "replace").decode("ascii"))
    return FileUnit(pre, text), _parser().parse(text.encode("ascii")).root_node


def _loops(root):
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in LOOPS:
            yield node
            body_node = node.child_by_field_id(body.FIELD.body)
            if body_node is not None:
                yield body_node
        stack.extend(node.children)


def _as_identifiers(found: dict, source: str) -> dict:
    return {name: {i for value in values for i in body._identifiers(value, source)} for name, values in found.items()}


def _read(source: str) -> list[dict]:
    unit, root = _unit(source)
    walk = _Walk(unit)
    return [_as_identifiers(body._loop_assignments(loop, walk), unit.text) for loop in _loops(root)
            if loop.type in LOOPS]


def _cuda_files():
    for folder in ("examples", "corpus", "tests/kernels"):
        yield from sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".cu", ".cuh"))


def test_the_text_finds_what_a_walk_over_the_tree_finds_on_every_file():
    loops = 0
    for path in _cuda_files():
        unit, root = _unit(path.read_text(errors="replace"))
        walk = _Walk(unit)
        for loop in _loops(root):
            if loop.has_error:
                continue
            found = _as_identifiers(body._loop_assignments(loop, walk), unit.text)
            assert found == _as_identifiers(body._assignments_in_tree(loop, unit.text), unit.text), \
                f"{path}:{loop.start_point}"
            loops += 1
    assert loops > 500


def test_every_assignment_operator_and_update_is_found():
    source = """__global__ void k(int* a, int n) {
    int s = 0, t = 1, u = 2, w = 3, x = 4, y = 5, z = 6, q = 7, m = 8, c = 9;
    for (int i = 0; i < n; i++) {
        s += i; t -= n; u *= 2; w /= 3; x %= 5; y <<= 1; z >>= 1; q &= 7; m |= 1; c ^= s;
        --n;
    }
}"""
    (found,) = _read(source)
    assert found == {"s": {"i"}, "t": {"n"}, "u": set(), "w": set(), "x": set(), "y": set(), "z": set(),
                     "q": set(), "m": set(), "c": {"s"}, "n": set(), "i": set()}


def test_comparisons_declarations_comments_and_member_stores_are_not_assignments():
    source = """__global__ void k(float* a, int n) {
    int e = 0; float2 v;
    while (e <= n) {   // e = e + 1 ; e++ in a comment
        int fresh = e == n;
        bool b = e != n || e >= 2 || (e << 2) > n;
        v.x = 1.0f; a[e] = 2.0f;
        const char* text = "e += 1";
        if (b) break;
    }
}"""
    (found,) = _read(source)
    assert found == {}


def test_assignments_inside_nested_loops_count_for_the_outer_loop_too():
    source = """__global__ void k(int* a, int n) {
    int s = 0, r = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) s = s + a[j] * r;
        r = i;
    }
}"""
    outer, inner = _read(source)
    assert inner == {"j": set(), "s": {"s", "a", "j", "r"}}
    assert outer == {"i": set(), "j": set(), "s": {"s", "a", "j", "r"}, "r": {"i"}}


@pytest.mark.parametrize("thread_dependent", [True, False])
def test_a_variable_updated_with_a_thread_dependent_value_varies(thread_dependent):
    """What the assignments are read for: a variable the loop updates from threadIdx is a
    thread-dependent unknown inside the loop, one updated from a uniform value is not."""
    from kernelscope.frontend.parse import parse_file

    value = "threadIdx.x" if thread_dependent else "blockIdx.x"
    source = f"""__global__ void k(float* a, int n) {{
    int o = 0;
    for (int i = 0; i < n; i++) {{
        a[o] = 1.0f;
        o = o + {value};
    }}
}}"""
    (kernel,) = parse_file(source).kernels
    assert kernel.accesses[0].address.thread_dependent is thread_dependent

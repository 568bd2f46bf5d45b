"""Walker._binary_parts reads two more kinds of operand without _operand's call: `(a + b)`, whose
binary expression it asks for its parts at the depth _operand's two calls would give (depth + 2),
and a builtin index such as `threadIdx.x` not shadowed by a variable. The model must be what
_operand's path builds (the kind sets _PARENTHESIZED_BINARIES and _LEAF_FIELDS emptied) on every
CUDA file of the project and on expressions nested around MAX_EXPRESSION_DEPTH, where the depth
decides what is read; shortcuts broken on purpose are caught."""

import pytest

from kernelscope.frontend import body
from test_walker_fast_paths import CUDA_FILES, digest, digests, kind_sets_emptied

_SHORTCUTS = ("_PARENTHESIZED_BINARIES", "_LEAF_FIELDS")
_general = kind_sets_emptied(*_SHORTCUTS)


def _operand_kinds(monkeypatch, paths, general: bool) -> dict:
    """How often _operand is called from _binary_parts, by the operand's node type."""
    seen: dict = {}
    operand = body.Walker._operand

    def counting(walker, node, depth):
        seen[node.type] = seen.get(node.type, 0) + 1
        return operand(walker, node, depth)
    body._load_kind_tables()
    with monkeypatch.context() as patched:
        if general:
            _general(patched)
        patched.setattr(body.Walker, "_operand", counting)
        for path in paths:
            digest(path)
    return seen


def test_the_shortcuts_are_taken(monkeypatch):
    paths = CUDA_FILES[:120]
    fast = _operand_kinds(monkeypatch, paths, general=False)
    general = _operand_kinds(monkeypatch, paths, general=True)
    assert general.get("parenthesized_expression", 0) > fast.get("parenthesized_expression", 0) + 20
    assert general.get("field_expression", 0) > fast.get("field_expression", 0) + 20


def test_operands_read_alone_are_what_operand_builds_on_every_file(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES, _general) == []


def _nested(levels: int) -> str:
    """A kernel with an expression of `levels` parenthesized binaries, each the operand of the next,
    and builtin indices as operands (shadowed by a variable in a helper)."""
    expression = "x"
    for level in range(levels):
        expression = f"({expression} + {level}.5f) * threadIdx.x" if level % 2 else f"blockIdx.y - ({expression} * 2.0f)"
    return ("__device__ float shadowed(float x) { int threadIdx = 3; return (x * 2.0f) + threadIdx.x; }\n"
            "__global__ void k(float *out, float x) {\n"
            f"    out[threadIdx.x] = {expression} + shadowed(x);\n}}\n")


@pytest.fixture(scope="module")
def nested_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nested")
    paths = []
    for levels in range(44, 58):
        path = folder / f"nested{levels}.cu"
        path.write_text(_nested(levels))
        paths.append(path)
    return paths


def test_nested_expressions_are_read_as_operand_reads_them(monkeypatch, nested_files):
    too_deep = [p.name for p in nested_files if "nests too deeply" in repr(digest(p))]
    assert 0 < len(too_deep) < len(nested_files)     # (the depth limit falls inside the range)
    assert digests(monkeypatch, nested_files, _general) == []


def _one_level_shallower(monkeypatch):
    """A parenthesized binary read at depth + 1, not + 2."""
    binary_parts = body.Walker._binary_parts

    def shallower(walker, node, depth):
        parent = node.parent
        if parent is not None and parent.type == "parenthesized_expression":
            depth -= 1
        return binary_parts(walker, node, depth)
    monkeypatch.setattr(body.Walker, "_binary_parts", shallower)


def _wrong_builtin(monkeypatch):
    monkeypatch.setattr(body, "_BUILTIN_FIELDS", dict(body._BUILTIN_FIELDS, **{"threadIdx.x": ("threadIdx", "threadIdx.y")}))


def _shadow_ignored(monkeypatch):
    """A builtin read even where a variable shadows its base."""
    monkeypatch.setattr(body, "_BUILTIN_FIELDS", {k: ("", v[1]) for k, v in body._BUILTIN_FIELDS.items()})


@pytest.mark.parametrize("broken", [_one_level_shallower, _wrong_builtin, _shadow_ignored])
def test_a_broken_shortcut_is_caught(monkeypatch, nested_files, broken):
    assert digests(monkeypatch, nested_files, _general, broken) != []

"""The walker reads its commonest nodes by shortcuts (binary operators over names and numbers,
`threadIdx.x` and the like) that skip the general dispatch. They must build what the general path
builds: the same expression nodes, shared the same way, in every record of every kernel, on every
CUDA file of the project. A digest of the parsed model that names each expression node by the
order it is first met (so that sharing, not only structure, has to agree) is compared between the
two; each shortcut broken on purpose must make some file's digest differ."""

import dataclasses
import re
from pathlib import Path

import pytest

from kernelscope import symbolic as sx
from kernelscope.errors import InputError
from kernelscope.frontend import body
from kernelscope.frontend.parse import parse_file

ROOT = Path(__file__).resolve().parents[1]
CUDA_FILES = sorted(p for folder in ("tests", "examples", "corpus") for p in (ROOT / folder).rglob("*")
                    if p.suffix in (".cu", ".cuh") and p.is_file())


class _Digest:
    """A model as nested tuples: expression nodes by first-met index, records likewise."""

    def __init__(self):
        self.seen: dict = {}        # id(object) -> index
        self.nodes: list = []       # one entry per distinct expression node, in first-met order
        self.keep: list = []        # (keeps the objects alive, so ids are not reused)

    def expr(self, root) -> int:
        stack = [root]
        while stack:
            node = stack[-1]
            if id(node) in self.seen:
                stack.pop()
                continue
            pending = [c for c in node.children() if id(c) not in self.seen]
            if pending:
                stack.extend(reversed(pending))
                continue
            stack.pop()
            self.seen[id(node)] = self._name((type(node).__name__, _own(node),
                                              tuple(self.seen[id(c)] for c in node.children())))
            self.keep.append(node)
        return self.seen[id(root)]

    def _name(self, structure: tuple) -> int:
        """The index of a node not met before: the next one, so that sharing must agree too."""
        self.nodes.append(structure)
        return len(self.nodes) - 1

    def value(self, value):
        if isinstance(value, sx.Expr):
            return ("expr", self.expr(value))
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self._record(value)
        if isinstance(value, (list, tuple)):
            return tuple(self.value(v) for v in value)
        if isinstance(value, (set, frozenset)):
            return ("set",) + tuple(sorted(map(repr, value)))
        if isinstance(value, dict):
            return ("dict",) + tuple((repr(k), self.value(v)) for k, v in value.items())
        return repr(value)

    def _record(self, value) -> tuple:
        if id(value) in self.seen:
            return ("record", self.seen[id(value)])
        self.seen[id(value)] = len(self.seen)
        self.keep.append(value)
        return (type(value).__name__,) + tuple(self.value(getattr(value, f.name)) for f in dataclasses.fields(value)
                                               if f.name != "text")


def _own(node) -> tuple:
    if isinstance(node, sx.Const):
        return type(node.value).__name__, repr(node.value)
    if isinstance(node, sx.Sym):
        return node.name, node.varying
    if isinstance(node, sx.AtomicResult):
        return node.key, node.text
    if isinstance(node, sx.Opaque):
        return node.text, node.thread_varying
    if isinstance(node, sx.Load):
        return (node.array,)
    return (getattr(node, "op", None) or getattr(node, "name", None),)


def digest(path: Path):
    try:
        model = parse_file(path.read_text(errors="replace"), str(path))
    except InputError as exc:
        return ("error", str(exc))
    found = _Digest()
    records = found.value(model)
    return records, found.nodes


def _general_path(monkeypatch):
    """Every expression through `expression` and the handlers of the general path."""
    monkeypatch.setitem(body._EXPRESSION_HANDLERS, "binary_expression",
                        lambda walker, node, depth, whole_struct=False: walker._binary_general(node, depth))
    # (the walk dispatches by node kind id: the same table by id)
    monkeypatch.setattr(body, "_EXPRESSION_BY_KIND", body.kind_table(body._EXPRESSION_HANDLERS))
    monkeypatch.setattr(body, "_BUILTIN_FIELDS", {})


def digests(monkeypatch, paths, general_path=_general_path, fast_patch=None, read=digest) -> list:
    """Names of the files whose model, as `read` writes it, differs between the fast path (with
    `fast_patch` applied, to try a broken variant) and the general one (`general_path` applied)."""
    body._load_kind_tables()    # (filled now, so that a kind set a patch empties is not filled by a first walk)
    with monkeypatch.context() as patched:
        if fast_patch is not None:
            fast_patch(patched)
        fast = [read(p) for p in paths]
    with monkeypatch.context() as patched:
        general_path(patched)
        general = [read(p) for p in paths]
    return [p.name for p, a, b in zip(paths, fast, general) if a != b]


def kind_sets_emptied(*names):
    """A general path for `digests`: body's kind sets `names` emptied, so that the shortcuts they
    switch on are never taken."""
    def general_path(monkeypatch):
        for name in names:
            monkeypatch.setattr(body, name, frozenset())
    return general_path


def test_the_project_has_cuda_files_to_compare_on():
    assert len(CUDA_FILES) > 300


def test_shortcuts_build_what_the_general_path_builds(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES) == []


# A shortcut broken on purpose, and what it breaks.
_BROKEN = {
    # folding skipped: `2 * 4` would stay a Binary
    "no folding": lambda m: m.setattr(body, "_FOLDLESS", body._FOLDLESS | {sx.Const}),
    # a number read with the wrong type (by _operand: _binary_parts reads the numbers read before
    # itself, which tests/test_walkfast12_leaf_operands.py breaks)
    "number type": lambda m: (body._load_kind_tables(), m.setattr(body, "_LEAF_NUMBERS", frozenset()),
                              m.setattr(body, "_number_parts", lambda text: (body._number(text).expr, "double"))),
    # a builtin index read as another
    "builtin name": lambda m: m.setattr(body, "_BUILTIN_FIELDS",
                                        {**body._BUILTIN_FIELDS, "threadIdx.x": ("threadIdx", "threadIdx.y")}),
}


@pytest.mark.parametrize("broken", sorted(_BROKEN))
def test_a_broken_shortcut_is_found(monkeypatch, broken):
    paths = [ROOT / "examples" / name for name in sorted(p.name for p in (ROOT / "examples").glob("*.cu"))]
    paths += CUDA_FILES[:40]
    with monkeypatch.context() as patched:
        _BROKEN[broken](patched)
        fast = [digest(p) for p in paths]
    with monkeypatch.context() as patched:
        _general_path(patched)
        general = [digest(p) for p in paths]
    assert any(a != b for a, b in zip(fast, general))


def _parent_chains(paths, ancestors_of):
    """(by Node.parent, by ancestors_of) for every kernel, helper, launch, struct and class of the files."""
    from kernelscope.frontend import parse as front
    from kernelscope.frontend.macros import preprocess
    from kernelscope.frontend.shims import apply_shims
    from kernelscope.frontend.source import normalise
    pairs = []
    for path in paths:
        expanded = preprocess(normalise(path.read_text(errors="replace")), None, "sm_90").text
        shimmed, _ = apply_shims(expanded.encode("ascii", "replace").decode("ascii"))
        shimmed += "}" * front._unclosed_braces(shimmed)
        root = front._parser().parse(shimmed.encode("ascii")).root_node
        captures = front._captures(root)
        for node in [n for name in ("kernel", "device", "launch", "struct", "class") for n in captures.get(name, [])]:
            chain, parent = [], node.parent
            while parent is not None:
                chain.append(parent.id)
                parent = parent.parent
            pairs.append((chain, [n.id for n in ancestors_of(root, node)] + [root.id]))
    return pairs


def test_ancestors_are_the_parent_chain():
    from kernelscope.frontend.nodes import ancestors
    pairs = _parent_chains(CUDA_FILES, ancestors)
    assert len(pairs) > 500 and all(by_parent == found for by_parent, found in pairs)


def test_an_ancestor_search_that_stops_short_is_caught():
    from kernelscope.frontend.nodes import ancestors
    pairs = _parent_chains(CUDA_FILES[:80], lambda root, node: ancestors(root, node)[:-1])
    assert any(by_parent != found for by_parent, found in pairs)


def _one_declaration(scope, name: str, nested: bool):
    """A search for `name` alone: the first declaration of it in `scope`, depth first in source
    order (at file scope, outside functions and classes), as template_types.ScopeDeclarations reads
    every name's."""
    from kernelscope.frontend.ctypes import normalise_type
    from kernelscope.frontend.nodes import FIELD, leaf_name, node_text
    from kernelscope.frontend.template_types import _DECLARATIONS, _FILE_LEVEL
    stack = list(reversed(scope.children))
    while stack:
        node = stack.pop()
        if node.type in _DECLARATIONS:
            type_node = node.child_by_field_id(FIELD.type)
            for declarator in node.children_by_field_id(FIELD.declarator):
                if type_node is not None and leaf_name(declarator) == name:
                    written = node_text(declarator)
                    return normalise_type(node_text(type_node)) + "*" * (written.split(name)[0].count("*") +
                                                                         written.count("["))
        if nested or node.type in _FILE_LEVEL:
            stack.extend(reversed(node.children))
    return None


def _declaration_disagreements(declarations, paths) -> int:
    from kernelscope.frontend import parse as front
    compared = disagreements = 0
    for path in paths:
        text = path.read_text(errors="replace")
        root = front._parser().parse(text.encode("ascii", "replace")).root_node
        names = sorted(set(re.findall(r"\b[A-Za-z_]\w*\b", text)))
        functions, stack = [], [root]
        while stack:
            node = stack.pop()
            if node.type == "function_definition":
                functions.append(node)
            stack.extend(node.children)
        scopes = [(root, False)] + [(n, True) for n in functions]
        for scope, nested in scopes:
            found = declarations(scope, nested)
            for name in names:
                compared += 1
                disagreements += found.get(name) != _one_declaration(scope, name, nested)
    assert compared > 10000
    return disagreements


def _declarations(scope, nested: bool) -> dict:
    from kernelscope.frontend.template_types import ScopeDeclarations
    return ScopeDeclarations(scope, nested).every_type()


def test_every_declaration_is_read_as_a_search_for_it_alone_finds_it():
    assert _declaration_disagreements(_declarations, CUDA_FILES[::4]) == 0


def test_declarations_read_with_the_wrong_scope_rules_are_caught():
    assert _declaration_disagreements(lambda scope, nested: _declarations(scope, not nested), CUDA_FILES[::4]) > 0


def _directive_lines_by_pattern(text: str, pattern: str = r"^[^\S\n]*#") -> list:
    """The directive lines as a pattern anchored at line starts finds them."""
    found, end = [], 0
    for match in re.finditer(pattern, text, re.MULTILINE):
        start = match.start()
        if start < end:
            continue
        newline = text.find("\n", start)
        while newline > 0 and text[newline - 1] == "\\":
            newline = text.find("\n", newline + 1)
        end = len(text) if newline == -1 else newline + 1
        found.append((start, end))
    return found


def _directive_texts() -> list:
    import random
    generator = random.Random(22)
    pieces = ["#", "# define X 1", "  #if A", "\t#", "x # y", "\\\n", "\n", " ", "\x0b", "\x1c", "a", "##", "//#"]
    soups = ["".join(generator.choice(pieces) for _ in range(generator.randrange(1, 40))) for _ in range(3000)]
    return soups + [p.read_text(errors="replace") for p in CUDA_FILES]


def test_directive_lines_are_the_lines_a_pattern_anchored_at_line_starts_finds():
    from kernelscope.frontend.macros import _directive_lines
    assert [t for t in _directive_texts() if list(_directive_lines(t)) != _directive_lines_by_pattern(t)] == []


def test_directive_lines_that_allow_anything_before_the_hash_are_caught():
    from kernelscope.frontend.macros import _directive_lines
    # the comparison above, against lines read with anything allowed before their `#`
    assert any(list(_directive_lines(t)) != _directive_lines_by_pattern(t, r"^[^\n]*?#") for t in _directive_texts())

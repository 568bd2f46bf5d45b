"""From source text to a FileModel: preprocess, parse with tree-sitter-cuda, run the queries of
`grammars/cuda.scm`, and walk every kernel body."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from itertools import accumulate

from kernelscope import symbolic as sx
from kernelscope.errors import InputError, InvalidSource
from kernelscope.frontend.body import AssignmentIndex, Pointer, Scope, Value, Walker
from kernelscope.frontend.ctypes import TypeTable, normalise_type
from kernelscope.frontend.hoisting import mark_loop_invariant_loads
from kernelscope.frontend.macros import Preprocessed, preprocess
from kernelscope.frontend.nodes import FIELD, ancestors, kind_ids, language as _language, leaf_name as _leaf_name, node_text as _text
from kernelscope.frontend.shims import apply_shims
from kernelscope.frontend.template_types import HostTemplates, deduce, substitute
from kernelscope.gc_tuning import settle
from kernelscope.model import FileModel, Kernel, LaunchSite, Param, SourceError
from kernelscope.paths import grammar_file

MAX_REPORTED_ERRORS = 50
MAX_ACCESSES_PER_KERNEL = 4096
MAX_QUERY_START_DEPTH = 4096


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    return Query(_language(), grammar_file("cuda.scm").read_text())


def _parser():
    from tree_sitter import Parser

    return Parser(_language())


class FileUnit:
    """One preprocessed, parsed file: what every walk over it shares."""

    def __init__(self, pre: Preprocessed, text: str):
        self.pre = pre
        self.text = text                          # what the parser saw (after shims)
        self.types = TypeTable()
        self.device_functions: dict = {}
        self.constants: dict[str, Value] = {}
        self.globals: dict[str, Value] = {}
        self.loop_assignments: dict = {}          # loop node id -> variables assigned in it (body.py)
        self.assignments = AssignmentIndex(text)  # what the assignments under a node assign (body.py)
        # 1-based (line, column) in the original file of an offset in the parsed text
        self.line_col = pre.line_col
        self.root = None                          # the parsed tree's root node (set once parsed)
        # what its kernels share about their parameters (see _parameter_shapes, _parameter_values)
        self.parameter_shapes: dict = {}
        self.parameter_values: dict = {}

    def node_text(self, node) -> str:
        """A node's parsed text ('' for None): ASCII, so byte offsets are string offsets, and a
        slice is cheaper than asking tree-sitter for the node's bytes."""
        return self.text[node.start_byte:node.end_byte] if node is not None else ""

    def original_text(self, node) -> str:
        original_offset = self.pre.original_offset
        start = original_offset(node.start_byte)
        end = original_offset(max(node.end_byte - 1, node.start_byte)) + 1
        if end > start and end - start < 400:
            text = self.pre.original[start:end]
            if text.count("(") == text.count(")") and text.count("[") == text.count("]"):
                return " ".join(text.split())
        return " ".join(self.node_text(node).split())[:400]


def parse_file(text: str, path: str = "<string>", defines: dict | None = None, arch: str = "sm_90",
               preprocess_with: str = "builtin", types: dict | None = None) -> FileModel:
    """types: template type parameter -> type name, binding it in every kernel that has it."""
    try:
        return _parse_file(text, path, defines, arch, preprocess_with, types)
    except InvalidSource as exc:     # raised where the walk found it, which does not know the path
        raise InputError(f"{path}:{exc}") from None


def _parse_file(text: str, path: str, defines: dict | None, arch: str, preprocess_with: str,
                types: dict | None = None) -> FileModel:
    from kernelscope.frontend.source import normalise

    text = normalise(text)
    if not _IDENTIFIER_KINDS:
        _load_name_kinds()
    sx.forget_file_tables()     # name sets and Binary nodes are shared within a file, not from one file to the next
    if preprocess_with == "nvcc":
        from kernelscope.frontend.nvcc_preprocess import nvcc_preprocess
        pre = nvcc_preprocess(text, path, defines, arch)
    else:
        pre = preprocess(text, defines, arch)
    # Non-ASCII characters (comments, strings) would make tree-sitter's byte offsets differ from
    # string offsets; none of them matters to the analysis.
    parsed_text, launch_bounds = apply_shims(pre.text.encode("ascii", "replace").decode("ascii"))
    unclosed = _unclosed_braces(parsed_text)
    if unclosed:
        # A file cut off inside a function: close it so the parser keeps what came before.
        pre.errors.append(SourceError(text.count("\n"), 1, f"unterminated block: {unclosed} '{{' never closed"))
        parsed_text += "}" * unclosed + "\n"
    tree = _parser().parse(parsed_text.encode("ascii"))
    unit = FileUnit(pre, parsed_text)
    unit.root = tree.root_node
    model = FileModel(path=path, text=text)
    model.errors.extend(e for e in pre.errors if e.line > 0)
    model.errors.extend(SourceError(1, 1, e.message) for e in pre.errors if e.line == 0)

    captures = _captures(tree.root_node, parsed_text)
    _collect_types(unit, captures)
    _collect_file_scope(unit, tree.root_node)
    _collect_device_functions(unit, captures)
    instantiations = _collect_instantiations(unit, captures)
    model.launches = _collect_launches(unit, captures, tree.root_node)
    model.errors.extend(_syntax_errors(unit, captures))
    launches_by_kernel: dict = {}
    for site in model.launches:
        launches_by_kernel.setdefault(site.kernel, []).append(site)
    for node in captures.get("kernel", []):
        kernel = _kernel(unit, node, launch_bounds, instantiations, launches_by_kernel, types)
        if kernel is not None:
            model.kernels.append(kernel)
        settle()
    model.kernels.sort(key=lambda k: (k.line, k.column))
    model.device_functions = _device_functions_without_nodes(unit)
    return model


# Literals as `"[^"\\]*(?:\\.[^"\\]*)*"` rather than `"(?:\\.|[^"\\])*"`: the alternation inside
# a repeat costs the regex engine memory per character (an 8 MB string literal took 1 GB). A block
# comment likewise as runs of what cannot end it (`[^*]*`, then stars and one character that is
# neither), not `/\*.*?(?:\*/|\Z)`, which tries both endings after every character: the same
# match (tests/test_prefast12_unclosed_braces.py), a third of the cost on the realistic file.
_NOT_CODE = re.compile(r"//[^\n]*|/\*[^*]*(?:\*+[^*/][^*]*)*(?:\*+/|\**\Z)|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'",
                       re.DOTALL)


def _unclosed_braces(text: str) -> int:
    """How many `{` are still open at the end (comments and literals ignored)."""
    return _unclosed_braces_of_all(_brace_lines(text) if len(text) >= BRACE_LINES_MIN_CHARS else text)


# Picking a text's brace lines costs about 200,000 instructions a call in numpy's set-up, saving some
# 30 a character: shorter texts are read whole (the real programs, 5 kB at most, cost 2.5 times as
# much picked).
BRACE_LINES_MIN_CHARS = 32 * 1024


def _brace_lines(text: str) -> str:
    """The lines of text (each with its newline) that hold a `{`, `}`, `/*` or `*/`, joined; text
    itself where a backslash ends a line (or the text is not ASCII, or one line).
    _unclosed_braces_of_all gives the same answer for both: _NOT_CODE's matches other than block
    comments end at a line's end (a string or character literal can only run on over a
    backslash-newline), so a line left out either starts outside any match and holds no brace, or
    lies inside a block comment that it cannot end (no `*/`). Kept lines stay whole, newline and
    all, so no `//`, `/*` or `*/` forms where two meet. The regular expression's scan costs about
    40 instructions a character, the numpy passes that pick the lines a few; the realistic file
    keeps an eighth of its text (a loop of str.find over the marks cost more than the scan).
    tests/test_prefast14_brace_lines.py compares the two."""
    if not text.isascii():
        return text
    import numpy as np      # (imported by the analysis anyway; here only when a file is parsed)

    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    newline = data == ord("\n")
    if not newline.any() or ((data[:-1] == ord("\\")) & newline[1:]).any():
        return text
    slash, star = data == ord("/"), data == ord("*")
    marks = (data == ord("{")) | (data == ord("}"))
    marks[1:] |= (slash[:-1] & star[1:]) | (star[:-1] & slash[1:])      # (at a `/*` or `*/`'s second character)
    line_ends = np.flatnonzero(newline) + 1
    kept = np.zeros(len(line_ends) + 1, dtype=bool)
    kept[np.searchsorted(line_ends, np.flatnonzero(marks), side="right")] = True     # (a line's index: the ends before it)
    lengths = np.diff(line_ends, prepend=0, append=len(data))
    return data[np.repeat(kept, lengths)].tobytes().decode("ascii")


def _unclosed_braces_of_all(text: str) -> int:
    """_unclosed_braces, reading every character of text."""
    code = _NOT_CODE.sub(" ", text)
    if code.count("{") <= code.count("}"):
        return 0
    depth = 0
    for ch in re.findall(r"[{}]", code):
        depth = depth + 1 if ch == "{" else max(0, depth - 1)
    return min(depth, 64)


# Compiling grammars/cuda.scm costs about 18 ms, once per process; running it costs about as much
# as a Python walk over the tree's named nodes. A tree without errors has only the nodes at the marks
# of a capture that _refine keeps looked up (see _walked_captures_to_refine): a small part of its
# nodes, less than a fifth of the query's instructions. A tree with errors needs every node visited: a process walks those of
# its first files, up to this many bytes in all, and compiles the query only when it has more to
# read, so that a fresh `kernelscope analyze` of a small file never compiles it.
WALK_BUDGET_BYTES = 256 * 1024
_walked_bytes = 0


def _captures(root, text: str | None = None) -> dict:
    """Captured nodes by capture name, in source order. QueryCursor.captures does not keep that
    order, nor one order across names (py-tree-sitter issue #450): `instance.name` and
    `instance.args` would be zipped out of step, giving kernels each other's template arguments,
    differently from run to run. text: what the tree was parsed from (else read from the tree)."""
    global _walked_bytes
    if not root.has_error:
        raw = _walked_captures_to_refine(root, text)
    elif _query.cache_info().currsize or _walked_bytes + root.end_byte > WALK_BUDGET_BYTES:
        raw = _query_captures(root)
    else:
        _walked_bytes += root.end_byte          # (only walks of every node count against the budget)
        raw = _walked_captures_of_all(root)
    captures = _refine(raw, text)
    return {name: sorted(nodes, key=_position) for name, nodes in captures.items()}


def _query_captures(root) -> dict:
    """The captures of grammars/cuda.scm's patterns (node types only; see _refine)."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(_query())
    # Nothing the queries look for starts this deep; without the bound, tree-sitter's matching slows
    # down sharply on deeply nested expressions (40,000 levels: 23 s instead of 0.2 s at 30,000).
    cursor.set_max_start_depth(MAX_QUERY_START_DEPTH)
    return cursor.captures(root)


_WALKED_TYPES = frozenset(("function_definition", "call_expression", "template_instantiation", "template_type",
                           "template_function", "class_specifier", "struct_specifier", "type_definition", "ERROR"))


# What _refine keeps needs fewer visits than what the query captures: a function only when
# `__global__` or `__device__` is one of its tokens, a class or struct with its keyword, a typedef
# with its own, and a template id, launch or explicit instantiation (of a template id) with a `<`
# and a later `>`. Statement blocks (`{`) and comparisons (`<` with no `>` after it in the node, or
# followed first by `;` or a closing bracket), most of a kernel body's nodes, then hold no mark.
_REFINED_CAPTURE_MARKS = ("__global__", "__device__", "class", "struct", "typedef")


def _walked_captures_to_refine(root, text: str | None = None) -> dict:
    """The captures of a tree without errors (no node is missing nor an ERROR) as _refine reads
    them: what _query_captures and _walked_captures_of_all find, refined alike (the functions
    without `__global__` or `__device__`, which _refine drops, may be missing). The patterns can
    then only match named nodes with children, so the walk neither visits anonymous nodes nor asks
    a leaf its type, and it visits only the nodes whose text holds a word of
    _REFINED_CAPTURE_MARKS, or a `<` that could open a template argument list or a launch with a
    `>` that could close it (see _angle_pairs) in it (tree-sitter's nodes lie within their
    parents' bytes, so a node without a mark has no capture in or under it).
    tests/test_prefast5_capture_marks.py, tests/test_walked_captures.py and
    tests/test_capture24_angle_pairs.py compare them.

    Where no top-level node has more than MAX_QUERY_START_DEPTH nodes (so none lies deeper than the
    walk's bound), the nodes are looked up at their marks instead (_looked_up_captures)."""
    if text is None:        # (offsets are from the start of the parsed text: pad to the node's start)
        text = " " * root.start_byte + root.text.decode("latin-1")
    tops = root.named_children
    if root.descendant_count <= MAX_QUERY_START_DEPTH or \
            all(top.descendant_count <= MAX_QUERY_START_DEPTH for top in tops):
        return _looked_up_captures(root, text)
    return _marked_walk(root, text)


def _marked_walk(root, text: str) -> dict:
    """_walked_captures_to_refine by a walk from the root through the nodes holding a mark."""
    found: dict = {}
    kinds = _walked_kind_ids()
    words = _mark_offsets(text, _REFINED_CAPTURE_MARKS)
    word_count = len(words)
    opens, closes = _angle_pairs(text)
    open_count = len(opens)
    levels = [iter((root,))]
    while levels:
        for node in levels[-1]:
            end = node.end_byte
            if end == 0 or node.child_count == 0:
                continue
            start = node.start_byte
            index = bisect.bisect_left(words, start)
            if index == word_count or words[index] >= end:
                index = bisect.bisect_left(opens, start)
                if index == open_count or closes[index] >= end:
                    continue
            if node.kind_id in kinds:
                _walked_match(node, node.type, found)
            if len(levels) <= MAX_QUERY_START_DEPTH:
                children = node.named_children
                if children:
                    levels.append(iter(children))
                    break
        else:
            levels.pop()
    return found


# An explicit instantiation's own keyword (a direct token of it, as the marks are of theirs).
_INSTANTIATION_MARK = "template"


def _looked_up_captures(root, text: str) -> dict:
    """_walked_captures_to_refine by looking up the node of each mark: the smallest named node
    holding a keyword of _REFINED_CAPTURE_MARKS or _INSTANTIATION_MARK is the definition, class,
    struct, typedef or instantiation whose token it is (else the keyword is part of a word, a
    comment or another construct), and the smallest named node holding a `<` of _angle_pairs with
    the character before it is the template id whose argument list that `<` opens (the name lies
    before it), or the call that a `<<<` launches (else the `<` is a comparison, a comment's or
    another construct's). tree-sitter finds each in C, where the walk asked each node on the way
    down for its range and children in Python: the realistic file's 20,500 nodes against its
    2,200 marks. (Looking up below the top-level node holding the mark, found by bisection, cost
    more than tree-sitter's scan of the root's children.) A top-level node's descendants lie at
    most its node count below the root, so none past the walk's depth bound where the caller
    checked that count."""
    found: dict = {}
    seen: set = set()
    look_up = root.named_descendant_for_byte_range
    word_kinds, angle_kinds = _looked_up_kind_ids()
    words = _mark_offsets(text, _REFINED_CAPTURE_MARKS + (_INSTANTIATION_MARK,))
    for kinds, offsets, before in ((word_kinds, words, 0), (angle_kinds, _angle_pairs(text)[0], 1)):
        for offset in offsets:
            node = look_up(offset - before, offset + 1)
            if node is not None and node.kind_id in kinds and node.id not in seen:
                seen.add(node.id)
                _walked_match(node, node.type, found)
    return found


@lru_cache(maxsize=1)
def _looked_up_kind_ids() -> tuple:
    """The kinds _looked_up_captures takes at a keyword, and at a `<`."""
    return (kind_ids("function_definition", "class_specifier", "struct_specifier", "type_definition",
                     "template_instantiation"),
            kind_ids("template_type", "template_function", "call_expression"))


# what a template argument list or launch configuration closes with (tests change it to show that
# the walk needs it)
_ANGLE_PAIR = ("<", ">")

# A `<` that could open a template argument list or a launch, and what follows it up to the first
# character that tells more (_angle_pairs). Tree-sitter lexes `<<` and `<=` as one token each, so
# a template's `<` is neither followed by `<` or `=` nor preceded by `<`; `<<<` opens a launch.
# A match's end is where the first character that tells more lies; a `<` whose first such
# character is `;`, `)`, `]` or `}` does not match. (The pattern starts with a plain `<` so that
# the regex engine searches for it quickly.)
_ANGLE_OPEN = re.compile(r"<(?:<<|(?<!<<)(?![<=])[^;()\[\]{}<>\"'/]*+(?![;)\]}]))")


def _angle_pairs(text: str) -> tuple:
    """The offsets of the `<` in text that could open a template argument list or a launch, in
    order, and for each the least offset of a `>` that could close it or one opened after it.
    Between a template's `<` and its `>` every `(`, `[` and `{` is closed and any `;` lies within
    braces (a lambda's body), outside literals and comments. So a `<` whose first character of
    `;)]}>"'/([{<` after it is `;`, `)`, `]` or `}` opens none: a comparison such as `i < n;` or
    `(i < n)`, which in a kernel body would otherwise pair with any later `>` (`->`, `>=`, `>>`)
    and let the walk into most of the body. Where the first such character is a `>`, that is the
    close; where it could begin a nested bracket, a literal, a comment or another `<`, the first
    `>` after it stands for the close (an earlier close than the real one only visits more)."""
    closing = _ANGLE_PAIR[1]
    find = text.find
    opens = []
    closes = []
    for match in _ANGLE_OPEN.finditer(text):
        close = find(closing, match.end())
        if close < 0:
            break           # (nor has any later `<` a `>` after it)
        opens.append(match.start())
        closes.append(close)
    # each entry the least close of its own and every later `<` (a node holding the `<` at
    # opens[i] or a later one holds one of these closes iff it holds closes[i])
    closes.reverse()
    closes = list(accumulate(closes, min))
    closes.reverse()
    return opens, closes


def _mark_offsets(text: str, marks: tuple) -> list:
    """The offsets in text where one of marks starts, in order."""
    offsets = []
    for mark in marks:
        position = text.find(mark)
        while position >= 0:
            offsets.append(position)
            position = text.find(mark, position + 1)
    offsets.sort()
    return offsets


@lru_cache(maxsize=1)
def _walked_kind_ids() -> frozenset:
    """The grammar's symbol ids named like one of _WALKED_TYPES (several ids share a name where the
    grammar aliases one rule to another): a node's kind_id is an int, where its type is a string
    made anew on every read."""
    return kind_ids(*_WALKED_TYPES)


def _walked_captures_of_all(root) -> dict:
    """What _query_captures finds, by one walk over every node, anonymous ones too (a missing `;`
    is one): the same patterns of grammars/cuda.scm (kept in step with it; tests/test_walked_captures.py
    compares the two on every test file), the same start-depth bound."""
    found: dict = {}
    errors = root.has_error           # else no node of the tree is missing (nor an ERROR)
    # Depth first, in source order: one iterator over each open node's children, the node at the
    # top being at depth len(levels) - 1.
    levels = [iter((root,))]
    while levels:
        for node in levels[-1]:
            if node.end_byte == 0:
                # the query cursor skips nodes that end where its range starts (a missing token at
                # byte 0); as a pattern's child such a node still matches but is not captured (_capture)
                continue
            if errors and node.is_missing:
                found.setdefault("missing", []).append(node)
            kind = node.type
            if kind in _WALKED_TYPES:
                _walked_match(node, kind, found)
            if len(levels) <= MAX_QUERY_START_DEPTH:
                children = node.children
                if children:
                    levels.append(iter(children))
                    break
        else:
            levels.pop()
    return found


def _capture(found: dict, name: str, node) -> None:
    if node.end_byte:
        found.setdefault(name, []).append(node)


def _walked_match(node, kind: str, found: dict) -> None:
    if kind == "function_definition":
        found.setdefault("function", []).append(node)
    elif kind == "call_expression":
        # (call_expression (kernel_call_syntax)) @launch
        if any(child.type == "kernel_call_syntax" for child in node.children):
            found.setdefault("launch", []).append(node)
    elif kind == "template_instantiation":
        found.setdefault("instance", []).append(node)
    elif kind in ("template_type", "template_function"):
        # name: (_) @template_id.name arguments: (template_argument_list) @template_id.args
        for name in node.children_by_field_id(FIELD.name):
            if not name.is_named:
                continue
            for arguments in node.children_by_field_id(FIELD.arguments):
                if arguments.type == "template_argument_list" and arguments.start_byte >= name.end_byte:
                    _capture(found, "template_id.name", name)
                    _capture(found, "template_id.args", arguments)
    elif kind == "class_specifier":
        # name: (_) @class.name body: (field_declaration_list)
        for name in node.children_by_field_id(FIELD.name):
            if name.is_named and any(body.type == "field_declaration_list" and body.start_byte >= name.end_byte
                                     for body in node.children_by_field_id(FIELD.body)):
                _capture(found, "class.name", name)
                found.setdefault("class", []).append(node)
    elif kind == "struct_specifier":
        if any(body.type == "field_declaration_list" for body in node.children_by_field_id(FIELD.body)):
            found.setdefault("struct", []).append(node)
    elif kind == "type_definition":
        found.setdefault("typedef", []).append(node)
    else:
        found.setdefault("error", []).append(node)


def _refine(raw: dict, text: str | None = None) -> dict:
    """The captures the front end reads, from the node-type-only captures of grammars/cuda.scm:
    the field constraints left out of the query (to keep its compile time down) are checked here,
    with the query's meaning: `(function_definition "__global__" declarator: (function_declarator
    declarator: (_)))` for kernels and likewise "__device__" for helpers, a launch's callee and
    argument list, a template instantiation of a template function, a struct's name and a
    typedef's named type and plain-name declarator. Captures of other patterns pass through.
    text: what the tree was parsed from, if known (see _function_qualifiers)."""
    refined = ("function", "launch", "instance", "struct", "typedef")
    captures: dict = {name: nodes for name, nodes in raw.items() if name not in refined}
    for node in raw.get("function", ()):
        for qualifier in _function_qualifiers(node, text):
            captures.setdefault(qualifier, []).append(node)
    launches = [n for n in raw.get("launch", ()) if any(c.is_named for c in n.children_by_field_id(FIELD.function))
                and _field_types(n, "arguments") & {"argument_list"}]
    if launches:
        captures["launch"] = launches
    for node in raw.get("instance", ()):
        for declarator in node.children_by_field_id(FIELD.declarator):
            if declarator.type != "function_declarator":
                continue
            for template in declarator.children_by_field_id(FIELD.declarator):
                name = template.child_by_field_id(FIELD.name) if template.type == "template_function" else None
                arguments = [a for a in template.children_by_field_id(FIELD.arguments)
                             if a.type == "template_argument_list"] if name is not None else []
                if name is not None and name.is_named and arguments:
                    captures.setdefault("instance", []).append(node)
                    captures.setdefault("instance.name", []).append(name)
                    captures.setdefault("instance.args", []).append(arguments[0])
    structs = [n for n in raw.get("struct", ()) if _field_types(n, "name") & {"type_identifier"}]
    if structs:
        captures["struct"] = structs
    typedefs = [n for n in raw.get("typedef", ()) if any(c.is_named for c in n.children_by_field_id(FIELD.type))
                and _field_types(n, "declarator") & {"type_identifier"}]
    if typedefs:
        captures["typedef"] = typedefs
    return captures


def _field_types(node, field: str) -> set:
    return {child.type for child in node.children_by_field_id(getattr(FIELD, field))}


def _function_qualifiers(node, text: str | None = None) -> list:
    """"kernel" and/or "device" for a function definition written `__global__` / `__device__` before
    a function declarator that names something; nothing for other definitions. text: what the
    tree was parsed from, which lets a definition without errors be read the fast way
    (_qualifiers_of_definition)."""
    if text is not None and not node.has_error:
        return _qualifiers_of_definition(node, text)
    return _qualifiers_of_children(node)


def _qualifiers_of_children(node) -> list:
    """_function_qualifiers by every child's field name and type: any definition."""
    declarators = [(i, c) for i, c in enumerate(node.children) if node.field_name_for_child(i) == "declarator"]
    found = []
    for index, declarator in declarators:
        if declarator.type != "function_declarator":
            continue
        if not any(inner.is_named for inner in declarator.children_by_field_id(FIELD.declarator)):
            continue
        before = {c.type for c in node.children[:index] if not c.is_named}
        found.extend(label for keyword, label in (("__global__", "kernel"), ("__device__", "device"))
                     if keyword in before and label not in found)
    return found


_QUALIFIER_LABELS = (("__global__", "kernel"), ("__device__", "device"))


def _qualifiers_of_definition(node, text: str) -> list:
    """_function_qualifiers of a definition without errors, where the grammar gives it exactly one
    declarator (and a function declarator one declarator): the qualifier tokens among its children
    before that declarator are found from their text. Such a token is its keyword's text at its
    start, so each place the keyword occurs before the declarator is asked for the child there
    (first_child_for_byte): one with the token's kind starting at that place is the token. Reading
    every child's field name and type cost four times as much (the real programs' 166 definitions:
    4.4 M instructions). tests/test_prefast10_function_qualifiers.py compares the two readings."""
    declarator = node.child_by_field_id(FIELD.declarator)
    if declarator is None or declarator.kind_id not in _function_declarator_kinds():
        return []
    inner = declarator.child_by_field_id(FIELD.declarator)
    if inner is None or not inner.is_named:
        return []
    start, end = node.start_byte, declarator.start_byte
    found = []
    for keyword, label in _QUALIFIER_LABELS:
        token_kinds = _keyword_token_kinds(keyword)
        position = text.find(keyword, start, end)
        while position >= 0:
            child = node.first_child_for_byte(position)
            if child is not None and child.start_byte == position and child.kind_id in token_kinds:
                found.append(label)
                break
            position = text.find(keyword, position + 1, end)
    return found


@lru_cache(maxsize=1)
def _function_declarator_kinds() -> frozenset:
    return kind_ids("function_declarator")


@lru_cache(maxsize=None)
def _keyword_token_kinds(keyword: str) -> frozenset:
    """The kind ids of the anonymous tokens `keyword` (what _qualifiers_of_children reads as an
    unnamed child of that type)."""
    grammar = _language()
    return frozenset(kind for kind in kind_ids(keyword) if not grammar.node_kind_is_named(kind))


def _position(node) -> tuple:
    return node.start_byte, -node.end_byte   # an enclosing node before the nodes it starts with


# -- file scope -------------------------------------------------------------------------------------

def _collect_types(unit: FileUnit, captures: dict) -> None:
    for node in captures.get("typedef", []):
        name = node.child_by_field_id(FIELD.declarator)
        base = node.child_by_field_id(FIELD.type)
        if name is None or base is None or name.type != "type_identifier":
            continue
        if base.type in ("struct_specifier", "class_specifier", "union_specifier"):
            # typedef struct tag {...} Name;  typedef struct {...} Name;
            tag, body = base.child_by_field_id(FIELD.name), base.child_by_field_id(FIELD.body)
            if tag is not None:
                unit.types.aliases[_text(name)] = _text(tag)
            elif body is not None and base.type != "union_specifier":
                unit.types.add_struct(_text(name), _struct_members(body))
            continue
        unit.types.aliases[_text(name)] = normalise_type(_text(base))
    for node in captures.get("struct", []):
        name = node.child_by_field_id(FIELD.name)
        body = node.child_by_field_id(FIELD.body)
        if name is None or body is None:
            continue
        unit.types.add_struct(_text(name), _struct_members(body))
        if "__shared__" in _text(body):
            unit.types.shared_memory_structs.add(_text(name))


def _struct_members(body) -> list:
    """(field name, type name, array count) of a struct body's fields, in order."""
    members = []
    for declaration in body.named_children:
        if declaration.type != "field_declaration":
            continue
        type_node = declaration.child_by_field_id(FIELD.type)
        type_name = normalise_type(_text(type_node)) if type_node is not None else "int"
        for declarator in declaration.children_by_field_id(FIELD.declarator):
            count = 1
            while declarator is not None and declarator.type == "array_declarator":
                size = _int_or_none(_text(declarator.child_by_field_id(FIELD.size)))
                count *= size or 1
                declarator = declarator.child_by_field_id(FIELD.declarator)
            if declarator is not None and declarator.type == "pointer_declarator":
                members.append((_leaf_name(declarator), "void*", count))
            elif declarator is not None:
                members.append((_text(declarator), type_name, count))
    return members


def _collect_file_scope(unit: FileUnit, root) -> None:
    """File-scope constants (`const int N = 256;`) and device arrays (`__constant__ float c[16];`)."""
    for node in _top_level_declarations(root):
        qualifiers = {_text(c) for c in node.children if c.type in ("type_qualifier", "storage_class_specifier")}
        type_node = node.child_by_field_id(FIELD.type)
        base_type = normalise_type(_text(type_node)) if type_node is not None else "int"
        for declarator in node.children_by_field_id(FIELD.declarator):
            value_node = declarator.child_by_field_id(FIELD.value) if declarator.type == "init_declarator" else None
            inner = declarator.child_by_field_id(FIELD.declarator) if declarator.type == "init_declarator" else declarator
            name = _leaf_name(inner)
            if not name:
                continue
            if "__constant__" in qualifiers or "__device__" in qualifiers or "__shared__" in qualifiers:
                space = "constant" if "__constant__" in qualifiers else "shared" if "__shared__" in qualifiers else "global"
                unit.globals[name] = Value(sx.Const(0), base_type, Pointer(name, space, sx.Const(0), base_type,
                                                                           _array_dims(inner)))
            elif ("const" in qualifiers or "constexpr" in qualifiers) and value_node is not None:
                value = _int_or_none(_text(value_node))
                if value is not None:
                    unit.constants[name] = Value(sx.Const(value), base_type)
    unit.constants.update(unit.globals)


def _top_level_declarations(root):
    """The declarations at file scope, in namespaces, `extern "C"` blocks and #if branches. Read by
    kind id: a node's type is a string made anew on every read, and a file's namespaces hold
    thousands of children (comments, functions) to tell apart (tests/test_prefast14_file_scope.py)."""
    declarations, containers = _declaration_kinds(), _declaration_container_kinds()
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            kind = child.kind_id
            if kind in declarations:
                yield child
            elif kind in containers:
                stack.append(child)


# what holds declarations at file scope (_top_level_declarations looks inside these)
_DECLARATION_CONTAINERS = ("linkage_specification", "namespace_definition", "declaration_list",
                           "preproc_if", "preproc_ifdef", "preproc_else")


@lru_cache(maxsize=1)
def _declaration_kinds() -> frozenset:
    return kind_ids("declaration")


@lru_cache(maxsize=1)
def _declaration_container_kinds() -> frozenset:
    return kind_ids(*_DECLARATION_CONTAINERS)


def _collect_device_functions(unit: FileUnit, captures: dict) -> None:
    for node in captures.get("device", []):
        declarator = node.child_by_field_id(FIELD.declarator)
        name = _function_name(declarator)
        body = node.child_by_field_id(FIELD.body)
        if not name or body is None:
            continue
        parameters = []
        parameter_list = declarator.child_by_field_id(FIELD.parameters)
        for param in (parameter_list.named_children if parameter_list is not None else []):
            if param.type != "parameter_declaration":
                continue
            param_type = normalise_type(_text(param.child_by_field_id(FIELD.type)))
            param_declarator = param.child_by_field_id(FIELD.declarator)
            stars = _text(param_declarator).count("*") if param_declarator is not None else 0
            parameters.append((_leaf_name(param_declarator) or "", param_type + "*" * stars))
        return_type = normalise_type(_text(node.child_by_field_id(FIELD.type)))
        template_params = []
        parent = node.parent
        if parent is not None and parent.type == "template_declaration":
            template_list = parent.child_by_field_id(FIELD.parameters)
            for param in (template_list.named_children if template_list is not None else []):
                template_params.append(_leaf_name(param.child_by_field_id(FIELD.declarator)) or _type_param_name(param))
        unit.device_functions[name] = (parameters, body, return_type, template_params)


def _device_functions_without_nodes(unit: FileUnit) -> dict:
    """unit.device_functions for the model, each body node replaced by its parsed text: a node keeps
    the whole tree-sitter tree alive (about 19 MB for an 800-kernel file), which nothing reads once
    the kernels are walked; freed, its memory is reused by the analysis that follows."""
    return {name: (params, unit.node_text(body), return_type, template_params)
            for name, (params, body, return_type, template_params) in unit.device_functions.items()}


def _collect_instantiations(unit: FileUnit, captures: dict) -> dict:
    result: dict[str, list] = {}
    for node, name_node, args_node in zip(captures.get("instance", []), captures.get("instance.name", []),
                                          captures.get("instance.args", [])):
        result.setdefault(_text(name_node), []).append(_template_arguments(args_node))
    return result


def _template_arguments(args_node) -> tuple:
    return tuple(" ".join(_text(c).split()) for c in args_node.named_children)


def _syntax_errors(unit: FileUnit, captures: dict) -> list[SourceError]:
    errors = []
    for node in captures.get("error", [])[:MAX_REPORTED_ERRORS]:
        line, column = unit.line_col(node.start_byte)
        snippet = " ".join(_text(node).split())[:40]
        errors.append(SourceError(line, column, f"syntax error near {snippet!r}" if snippet else "syntax error"))
    for node in captures.get("missing", [])[:MAX_REPORTED_ERRORS]:
        line, column = unit.line_col(node.start_byte)
        errors.append(SourceError(line, column, f"missing {node.type!r}"))
    errors.sort(key=lambda e: (e.line, e.column))
    return errors


# -- launches --------------------------------------------------------------------------------------

def _collect_launches(unit: FileUnit, captures: dict, root) -> list[LaunchSite]:
    launches = []
    functions = {}
    for node in captures.get("launch", []):
        # (the nearest enclosing function, from one search down: see nodes.ancestors)
        function = next((a for a in ancestors(root, node) if a.type == "function_definition"), None)
        functions.setdefault(function.id if function is not None else None, (function, []))[1].append(node)
    # only template kernels need their launches' host context (a walk over the whole file)
    host = HostTemplates(root, captures) if functions and "template" in unit.text else None
    for function, nodes in functions.values():
        found: dict = {}
        walker = Walker(unit, Scope(), {}, record=False)
        # (the walker is passed in, not closed over: a walker holding a function that holds it would be a
        # reference cycle, keeping the whole file's tables alive until a garbage collection)
        walker.on_launch = lambda w, node: found.__setitem__(node.id, _launch_site(w, node))
        if function is not None:
            body = function.child_by_field_id(FIELD.body)
            walker.current_function = "host"
            walker.statement(body)
        for node in nodes:
            site = found.get(node.id) or _launch_site(walker, node)
            if host is not None:
                site.host_bindings, site.argument_types = host.launch_context(node)
                site.template_args = tuple(substitute(a, site.host_bindings) for a in site.template_args)
            launches.append(site)
    launches.sort(key=lambda s: (s.line, s.column))
    return launches


def _launch_site(walker: Walker, node) -> LaunchSite:
    callee = node.child_by_field_id(FIELD.function)
    config = next(c for c in node.children if c.type == "kernel_call_syntax")
    template_args = ()
    if callee.type == "template_function":
        arguments = callee.child_by_field_id(FIELD.arguments)
        template_args = _template_arguments(arguments) if arguments is not None else ()
        callee = callee.child_by_field_id(FIELD.name)
    name = _text(callee).split("::")[-1]
    parts = [c for c in config.named_children]
    values = [walker.expression(p) for p in parts]
    line, column = walker._line_col(node.start_byte)
    grid = _dim3(values[0]) if values else None
    block = _dim3(values[1]) if len(values) > 1 else None
    smem = sx.try_constant(values[2].expr) if len(values) > 2 else 0
    site = LaunchSite(name, line, column, _constant_dims(grid), _constant_dims(block), smem, template_args,
                      _text(parts[0]) if parts else "", _text(parts[1]) if len(parts) > 1 else "")
    site.grid_exprs = grid
    site.block_exprs = block
    return site


def _dim3(value: Value):
    if value.dims is not None:
        exprs = list(value.dims) + [sx.Const(1)] * (3 - len(value.dims))
        return tuple(exprs[:3])
    return (value.expr, sx.Const(1), sx.Const(1))


def _constant_dims(exprs):
    if exprs is None:
        return None
    values = [sx.try_constant(e) for e in exprs]
    if any(v is None or v <= 0 for v in values):
        return None
    return tuple(values)


# -- kernels -----------------------------------------------------------------------------------------

def _kernel(unit: FileUnit, node, launch_bounds, instantiations: dict, launches: dict,
            types: dict | None = None) -> Kernel | None:
    """launch_bounds: the file's marks in text order; launches: the file's launch sites by kernel name."""
    declarator = node.child_by_field_id(FIELD.declarator)
    name = _function_name(declarator)
    if not name:
        return None
    line, column = unit.line_col(declarator.start_byte)
    kernel = Kernel(name=name, line=line, column=column)
    kernel.end_line = unit.line_col(max(node.end_byte - 1, node.start_byte))[0]
    template = None
    for parent in ancestors(unit.root, node) + [unit.root]:
        if parent.type == "template_declaration" and template is None:
            template = parent
        if parent.type == "linkage_specification":
            kernel.extern_c = True
    mark = _first_mark_between(launch_bounds, node.start_byte, declarator.start_byte)
    kernel.launch_bounds = tuple(_int_or_text(a) for a in mark.arguments) if mark is not None else ()
    type_params = set()
    if template is not None:
        parameters = template.child_by_field_id(FIELD.parameters)
        for param in (parameters.named_children if parameters is not None else []):
            param_name = _leaf_name(param.child_by_field_id(FIELD.declarator)) or _type_param_name(param)
            if param_name:
                kernel.template_params.append(param_name)
                if param.type in ("type_parameter_declaration", "optional_type_parameter_declaration"):
                    type_params.add(param_name)
    kernel.template_instantiations = list(instantiations.get(name, []))
    kernel.launches = list(launches.get(name, ()))
    kernel.shared_memory_opt_in = _shared_memory_opt_in(unit, name, bool(kernel.launches))
    for site in kernel.launches:
        if site.template_args and site.template_args not in kernel.template_instantiations:
            kernel.template_instantiations.append(site.template_args)
    if kernel.template_params and len(set(kernel.template_instantiations)) == 1:
        for param_name, argument in zip(kernel.template_params, kernel.template_instantiations[0]):
            kernel.template_bindings[param_name] = _int_or_text(argument)
            if param_name in type_params:
                kernel.template_types[param_name] = (normalise_type(argument), "instantiation")

    env: dict = dict(unit.globals)
    saved_aliases = dict(unit.types.aliases)
    for param_name, bound in kernel.template_bindings.items():
        if isinstance(bound, int):
            env[param_name] = Value(sx.Const(bound), "int")
        elif bound in ("true", "false") and param_name not in type_params:
            env[param_name] = Value(sx.Const(int(bound == "true")), "bool")
    for param_name in kernel.template_params:
        env.setdefault(param_name, Value(sx.shared_sym(param_name), "int"))
    parameter_list = declarator.child_by_field_id(FIELD.parameters)
    params = [p for p in (parameter_list.named_children if parameter_list is not None else [])
              if p.type == "parameter_declaration"]
    known_shapes = _parameter_shapes(unit)
    known_values = _parameter_values(unit)
    # (what a parameter's text says is read once; its sizes twice for a template kernel, before
    # and after its type parameters are bound)
    shapes = [_param_shape(unit, p, known_shapes) for p in params]
    if type_params:
        _bind_type_parameters(unit, kernel, type_params, [_param(unit, s) for s in shapes], types or {})
    for param_name, (bound, _) in kernel.template_types.items():
        unit.types.aliases[param_name] = bound
    for shape in shapes:
        record = _param(unit, shape)
        if record is None:
            continue
        kernel.params.append(record)
        env[record.name] = _param_value(record, known_values)
    scope = Scope()
    walker = Walker(unit, scope, env)
    walker.current_function = name
    try:
        walker.walk_body(node.child_by_field_id(FIELD.body))
    finally:
        unit.types.aliases = saved_aliases
    mark_loop_invariant_loads(scope)
    for field_name in ("accesses", "loops", "branches", "barriers", "calls", "arith", "shared_arrays",
                       "early_returns"):
        setattr(kernel, field_name, getattr(scope, field_name))
    if len(kernel.accesses) > MAX_ACCESSES_PER_KERNEL:
        # Generated or adversarial code: analyse the first accesses and say so, rather than take
        # seconds per kernel.
        scope.notes.append(f"{len(kernel.accesses)} memory accesses; only the first "
                           f"{MAX_ACCESSES_PER_KERNEL} are analysed")
        kernel.accesses = kernel.accesses[:MAX_ACCESSES_PER_KERNEL]
    kernel.local_arrays = scope.local_arrays
    kernel.dynamic_local_accesses = scope.dynamic_local_accesses
    kernel.uses_shuffle = "shuffle" in scope.flags
    kernel.uses_cooperative_groups = "cooperative_groups" in scope.flags or \
        unit.text.find("cg::", node.start_byte, node.end_byte) >= 0
    kernel.uses_inline_asm = "inline_asm" in scope.flags
    kernel.notes = scope.notes
    return kernel


def _first_mark_between(marks: list, start: int, end: int):
    """The first launch-bounds mark at an offset in [start, end), of marks in offset order (one
    search per kernel, where a scan over all marks would cost kernels x marks)."""
    index = bisect.bisect_left(marks, start, key=_mark_offset)
    return marks[index] if index < len(marks) and marks[index].offset < end else None


def _mark_offset(mark) -> int:
    return mark.offset


_OPT_IN = re.compile(r"cudaFuncSetAttribute\s*\(([^;]*?),\s*cudaFuncAttributeMaxDynamicSharedMemorySize")


def _shared_memory_opt_in(unit: FileUnit, kernel_name: str, launched_here: bool) -> bool | None:
    """True when the file raises the kernel's dynamic shared-memory cap above 48 KB; False when the
    file launches the kernel and never does; None when the host code is elsewhere."""
    targets = getattr(unit, "opt_in_targets", None)
    if targets is None:
        # the names in each cudaFuncSetAttribute(<kernel expression>, ...MaxDynamicSharedMemorySize, ...)
        targets = unit.opt_in_targets = set() if "MaxDynamicSharedMemorySize" not in unit.text else \
            {word for match in _OPT_IN.finditer(unit.text) for word in re.findall(r"\w+", match.group(1))}
    if kernel_name in targets:
        return True
    return False if launched_here else None


DEFAULT_ELEMENT_TYPE = "float"


def _bind_type_parameters(unit: FileUnit, kernel: Kernel, type_params: set, params: list, types: dict) -> None:
    """Every type parameter gets one type, so that element sizes and strides agree: the caller's
    --type first, then the single instantiation, then what the launches' arguments deduce, then
    float (the commonest element type; the JSON says it was assumed)."""
    deduced: dict = {}
    for site in kernel.launches:
        for name, bound in deduce([p for p in params if p is not None], type_params, site.argument_types).items():
            deduced.setdefault(name, set()).add(bound)
    for name in kernel.template_params:
        if name not in type_params:
            continue
        if name in types:
            kernel.template_types[name] = (normalise_type(types[name]), "option")
        elif name in kernel.template_types and unit.types.size_of(kernel.template_types[name][0]) is not None:
            continue
        elif len(deduced.get(name, ())) == 1:
            kernel.template_types[name] = (next(iter(deduced[name])), "launch arguments")
        else:
            kernel.template_types[name] = (DEFAULT_ELEMENT_TYPE, "default")


def _parameter_shapes(unit: FileUnit) -> dict:
    """What the file's kernels share about their parameters (a FileUnit lives for one file, so they
    are shared within one file only): a parameter's text -> _plain_param_shape(text), which depends
    on the text alone. Kernels of one file mostly take the same few (`float* a`, `int n`; about half of the
    parameters of the real programs and three quarters of the hand-written kernels repeat one of an
    earlier kernel of their file). The Values a kernel's walk starts its parameters with are shared
    too (see _parameter_values). Tests replace this function to compare with unshared readings."""
    return unit.parameter_shapes


def _parameter_values(unit: FileUnit) -> dict:
    """The Values a file's kernels start their parameters with (see _param_value): (name, type name, pointer?) -> Value. Values and Pointers never change once built, so
    the kernels of a file that take the same parameter start it with one Value. (Undone once for
    a rise of the sync phase that was where a garbage collection fell: with the collector off,
    sync distinct 164.8 / real 235.8 M without and 164.9 / 235.7 M with the sharing.)"""
    return unit.parameter_values


def _param_value(record: Param, known: dict | None = None) -> Value:
    """The Value a kernel's walk starts parameter `record` with: a pointer at offset 0 of its own
    global allocation, or the parameter's name. `known` keeps them by what they are built from
    (see _parameter_values)."""
    key = (record.name, record.type_name, record.is_pointer)
    value = known.get(key) if known is not None else None
    if value is None:
        if record.is_pointer:
            zero = sx.shared_const(0)       # (one Const for the file's every pointer: they never change)
            value = Value(zero, record.type_name + "*", Pointer(record.name, "global", zero, record.type_name))
        else:
            value = Value(sx.shared_sym(record.name), record.type_name)
        if known is not None:
            known[key] = value
    return value


def _param_shape(unit: FileUnit, param, known_shapes: dict | None = None) -> tuple | None:
    """What a parameter declaration's text says, whatever its types stand for: (name, type name,
    pointer?, const?, restrict?, line), or None for an unnamed parameter. `known_shapes` keeps
    _plain_param_shape's answers by text (see _parameter_shapes)."""
    source = unit.text
    start = param.start_byte
    if not param.has_error:
        text = source[start:param.end_byte]
        if known_shapes is None:
            shape = _plain_param_shape(text)
        else:
            shape = known_shapes.get(text, _NOT_READ)
            if shape is _NOT_READ:
                shape = known_shapes[text] = _plain_param_shape(text)
        if shape is not None:
            return shape + (unit.line_col(start)[0],)
    return _param_shape_from_tree(unit, param)


_NOT_READ = object()    # (a text known_shapes has no answer for yet: None is an answer)


# Words that make a parameter's text more than qualifiers, one type word, stars and a name
# (sized types such as `unsigned int`, keywords normalise_type strips, storage classes).
_NOT_PLAIN_WORDS = frozenset(("const", "volatile", "__restrict__", "__restrict", "restrict", "unsigned", "signed",
                              "long", "short", "struct", "class", "union", "enum", "typename", "static",
                              "register", "constexpr", "inline", "extern", "auto", "_Atomic", "__shared__",
                              "__constant__", "__device__", "__global__", "__host__", "template", "typedef"))
_QUALIFIER_WORDS = frozenset(("const", "volatile"))
_POINTER_WORDS = frozenset(("*", "const", "volatile", "__restrict__", "__restrict"))


def _plain_param_shape(text: str) -> tuple | None:
    """_param_shape_from_tree's (name, type name, pointer?, const?, restrict?) of a parameter
    written the common way, read from its text alone: `const`/`volatile` words, one type word,
    then stars (with their qualifiers) or nothing, then the name (`const float* __restrict__ a`,
    `int n`, `T* p`); None for any other text (templates, arrays, references, `unsigned int`,
    comments, attributes), which the tree reads. Each of the tree's child lookups costs more
    than this whole reading (tests/test_walkfast6_param_shape.py compares the two)."""
    tokens = text.replace("*", " * ").split()
    if len(tokens) < 2:
        return None
    name = tokens[-1]
    if not name.isidentifier() or name in _NOT_PLAIN_WORDS:
        return None
    star = tokens.index("*") if "*" in tokens else len(tokens) - 1
    type_word = None
    for word in tokens[:star]:
        if word in _QUALIFIER_WORDS:
            continue
        if type_word is not None or not word.isidentifier() or word in _NOT_PLAIN_WORDS:
            return None
        type_word = word
    if type_word is None:
        return None
    restrict = False
    for word in tokens[star:-1]:
        if word not in _POINTER_WORDS:
            return None
        restrict = restrict or word.startswith("__restrict")
    # (the type word is one that normalise_type leaves as it is: no qualifier, no `::`)
    return (name, type_word, star < len(tokens) - 1, "const" in tokens[:star] or "const" in type_word, restrict)


def _param_shape_from_tree(unit: FileUnit, param) -> tuple | None:
    """_param_shape by the parameter's nodes: any parameter."""
    type_node = param.child_by_field_id(FIELD.type)
    declarator = param.child_by_field_id(FIELD.declarator)
    if declarator is None:
        return None
    name = _declared_name(unit.text, declarator)
    if not name:
        return None
    # (the texts as slices of the parsed text: what unit.node_text gives, without its calls)
    source = unit.text
    type_text = source[type_node.start_byte:type_node.end_byte] if type_node is not None else ""
    type_name = normalise_type(type_text) if type_node is not None else "int"
    declarator_text = source[declarator.start_byte:declarator.end_byte]
    is_pointer = "*" in declarator_text or "[" in declarator_text
    # Only `const` and `__restrict__` among the qualifiers matter: most parameters have neither
    # in their text, and then no child needs reading.
    parameter_text = source[param.start_byte:param.end_byte]
    qualifiers = {source[c.start_byte:c.end_byte] for c in param.children if c.type == "type_qualifier"} \
        if "const" in parameter_text or "__restrict__" in parameter_text else ()
    line, _ = unit.line_col(param.start_byte)
    return (name, type_name, is_pointer, "const" in qualifiers or "const" in type_text,
            # (a `__restrict__` or `__restrict` in the declarator: `float* __restrict__ out`)
            "__restrict" in declarator_text or "__restrict__" in qualifiers, line)


def _declared_name(text: str, declarator) -> str:
    """_leaf_name(declarator) of a parameter's declarator, `n` or `*p` (most of them) read as a
    slice of the parsed text, without the node types and the bytes that _leaf_name asks for
    (tests/test_walkfast3_declared_name.py compares the two)."""
    if declarator.kind_id in _POINTER_DECLARATOR_KINDS:
        inner = declarator.child_by_field_id(FIELD.declarator)
        if inner is not None and inner.kind_id in _IDENTIFIER_KINDS:
            return text[inner.start_byte:inner.end_byte]
    elif declarator.kind_id in _IDENTIFIER_KINDS:
        return text[declarator.start_byte:declarator.end_byte]
    return _leaf_name(declarator)


_IDENTIFIER_KINDS = _POINTER_DECLARATOR_KINDS = frozenset()     # (kind ids: set by _load_name_kinds)


def _load_name_kinds() -> None:
    global _IDENTIFIER_KINDS, _POINTER_DECLARATOR_KINDS
    _IDENTIFIER_KINDS = kind_ids("identifier")
    _POINTER_DECLARATOR_KINDS = kind_ids("pointer_declarator")


def _param(unit: FileUnit, shape: tuple | None) -> Param | None:
    """The Param of a _param_shape, its element size read with the file's types as they are now."""
    if shape is None:
        return None
    name, type_name, is_pointer, is_const, is_restrict, line = shape
    elem_bytes = unit.types.size_of(unit.types.resolve(type_name)) if is_pointer else unit.types.size_of(type_name)
    # (by position, in _PARAM_FIELDS' order: matching seven keywords cost about as much as the
    # rest of the call, and a file's kernels make a Param per parameter)
    return Param(name, type_name, is_pointer, elem_bytes, is_const, is_restrict, line)


# Param's fields in the order _param passes them (tests/test_prefast15_param.py checks the class)
_PARAM_FIELDS = ("name", "type_name", "is_pointer", "elem_bytes", "is_const", "is_restrict", "line")


# -- small helpers --------------------------------------------------------------------------------------

def _function_name(declarator) -> str:
    if declarator is None:
        return ""
    target = declarator.child_by_field_id(FIELD.declarator)
    if target is None:
        return ""
    if target.type == "template_function":
        target = target.child_by_field_id(FIELD.name)
    return _text(target).split("::")[-1].strip()


def _type_param_name(param) -> str:
    identifiers = [c for c in param.named_children if c.type == "type_identifier"]
    return _text(identifiers[0]) if identifiers else ""


def _array_dims(declarator) -> tuple:
    dims = []
    while declarator is not None and declarator.type == "array_declarator":
        dims.insert(0, _int_or_none(_text(declarator.child_by_field_id(FIELD.size))))
        declarator = declarator.child_by_field_id(FIELD.declarator)
    return tuple(dims)


def _int_or_none(text: str):
    text = text.strip().rstrip("uUlL")
    try:
        return int(text, 0)
    except ValueError:
        return None


def _int_or_text(text: str):
    """An integer for constant expressions (`2 * 32 * 4`), else the text as written."""
    value = _int_or_none(text)
    if value is None and re.fullmatch(r"[\d\s()+\-*/%<>]+", text or ""):
        from kernelscope.frontend.macros import _eval_pp_expression
        value = _eval_pp_expression(text)
    return value if value is not None else text

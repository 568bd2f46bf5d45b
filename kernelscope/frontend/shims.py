"""Rewrites that keep tree-sitter-cuda on its feet, each replacing text by blanks of the same length
so that no position moves. What they remove is recorded so nothing is lost:

- `__launch_bounds__(a, b, c)`: the grammar accepts at most two arguments; we read all of them here;
- `__align__(n)`, `__grid_constant__`, `__nv_pure__`: attributes the grammar does not know;
- `[=] __device__ (int i) {...}`: extended lambdas' execution-space qualifier;
- `#pragma` between a loop header and a body without braces (`for (...)\n#pragma unroll\nfor ...`):
  the grammar wants a statement there;
- the `template` of an explicit class instantiation (`template class Stream<double>;`, BabelStream):
  the grammar wants a declarator after it; `class Stream<double>;` still names the instantiation.
"""

from __future__ import annotations

import re

from kernelscope.records import record

_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\(")
# Every alternative starts with `_`; the lookahead lets the scan skip other characters at once
# instead of trying each alternative at every position (5x faster on a large file).
_ATTRIBUTES = re.compile(r"(?=_)(?:__align__\s*\(\s*\d+\s*\)|\b__grid_constant__\b|\b__nv_pure__\b|"
                         r"__cluster_dims__\s*\([^()]*\)|\b_Pragma\s*\(\s*\"[^\"\n]*\"\s*\)|"
                         r"__attribute__\s*\(\(\s*aligned\s*\(\s*\d+\s*\)\s*\)\))")
# Texts that each alternative of _ATTRIBUTES needs: a text holding none of them (most files) is left
# as it is without the scan, which tries its alternatives at every `_` of the text.
_ATTRIBUTE_WORDS = ("__align__", "__grid_constant__", "__nv_pure__", "__cluster_dims__", "_Pragma", "__attribute__")
_CLASS_INSTANTIATION = re.compile(r"\btemplate(?=\s+(?:class|struct)\s+[A-Za-z_][\w:]*\s*<[^;{}()]*>\s*;)")
# What every _CLASS_INSTANTIATION match starts with, as a pattern that starts with a literal (which
# the regex engine finds by a fast search, where `\b` first makes it try every offset)
_CLASS_INSTANTIATION_START = re.compile(r"template\s+(?:class|struct)\s")
_LAMBDA_QUALIFIER = re.compile(r"(\]\s*)(__device__|__host__\s+__device__|__device__\s+__host__)")


@record(frozen=True)
class LaunchBoundsMark:
    offset: int          # where `__launch_bounds__` started in the text
    arguments: tuple     # argument texts as written (after macro expansion)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def apply_shims(text: str) -> tuple[str, list[LaunchBoundsMark]]:
    text, marks = _blank_launch_bounds(text)
    text = _blank_attributes(text)
    text = _blank_lambda_qualifiers(text)
    text = _blank_class_instantiations(text)
    return _flatten_deep_templates(_blank_pragmas_inside_statements(text)), marks


def _blank_launch_bounds(text: str) -> tuple[str, list[LaunchBoundsMark]]:
    """Each `__launch_bounds__(...)` blanked, and its arguments. A text without the word (most
    files) is left as it is without the scan: str's search skips ahead by the word's length, where
    the regex engine's literal search steps through every character."""
    if "__launch_bounds__" not in text:
        return text, []
    marks = []
    pieces = []
    last = 0
    for match in _LAUNCH_BOUNDS.finditer(text):
        if match.start() < last:
            continue
        close = _matching_paren(text, match.end() - 1)
        if close is None:
            continue
        inner = text[match.end():close]
        marks.append(LaunchBoundsMark(match.start(), tuple(a.strip() for a in _split_top_level(inner))))
        pieces.append(text[last:match.start()])
        pieces.append(_blank(text[match.start():close + 1]))
        last = close + 1
    pieces.append(text[last:])
    return "".join(pieces), marks


LAMBDA_LOOK_BACK = 200   # how far _may_hold_lambda_qualifier reads back over white space before giving up


def _blank_lambda_qualifiers(text: str) -> str:
    """The execution-space qualifier of each extended lambda (`[=] __device__ (...)`) blanked. The
    scan tries a match at every `]` (array subscripts: thousands a file), so it runs only where
    _may_hold_lambda_qualifier finds a qualifier word that could follow one."""
    if not _may_hold_lambda_qualifier(text):
        return text
    return _LAMBDA_QUALIFIER.sub(lambda m: m.group(1) + _blank(m.group(2)), text)


def _may_hold_lambda_qualifier(text: str) -> bool:
    """Whether some `__device__` or `__host__` of text has only white space (`\\s`, which is what
    str.isspace and str.rstrip take) between it and a `]` before it, as every _LAMBDA_QUALIFIER
    match has; True too where the white space runs back further than LAMBDA_LOOK_BACK."""
    for word in ("__device__", "__host__"):
        position = text.find(word)
        while position >= 0:
            start = max(0, position - LAMBDA_LOOK_BACK)
            before = text[start:position].rstrip()
            if before.endswith("]") or (not before and start > 0):
                return True
            position = text.find(word, position + 1)
    return False

def _blank_attributes(text: str) -> str:
    """_ATTRIBUTES' matches blanked; the scan runs only when one of their words is in the text."""
    if not any(word in text for word in _ATTRIBUTE_WORDS):
        return text
    return _ATTRIBUTES.sub(lambda m: _blank(m.group(0)), text)


def _blank_class_instantiations(text: str) -> str:
    """The `template` of each explicit class instantiation blanked; the strict scan runs only when
    the text has a `template class`/`template struct` at all (looked for only where str's search,
    which skips ahead by a word's length, finds a `template`)."""
    if "template" not in text or not _CLASS_INSTANTIATION_START.search(text):
        return text
    return _CLASS_INSTANTIATION.sub(lambda m: _blank(m.group(0)), text)


MAX_TEMPLATE_DEPTH = 10  # tree-sitter-cuda gives up on template arguments nested 12 deep
# more than MAX_TEMPLATE_DEPTH `<` in a row with no `>` or statement boundary between them
# (written to start with its `<`: the regex engine then skips from one `<` to the next, 25x faster)
_DEEP_ANGLES = re.compile(r"<(?:[^<>;{}()]*<){%d}" % MAX_TEMPLATE_DEPTH)


# every byte but those _DEEP_ANGLES' character class leaves out (`<>;{}()`)
_NOT_ANGLE_OR_STOP = bytes(code for code in range(256) if chr(code) not in "<>;{}()")


def _has_deep_angles(text: str) -> bool:
    """Whether _DEEP_ANGLES matches text: with everything but `<>;{}()` taken out, whether MAX_TEMPLATE_DEPTH + 1
    `<` stand in a row. ASCII text is reduced by bytes.translate in C, where the regex engine tried
    its repeat at every `<` (comparisons, shifts, launches); other text goes to the regex."""
    if not text.isascii():
        return _DEEP_ANGLES.search(text) is not None
    return b"<" * (MAX_TEMPLATE_DEPTH + 1) in text.encode("ascii").translate(None, _NOT_ANGLE_OR_STOP)


def _flatten_deep_templates(text: str) -> str:
    """Blank template arguments nested deeper than MAX_TEMPLATE_DEPTH (`W<W<W<...>>>`): the grammar
    gives up on them, and no analysis needs what is inside. Depth counts `<` after a name and resets
    at `;`, braces and parentheses, so comparisons cannot pile up across statements."""
    if not _has_deep_angles(text):
        return text
    chars = list(text)
    depth = 0
    previous = " "
    stamps = []     # where a too-deep template-id starts: it becomes `int`
    for index, ch in enumerate(chars):
        if ch in ";{}()":
            depth = 0
        elif ch == "<" and (previous.isalnum() or previous == "_" or previous == "<"):
            depth += 1
            if depth == MAX_TEMPLATE_DEPTH + 1:
                start = index
                while start > 0 and (chars[start - 1].isalnum() or chars[start - 1] in "_: "):
                    start -= 1
                while chars[start] == " ":
                    start += 1
                chars[start:index] = [" "] * (index - start)
                stamps.append(start)
            if depth > MAX_TEMPLATE_DEPTH:
                chars[index] = " "
        elif ch == ">" and depth > 0:
            if depth > MAX_TEMPLATE_DEPTH:
                chars[index] = " "
            depth -= 1
        elif depth > MAX_TEMPLATE_DEPTH and ch != "\n":
            chars[index] = " "
        if not ch.isspace():
            previous = ch
    for start in stamps:
        chars[start:start + 3] = list("int")
    return "".join(chars)


# a `#pragma` line (`#` first on its line, white space around it); _pragma_line_starts finds the same
# lines from the text's `pragma` words (a MULTILINE `^` makes the regex engine try every offset)
_PRAGMA_LINE = re.compile(r"^[^\S\n]*#[^\S\n]*pragma", re.MULTILINE)
_LOOP_OR_BRANCH = re.compile(r"(for|while|if)\b|else\b")


def _blank_pragmas_inside_statements(text: str) -> str:
    """Blank a `#pragma` line that follows a loop or branch header with no body yet (its last code
    line before the pragma starts with for/while/if/else and ends with `)`)."""
    if "#" not in text:
        return text
    pieces = []
    last = 0
    for start in _pragma_line_starts(text):
        code = _code_before(text, start)
        if code.endswith(")") and _LOOP_OR_BRANCH.match(code):
            end = text.find("\n", start)
            end = len(text) if end == -1 else end
            pieces.append(text[last:start])
            pieces.append(" " * (end - start))
            last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def _pragma_line_starts(text: str) -> list[int]:
    """The start of every line that _PRAGMA_LINE matches, in order: a line whose text before a
    `pragma` is white space, one `#`, white space."""
    starts = []
    position = text.find("pragma")
    while position >= 0:
        start = text.rfind("\n", 0, position) + 1
        before = text[start:position]
        if before.strip() == "#":
            starts.append(start)
            newline = text.find("\n", position)      # (one match per line)
            if newline < 0:
                break
            position = text.find("pragma", newline)
        else:
            position = text.find("pragma", position + 6)
    return starts


def _code_before(text: str, line_start: int) -> str:
    """The code (comments after `//` dropped, stripped) of the last line before the line starting at
    `line_start` that has code and is not a preprocessor line."""
    end = line_start - 1              # the newline that ends the line before
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        code = _LINE_COMMENT.sub("", text[start:end]).strip()
        if code and not code.startswith("#"):
            return code
        end = start - 1
    return ""


_LINE_COMMENT = re.compile(r"//.*")


def _matching_paren(text: str, open_index: int):
    depth = 0
    for k in range(open_index, min(len(text), open_index + 4000)):
        ch = text[k]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return k
    return None


def _split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]

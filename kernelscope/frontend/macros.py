"""A small preprocessor that runs before parsing.

tree-sitter-cuda parses one file without its headers, so it cannot know what a macro means. Most of
the files it trips on trip through macros. This pass therefore does a subset of what `cpp` does,
on the file's own definitions and on `-D` definitions:

- resolves `#if/#ifdef/#ifndef/#elif/#else/#endif` where the condition is decidable (device pass:
  `__CUDA_ARCH__` and `__CUDACC__` are defined); undecidable conditions take their first branch;
  lines of branches not taken are blanked, so line numbers never move;
- expands object-like and function-like macros of the file in code (not in directives), with the
  standard rule that a macro is not re-expanded inside its own expansion;
- blanks unknown qualifier macros (`HOST_DEVICE float f()`), and adds the `;` that a statement macro
  (`CHECK(x)` on a line of its own) leaves out.

Every output character remembers the original offset it came from (`PositionMap`), so diagnostics
point at the user's line and column, not at the expansion.
"""

from __future__ import annotations

import bisect
import re
from itertools import accumulate, groupby, repeat
from operator import add
from dataclasses import field
from functools import lru_cache
from typing import NamedTuple

from kernelscope.model import SourceError
from kernelscope.records import record

# How much text expansion may produce, relative to the input, before we stop expanding: guards
# against exponential macro bombs.
MAX_EXPANSION_FACTOR = 20
MAX_EXPANSION_DEPTH = 64
MAX_CALL_LINES = 200       # how far a macro call's arguments may run over lines
PLAIN, CONSTANTS, EXPAND = 0, 1, 2   # how a line is preprocessed (see _line_chunks)
# An expansion's text is emitted as one piece, and so are its stretches without macro names, rather
# than a piece per token: every offset of it maps to the macro name's offset either way, so only
# the position map's number of entries differs (tests/test_prefast5_expansion_pieces.py compares).
JOIN_EXPANSION_PIECES = True
_NUMBER_BODY = re.compile(r"^\(?-?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?)[uUlLfF]*\)?$")

# The tokeniser's reference pattern: what each token kind is (TOKENS below is the same scan, faster).
# Only tests compile it (reference_token_pattern): at import it would cost every start-up ~0.8 ms.
TOKEN_SOURCE = (
    r"""
    (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<string>[uUL]?8?R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|[uUL]?8?"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|'[^'\\\n]*(?:\\.[^'\\\n]*)*'?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.'])*)
  | (?P<newline>\n)
  | (?P<space>[ \t\f\v\\]+)
  | (?P<punct>\#\#|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|::|\.\.\.|.)
    """,
    re.VERBOSE | re.DOTALL,
)


def reference_token_pattern() -> re.Pattern:
    return re.compile(*TOKEN_SOURCE)


# TOKEN_SOURCE with each alternative split so that it starts with a plain character or character class
# ahead of its group: the regex engine then skips an alternative whose first character cannot
# match without entering it, where the reference's alternatives each start with a group and are all
# tried (a third of the tokeniser's time). The alternatives are the reference's, in its order; an
# optional prefix (`[uUL]?8?` of a string, `\.?` of a number) becomes one alternative per prefix.
# tests/test_frontend_scans.py compares the two on every CUDA file and on random text.
_RAW_STRING = r'"(?P<{}>[^(\s]*)\(.*?\)(?P={})"'
_PLAIN_STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
_NUMBER_REST = r"(?:[eEpP][+-]|[A-Za-z0-9_.'])*"
TOKENS = re.compile(
    r"/(?P<comment>/[^\n]*|\*.*?(?:\*/|\Z))"
    r"|[uUL](?P<prefixed>8?R" + _RAW_STRING.format("delim1", "delim1") + r"|8?" + _PLAIN_STRING + ")"
    r"|8(?P<eight>R" + _RAW_STRING.format("delim2", "delim2") + "|" + _PLAIN_STRING + ")"
    r"|R(?P<raw>" + _RAW_STRING.format("delim3", "delim3") + ")"
    r"|(?P<quoted>" + _PLAIN_STRING + ")"
    r"|'(?P<char>[^'\\\n]*(?:\\.[^'\\\n]*)*'?)"
    r"|[A-Za-z_](?P<ident>[A-Za-z0-9_]*)"
    r"|[0-9](?P<number>" + _NUMBER_REST + ")"
    r"|\.[0-9](?P<fraction>" + _NUMBER_REST + ")"
    r"|\n(?P<newline>)"
    r"|[ \t\f\v\\](?P<space>[ \t\f\v\\]*)"
    r"|(?P<punct>\#\#|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|::|\.\.\.|.)",
    re.DOTALL,
)
# TOKENS' group that a match ends in -> the token's kind
_TOKEN_KINDS = {"comment": "comment", "prefixed": "string", "eight": "string", "raw": "string", "quoted": "string",
                "char": "string", "delim1": "string", "delim2": "string", "delim3": "string", "ident": "ident",
                "number": "number", "fraction": "number", "newline": "newline", "space": "space", "punct": "punct"}

QUALIFIER_KEYWORDS = {
    "__global__", "__device__", "__host__", "__forceinline__", "__noinline__", "inline", "static",
    "extern", "template", "const", "constexpr", "volatile", "unsigned", "signed", "void", "float",
    "double", "int", "long", "short", "char", "bool", "auto", "__launch_bounds__", "__shared__",
    "__constant__", "__restrict__", "struct", "class", "typename",
}

PREDEFINED = {
    "__CUDACC__": "1",
    "__NVCC__": "1",
    "__CUDACC_VER_MAJOR__": "13",
    "__CUDACC_VER_MINOR__": "0",
    "__cplusplus": "201703L",
}

_CAPS = re.compile(r"^[A-Z_][A-Z0-9_]*$")
_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*")
# a whole identifier that _CAPS matches and that has three characters or more
_CAPS_WORD = re.compile(r"\b[A-Z_][A-Z0-9_]{2,}\b")
# the same ending at a word's end, found anywhere (see _macro_words)
_CAPS_RUN = re.compile(r"[A-Z_][A-Z0-9_]{2,}\b")

# What _passes_through looks for (the tokeniser's white space is these characters and newlines):
# an ALL_CAPS word, at a word's end, followed by `(` ("called") or, three characters or more, by
# an identifier ("named"). A match that starts inside a word is dropped by the caller.
_SPACE_CHARS = " \t\n\f\v\\"
_ASCII_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ACTIVE_CAPS = re.compile(r"[A-Z_](?:(?P<called>[A-Z0-9_]*(?![A-Za-z0-9_])(?=[ \t\n\f\v\\]*\())"
                          r"|(?P<named>[A-Z0-9_]{2,}(?![A-Za-z0-9_])(?=[ \t\n\f\v\\]*[A-Za-z_])))")
# from the end of such a word: the next word, the word after it if one follows, and the character after those
_FOLLOWING = re.compile(r"[ \t\n\f\v\\]*([A-Za-z_][A-Za-z0-9_]*)[ \t\n\f\v\\]*"
                        r"(?:([A-Za-z_][A-Za-z0-9_]*)[ \t\n\f\v\\]*)?(.?)", re.DOTALL)
# the tokeniser's comments, plain strings and character literals (the same patterns, the same order)
_COMMENT_OR_LITERAL = re.compile(r"(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"?"
                                 r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'?", re.DOTALL)
_WORD_OR_DOT = _ASCII_WORD_CHARS | {"."}


def _previous_char(code: str, offset: int) -> str:
    """The last character before offset that is not the tokeniser's white space ('' for none)."""
    return code[:offset].rstrip(_SPACE_CHARS)[-1:]


def _code_only(chunk: str) -> str | None:
    """chunk with each comment a space and each string or character literal a `#` (a token that
    is neither a name nor a parenthesis), for _passes_through to read the ALL_CAPS words' neighbours
    from; None when the tokeniser could read a quote otherwise: in a raw string (`R"(...)"`) or
    in a number (a digit separator, `1'000`, after a word or number character). Elsewhere a quote
    or `//`, `/*` found by this scan from the left starts what the tokeniser's token there is."""
    if '"' not in chunk and "'" not in chunk and "/" not in chunk:
        return chunk
    if 'R"' in chunk:
        return None
    pieces = []
    last = 0
    for match in _COMMENT_OR_LITERAL.finditer(chunk):
        start = match.start()
        if chunk[start] == "'" and start and chunk[start - 1] in _WORD_OR_DOT:
            return None
        pieces.append(chunk[last:start])
        pieces.append(" " if match.lastgroup else "#")
        last = match.end()
    if not pieces:
        return chunk
    pieces.append(chunk[last:])
    return "".join(pieces)


def _starts_word(text: str, offset: int) -> bool:
    """Whether a word starts at text[offset] (what `\\b` before a word character tests)."""
    return offset == 0 or not (text[offset - 1].isalnum() or text[offset - 1] == "_")


# Each ASCII character's shape for _shaped_caps_words: "A" for what an ALL_CAPS word is made of
# (upper-case letters, digits, `_`), "a" for lower-case letters (the other word characters),
# " " for the rest. A bytes table: the text is ASCII, and bytes.translate reads a byte's shape from
# a 256-byte table, where str.translate looks each character up in a mapping (a sixth of the
# preprocessor's cost on the realistic file). The bytes above 127 never occur.
_WORD_SHAPES = bytes(ord("A") if chr(code).isupper() or chr(code).isdigit() or chr(code) == "_"
                     else ord("a") if chr(code).islower() else ord(" ") for code in range(128)) + b" " * 128
# A whole word of three "A" or more in shaped text. The look-behind comes after the first three
# characters so that the pattern starts with a literal, which the regex engine finds by a fast
# search, where a character class first (`[A-Z_]`) is tested by the engine's charset code at every
# character: a third of the cost of the character-class scan.
_SHAPED_CAPS = re.compile(rb"AAA(?<![Aa]AAA)A*(?![Aa])")


def _shaped_caps_words(piece: str, before: int, start: int) -> list:
    """(start, end, word) of the ALL_CAPS words of three characters or more (_CAPS_WORD) in
    piece = text[before:end] (ASCII) that start at `start` or later: `before` is start, or the
    character before it, which says whether a word starts at `start`. A whole word of shape "A" is
    one unless it starts with a digit."""
    shaped = piece.encode("ascii").translate(_WORD_SHAPES)
    hits = []
    for match in _SHAPED_CAPS.finditer(shaped, start - before):
        first, last = match.span()
        if piece[first] > "9":
            hits.append((before + first, before + last, piece[first:last]))
    return hits


def _is_word_char(char: str) -> bool:
    """Whether char is a word character (what `\\w` matches)."""
    return char.isalnum() or char == "_"


def _named_words(text: str, start: int, end: int, names: frozenset) -> list:
    """(start, end, word) of the whole-word occurrences of names in text[start:end] (ASCII), by
    str.find: a few names, each found by a fast search, where one pattern of them all is tried at
    every character."""
    hits = []
    for name in names:
        size = len(name)
        position = text.find(name, start, end)
        while position >= 0:
            after = position + size
            if (after == end or not _is_word_char(text[after])) and _starts_word(text, position):
                hits.append((position, after, name))
            position = text.find(name, after, end)
    return hits


@record
class Macro:
    name: str
    body: str
    params: list | None = None      # None for object-like macros
    variadic: bool = False
    line: int = 0
    _tokens: list | None = None

    @property
    def tokens(self) -> list:
        """The replacement list, tokenised once."""
        if self._tokens is None:
            self._tokens = tokenize(self.body)
        return self._tokens


class Token(NamedTuple):
    kind: str
    text: str
    start: int                      # offset in the text the token came from


class PositionMap:
    """Maps offsets in the expanded text back to offsets in the original text."""

    def __init__(self):
        self._out_starts: list[int] = []
        self._orig_starts: list[int] = []
        self._verbatim: list[bool] = []

    def add(self, out_start: int, orig_start: int, verbatim: bool) -> None:
        if verbatim and self._verbatim and self._verbatim[-1] and \
                orig_start - self._orig_starts[-1] == out_start - self._out_starts[-1]:
            return  # continues the previous verbatim stretch
        self._out_starts.append(out_start)
        self._orig_starts.append(orig_start)
        self._verbatim.append(verbatim)

    def original(self, out_offset: int) -> int:
        i = bisect.bisect_right(self._out_starts, out_offset) - 1
        if i < 0:
            return out_offset
        if self._verbatim[i]:
            return self._orig_starts[i] + (out_offset - self._out_starts[i])
        return self._orig_starts[i]


@record
class Preprocessed:
    text: str                       # what the parser sees
    original: str                   # the normalised input
    positions: PositionMap
    macros: dict
    errors: list = field(default_factory=list)
    _line_starts: list = field(default_factory=list)
    _line_cols: dict = field(default_factory=dict)     # offset -> line_col's answer, once asked
    # line_col's last piece of the expanded text, (start, end, shift, fixed): its offsets map to
    # offset + shift (a verbatim piece) or all to `fixed` (shift None, an expansion)
    _last_piece: tuple = field(default=(0, -1, 0, 0), repr=False, compare=False)
    # line_col's last line, (first offset, first offset of the next, 1-based number)
    _last_line: tuple = field(default=(0, -1, 0), repr=False, compare=False)

    def line_col(self, out_offset: int) -> tuple[int, int]:
        """1-based line and column in the original file of an offset in the expanded text. A third
        of the walk's asks are of an offset asked before (a node's access, its arithmetic and its
        call are recorded at its start): those are looked up, where the two bisections over
        lists of thousands of ints cost a few thousand instructions."""
        known = self._line_cols.get(out_offset)
        if known is not None:
            return known
        starts = self._line_starts
        if not starts:
            starts = self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.original)]
        # The walk asks of offsets in text order: nine misses in ten lie in the piece of the
        # miss before, and two in five on its line; those are read from the two kept, without
        # the bisections (tests/test_walkfast15_line_col.py)
        start, end, shift, fixed = self._last_piece
        if start <= out_offset < end:
            offset = fixed if shift is None else out_offset + shift
        else:
            offset = self._map_through_piece(out_offset)
        start, end, line = self._last_line
        if not start <= offset < end:
            line = bisect.bisect_right(starts, offset)
            start = starts[line - 1]
            self._last_line = (start, starts[line] if line < len(starts) else _FAR, line)
        known = self._line_cols[out_offset] = (line, offset - start + 1)
        return known

    def original_offset(self, out_offset: int) -> int:
        """positions.original(out_offset), from line_col's last piece where the offset lies in it
        (a record's text is asked right after its line: FileUnit.original_text)."""
        start, end, shift, fixed = self._last_piece
        if start <= out_offset < end:
            return fixed if shift is None else out_offset + shift
        return self._map_through_piece(out_offset)

    def _map_through_piece(self, out_offset: int) -> int:
        """PositionMap.original(out_offset), keeping the piece it lies in as line_col's last one
        (the map is complete when a Preprocessed is made)."""
        positions = self.positions
        out_starts = positions._out_starts
        i = bisect.bisect_right(out_starts, out_offset) - 1
        end = out_starts[i + 1] if i + 1 < len(out_starts) else _FAR
        if i < 0:
            self._last_piece = (-_FAR, end, 0, 0)
            return out_offset
        start = out_starts[i]
        if positions._verbatim[i]:
            shift = positions._orig_starts[i] - start
            self._last_piece = (start, end, shift, 0)
            return out_offset + shift
        fixed = positions._orig_starts[i]
        self._last_piece = (start, end, None, fixed)
        return fixed


_FAR = 1 << 62      # past any offset (an end of line_col's last piece or line that has none)


def tokenize(text: str, base: int = 0) -> list[Token]:
    # (tuple.__new__ builds each Token without the Python-level __new__ of a NamedTuple: a quarter
    # of the tokeniser's time on macro-heavy files)
    kinds = _TOKEN_KINDS
    return [_new_token(Token, (kinds[m.lastgroup], m.group(0), base + m.start())) for m in TOKENS.finditer(text)]


_new_token = tuple.__new__


_TYPE_WORDS = frozenset("""char short int long float double signed unsigned bool void size_t half
    __half int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t""".split())


def _redundant_parentheses(result: list, body: list, k: int, argument: list) -> int | None:
    """`(_nx) * (_j)` with nx and j for the parameters: tree-sitter reads `(nx) * (j)` as a cast of
    `*(j)` to a type nx. A parameter that stands alone in parentheses and receives one variable or
    number loses them (the caller then skips the `)` at the returned index); `f(_x)` keeps its call."""
    words = [t for t in argument if t.kind not in ("space", "newline")]
    if len(words) != 1 or words[0].kind not in ("ident", "number") or words[0].text in _TYPE_WORDS:
        return None
    opening = len(result) - 1
    while opening >= 0 and result[opening].kind in ("space", "newline"):
        opening -= 1
    closing = _next_significant(body, k + 1)
    if opening < 0 or result[opening].text != "(" or closing is None or body[closing].text != ")":
        return None
    before = opening - 1
    while before >= 0 and result[before].kind in ("space", "newline"):
        before -= 1
    if before >= 0 and (result[before].kind in ("ident", "number") or result[before].text in (")", "]")):
        return None
    del result[opening:]
    result.append(Token("space", " ", 0))
    argument.append(Token("space", " ", 0))
    return closing


def parse_define(body_text: str, line: int) -> Macro | None:
    """`NAME body` or `NAME(a, b) body` (text after `#define`)."""
    parts = _define_parts(body_text)
    if parts is None:
        return None
    name, body, params, variadic = parts
    if params is None:
        return Macro(name, body, None, line=line)
    return Macro(name, body, list(params), variadic=variadic, line=line)


@lru_cache(maxsize=1024)
def _define_parts(body_text: str) -> tuple | None:
    """parse_define's name, body, parameters (a tuple, or None for an object-like macro) and whether
    the macro is variadic, kept by the text after `#define`: files define the same few macros
    again and again (`#define TILE 16` ... `#undef TILE` per kernel), and a body with a comment is
    tokenised to drop it."""
    match = _DEFINE_HEAD.match(body_text)
    if not match:
        return None
    name = match.group(1)
    rest = _without_comments(body_text[match.end():])
    if match.group(2) is None:
        return name, rest.strip(), None, False
    raw = [p.strip() for p in match.group(2)[1:-1].split(",") if p.strip()]
    variadic = bool(raw) and raw[-1].endswith("...")
    params = [p if p != "..." else "__VA_ARGS__" for p in raw]
    if variadic and params[-1].endswith("...") and params[-1] != "...":
        params[-1] = params[-1][:-3].strip()
    return name, rest.strip(), tuple(params), variadic


_DEFINE_HEAD = re.compile(r"\s*([A-Za-z_]\w*)(\([^)]*\))?")


def _without_comments(text: str) -> str:
    """text with each comment a space: comments are not part of a macro's replacement (a `//` one
    would swallow the rest of the line). Every comment starts with `/`, so text without one is
    returned as it is, untokenised (the tokens of a text are all of its characters, in order)."""
    if "/" not in text:
        return text
    return "".join(t.text if t.kind != "comment" else " " for t in tokenize(text))


@lru_cache(maxsize=16)
def _predefined_macros(arch: str) -> tuple[dict, tuple]:
    """The predefined macros for an arch (PREDEFINED and `__CUDA_ARCH__`), and what
    Preprocessor._other_macro_names answers for them alone: made once per arch, where each file's
    Preprocessor made them anew (a fifth of a small file's preprocessing). Every Preprocessor copies
    the table, and shares the Macros, which nothing changes but for the tokens of a body, kept once
    found (the same for every file)."""
    digits = "".join(ch for ch in arch if ch.isdigit()) or "90"
    macros = {name: Macro(name, value) for name, value in {**PREDEFINED, "__CUDA_ARCH__": str(int(digits) * 10)}.items()}
    other = frozenset(name for name in macros if not _CAPS_WORD.fullmatch(name))
    return macros, (other, all(name.isidentifier() for name in other))


class _KeptAnswers(dict):
    """function(key), computed once per key and kept: `kept[key]`."""

    def __init__(self, function):
        super().__init__()
        self._function = function

    def __missing__(self, key):
        answer = self[key] = self._function(key)
        return answer


class Preprocessor:
    def __init__(self, defines: dict | None = None, arch: str = "sm_90"):
        predefined, predefined_other_names = _predefined_macros(arch)
        self.macros: dict[str, Macro] = dict(predefined)
        for name, value in (defines or {}).items():
            self.macros[name] = Macro(name, str(value))
        self.errors: list[SourceError] = []
        self._offset_notes: list[tuple[int, str]] = []   # (original offset, message), located at the end
        self._budget = 0
        self._word_patterns: dict = {}   # macro names that are not ALL_CAPS -> _macro_words' pattern
        self._other_names_of: set | None = None if defines else set(predefined)   # what _other_names was found for
        self._other_names: tuple = predefined_other_names
        self._newline_starts: list | None = None       # run()'s text's line starts, where it breaks lines at newlines only
        self._other_names_by_names: dict = {}     # a frozenset of macro names -> _other_names for it
        # whether an object-like macro's body is a number (_NUMBER_BODY), kept by the body: a file
        # uses its few constants on many lines, and a dict look-up costs a tenth of the match
        self._numeric_bodies = _KeptAnswers(lambda body: _NUMBER_BODY.match(body) is not None).__getitem__
        self._argument_tokens: dict[str, list] = {}     # a macro-free argument's text -> its tokens

    # -- public -----------------------------------------------------------------------------
    def run(self, text: str) -> Preprocessed:
        self._budget = max(200_000, len(text) * MAX_EXPANSION_FACTOR)
        out: list[str] = []
        positions = PositionMap()
        out_len = 0
        line_starts = _line_starts(text)
        self._newline_starts = line_starts if _breaks_lines_at_newlines_only(text) else None
        stack: list[list[bool]] = []  # per #if: [this branch active, some branch taken, parent active]
        active = True
        code_lines: list[tuple[int, int]] = []  # spans of active code to expand, merged

        out_starts, orig_starts, verbatims = positions._out_starts, positions._orig_starts, positions._verbatim

        def emit(piece: str, orig: int, verbatim: bool = True):
            nonlocal out_len
            if not piece:
                return
            # (PositionMap.add written out, on its lists: thousands of pieces a large file)
            if not (verbatim and verbatims and verbatims[-1] and
                    orig - orig_starts[-1] == out_len - out_starts[-1]):
                out_starts.append(out_len)
                orig_starts.append(orig)
                verbatims.append(verbatim)
            out.append(piece)
            out_len += len(piece)

        def flush_code():
            if code_lines:
                start, end = code_lines[0][0], code_lines[-1][1]
                self._expand_region(text, start, end, emit)
                code_lines.clear()

        def lines_between(start: int, end: int):
            # lines of code (not directives) from start to end: expanded when active, else blanked
            if start >= end:
                return
            if active:
                code_lines.append((start, end))
            else:
                flush_code()
                emit(_blank(text[start:end]), start)

        position = 0
        for logical_start, logical_end in _directive_lines(text):
            lines_between(position, logical_start)
            position = logical_end
            line_text = text[logical_start:logical_end]
            flush_code()
            directive, _, rest = _split_directive(line_text.lstrip())
            line_no = bisect.bisect_right(line_starts, logical_start)
            keep = self._directive(directive, rest, line_no, stack, active)
            active = stack[-1][0] if stack else True  # a branch is only taken inside an active parent
            if keep and active:
                emit(line_text, logical_start)
            else:
                emit(_blank(line_text), logical_start)
        lines_between(position, len(text))
        flush_code()
        if stack:
            self.errors.append(SourceError(len(line_starts), 1, "unterminated #if at end of file"))
        for offset, message in self._offset_notes:
            line = bisect.bisect_right(line_starts, offset)
            self.errors.append(SourceError(line, offset - line_starts[line - 1] + 1, message))
        expanded = "".join(out)
        return Preprocessed(expanded, text, positions, self.macros, self.errors, line_starts)

    # -- directives -------------------------------------------------------------------------
    def _directive(self, directive: str, rest: str, line: int, stack: list, active: bool) -> bool:
        """Update state for one directive; return whether its line stays in the parser's text."""
        if directive in ("if", "ifdef", "ifndef"):
            if not active:
                stack.append([False, True, False])
                return False
            if directive == "if":
                taken = self._condition(rest, line)
            else:
                defined = rest.split()[0] in self.macros if rest.split() else False
                taken = defined if directive == "ifdef" else not defined
            stack.append([taken, taken, True])
            return False
        if directive in ("elif", "else", "elifdef", "elifndef"):
            if not stack:
                self.errors.append(SourceError(line, 1, f"#{directive} without #if"))
                return False
            frame = stack[-1]
            if not frame[2] or frame[1]:
                frame[0] = False
            elif directive == "else":
                frame[0] = frame[1] = True
            else:
                if directive == "elif":
                    taken = self._condition(rest, line)
                else:
                    defined = rest.split()[0] in self.macros if rest.split() else False
                    taken = defined if directive == "elifdef" else not defined
                frame[0] = frame[1] = taken
            return False
        if directive == "endif":
            if stack:
                stack.pop()
            else:
                self.errors.append(SourceError(line, 1, "#endif without #if"))
            return False
        if not active:
            return False
        if directive == "define":
            macro = parse_define(rest, line)
            if macro is not None:
                self.macros[macro.name] = macro
            return True
        if directive == "undef":
            self.macros.pop(rest.strip(), None)
            return True
        return directive in ("include", "pragma", "line", "error", "warning", "")

    def _condition(self, expression: str, line: int) -> bool:
        """Evaluate an #if condition. Undecidable conditions take the branch (documented)."""
        expression = re.sub(r"//.*|/\*.*?\*/", " ", expression)
        expression = re.sub(
            r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
            lambda m: "1" if (m.group(1) or m.group(2)) in self.macros else "0",
            expression,
        )
        pieces: list[str] = []
        self._expand_tokens(tokenize(expression), set(), 0, lambda s, o, v=True: pieces.append(s), 0)
        value = _eval_pp_expression("".join(pieces))
        if value is None:
            self.errors.append(SourceError(line, 1, f"cannot decide #if {expression.strip()!r}; "
                                                    "analysing its first branch"))
            return True
        return bool(value)

    # -- expansion --------------------------------------------------------------------------
    def _expand_region(self, text: str, start: int, end: int, emit) -> None:
        hits = self._macro_words(text, start, end)
        if not hits:
            emit(text[start:end], start, True)
            return
        # Only the lines that use a macro (with a line of context on each side, and the lines a call's
        # arguments run over) are tokenised; the rest is copied as it is.
        offsets = self._region_line_offsets(text, start, end)     # (each line's start, then `end`)
        for first, last, kind in self._line_chunks(text, offsets, self._line_kinds(hits, offsets)):
            chunk_start, chunk_end = offsets[first], offsets[last]
            if kind == PLAIN:
                emit(text[chunk_start:chunk_end], chunk_start, True)
            elif kind == CONSTANTS:
                self._substitute_constants(text, chunk_start, chunk_end, hits, emit)
            elif self._passes_through(text, chunk_start, chunk_end, hits):
                emit(text[chunk_start:chunk_end], chunk_start, True)
            else:
                tokens = self._fix_qualifier_macros(tokenize(text[chunk_start:chunk_end], chunk_start))
                self._expand_tokens(tokens, set(), 0, emit, top_level=True)

    def _region_line_offsets(self, text: str, start: int, end: int) -> list[int]:
        """The start of each line of text[start:end] as str.splitlines cuts it, then `end`. Where
        the text breaks lines at newlines only (run() found no other line break of splitlines'),
        those are the file's line starts from `start` on (a region starts at a line start), sliced
        from the list run() made, where splitting each region and summing its lines' lengths cost
        a tenth of the preprocessor on the realistic file."""
        starts = self._newline_starts
        if starts is not None:
            first = bisect.bisect_left(starts, start)
            if first < len(starts) and starts[first] == start:
                offsets = starts[first:bisect.bisect_left(starts, end, first)]
                offsets.append(end)
                return offsets
        lines = text[start:end].splitlines(keepends=True)
        return list(accumulate(map(len, lines), initial=start))

    def _passes_through(self, text: str, start: int, end: int, hits: list) -> bool:
        """Whether expanding text[start:end] (lines to tokenise) would give it back unchanged, told
        without tokenising it: most such chunks of real files are there for an unknown ALL_CAPS
        word (a typedef's name, a constant from a header, a word in a comment) that the expansion
        leaves as it is. An unknown name changes the text in two ways only: a statement macro
        (`CHECK(x)`: a `(` next) or a qualifier macro (`HOST_DEVICE float f()`: an identifier
        next, see _is_qualifier_position). The test is conservative: a chunk with a macro name, a
        raw string or a quote after a word or number (see _code_only), or an ALL_CAPS word in any
        position where one of _is_qualifier_position's rules could hold goes the general way.
        tests/test_prefast5_pass_through.py compares the two."""
        macros = self.macros
        for first, _, word in hits[bisect.bisect_left(hits, (start,)):]:
            if first >= end:
                break
            if word in macros:
                return False
        chunk = _code_only(text[start:end])
        if chunk is None:
            return False
        for match in _ACTIVE_CAPS.finditer(chunk):
            if match.start() and chunk[match.start() - 1] in _ASCII_WORD_CHARS:
                continue                # (inside a longer word: no token of its own)
            if match.lastgroup == "called":
                return False            # a statement macro, perhaps
            if self._may_be_qualifier(chunk, match):
                return False
        return True

    @staticmethod
    def _may_be_qualifier(code: str, match) -> bool:
        """Whether _is_qualifier_position could hold for the ALL_CAPS word `match` of `code` (no
        comments, no literals: see _code_only) followed by an identifier, read from the next two
        words, the character after them and the last character before the word."""
        first, second, after = _FOLLOWING.match(code, match.end()).groups()
        if first in QUALIFIER_KEYWORDS:
            return True                             # HOST_DEVICE float f()
        if _CAPS.match(first):
            return _previous_char(code, match.start()) in ("", ";", "{", "}")   # HOST_DEVICE FORCE_INLINE
        if second is not None:
            return after == "("                     # FORCE_INLINE Vec3 add(
        if after == "(":
            return True                             # void LAUNCH_BOUNDS kernel(
        if after and after in ",)=;[":
            return _previous_char(code, match.start()) in ("*", "&")      # float* RESTRICT p,
        return False

    def _macro_words(self, text: str, start: int, end: int) -> list:
        """The words of text[start:end] that make a line more than plain code, as (start, end,
        word) in text order: names of macros and unknown ALL_CAPS names (three characters or more:
        macros from a header, perhaps). ASCII text is read through its shapes (_shaped_caps_words,
        _named_words); other text by regular expressions (_macro_words_by_patterns, what the
        shapes' scan must agree with: tests/test_prefast6_macro_words.py)."""
        before = start - 1 if start else start      # (one character before: does a word start at `start`?)
        other, plain = self._other_macro_names()
        piece = text[before:end]
        if not plain or not piece.isascii():
            return self._macro_words_by_patterns(text, start, end)
        hits = _shaped_caps_words(piece, before, start)
        if other:
            named = _named_words(text, start, end, other)
            if named:
                hits += named
                hits.sort()
        return hits

    def _other_macro_names(self) -> tuple[frozenset, bool]:
        """The macro names that are not ALL_CAPS words (three characters or more), which the
        ALL_CAPS scan does not find: `__cplusplus` and the file's lower-case macros; and whether
        they are all identifiers (a `-D` name need not be), which _named_words needs. Kept until
        the set of names changes: most regions of a file share it."""
        names = self.macros.keys()
        if names != self._other_names_of:
            # (a file's `#define X`/`#undef X` pairs bring the same few sets of names back again
            # and again: each set's answer is kept, by the set)
            known = self._other_names_of = frozenset(names)
            found = self._other_names_by_names.get(known)
            if found is None:
                other = frozenset(name for name in names if not _CAPS_WORD.fullmatch(name))
                found = self._other_names_by_names[known] = other, all(name.isidentifier() for name in other)
            self._other_names = found
        return self._other_names

    def _macro_words_by_patterns(self, text: str, start: int, end: int) -> list:
        """_macro_words by two regular-expression scans, one for ALL_CAPS words and one for the
        other macro names, where splitting every line into words cost more than the expansion.
        (One scan with both as alternatives cost twice as much: a pattern that starts with a
        character class alone lets the regex engine skip to the next candidate character at once.)
        Neither starts with \\b, for the same reason; a match that starts inside a word is dropped.
        A word-start match of either scan can never lie inside a match of the other, so together
        they find what one scan with both alternatives finds."""
        hits = [(match.start(), match.end(), match.group()) for match in _CAPS_RUN.finditer(text, start, end)
                if _starts_word(text, match.start())]
        other, _ = self._other_macro_names()
        if other:
            pattern = self._word_patterns.get(other)
            if pattern is None:
                names = "|".join(re.escape(name) for name in sorted(other, key=len, reverse=True))
                pattern = self._word_patterns[other] = re.compile(rf"(?:{names})\b")
            named = [(match.start(), match.end(), match.group()) for match in pattern.finditer(text, start, end)
                     if _starts_word(text, match.start())]
            if named:
                hits += named
                hits.sort()
        return hits

    def _line_kinds(self, hits: list, offsets: list) -> list[int]:
        """How each line (starting at its offset in `offsets`) is preprocessed, from its macro words."""
        kinds = [PLAIN] * (len(offsets) - 1)
        numeric = self._numeric_bodies
        for first, _, word in hits:
            line = bisect.bisect_right(offsets, first) - 1
            if kinds[line] == EXPAND:
                continue
            macro = self.macros.get(word)
            if macro is not None and macro.params is None and numeric(macro.body):
                kinds[line] = CONSTANTS
            else:
                kinds[line] = EXPAND      # a macro to expand, or an unknown ALL_CAPS name
        return kinds

    def _substitute_constants(self, text: str, start: int, end: int, hits: list, emit) -> None:
        """Lines text[start:end] whose only macros are numeric constants (`#define TILE 32`):
        replace the names in place, without tokenising. `hits` are the region's macro words
        (_macro_words), among them every macro name these lines use."""
        position = start
        for first, last, word in hits[bisect.bisect_left(hits, (start,)):]:
            if first >= end:
                break
            macro = self.macros.get(word)
            if macro is None:
                continue
            emit(text[position:first], position, True)
            emit(f" {macro.body} ", first, False)
            position = last
        emit(text[position:end], position, True)

    def _line_chunks(self, text: str, offsets: list[int], kinds: list[int]):
        """(first line, end line, kind) runs covering all lines in order (line k is
        text[offsets[k]:offsets[k + 1]]): PLAIN lines are copied, CONSTANTS lines get their numeric
        macros substituted, EXPAND lines (with a line of context on each side and the lines a
        call's arguments run over) are tokenised and expanded. The EXPAND lines are found by
        list.index and the runs by groupby, in C: most lines of a region are PLAIN."""
        count = len(kinds)
        wanted = list(kinds)
        index = _index_or_end(kinds, EXPAND, 0)
        while index < count:
            low = max(0, index - 1)
            high = index
            depth = text.count("(", offsets[index], offsets[index + 1]) - text.count(")", offsets[index], offsets[index + 1])
            while depth > 0 and high + 1 < count and high - index < MAX_CALL_LINES:
                high += 1
                depth += text.count("(", offsets[high], offsets[high + 1]) - text.count(")", offsets[high], offsets[high + 1])
            high = min(count - 1, high + 1)
            wanted[low:high + 1] = repeat(EXPAND, high + 1 - low)
            index = _index_or_end(kinds, EXPAND, index + 1)
        first = 0
        for kind, run in groupby(wanted):
            last = first + len(list(run))
            yield first, last, kind
            first = last

    def _expand_tokens(self, tokens: list[Token], hidden: set, depth: int, emit, origin=None,
                       top_level: bool = False) -> None:
        """Expand `tokens`; `origin` is the original offset that an expansion's output maps to."""
        i = 0
        n = len(tokens)
        macros = self.macros
        while i < n:
            token = tokens[i]
            if origin is None and (token.kind != "ident" or (token.text not in macros and not _CAPS.match(token.text))):
                # a stretch of plain code: emit it in one piece
                run_start = i
                while i < n and (tokens[i].kind != "ident" or (tokens[i].text not in macros and
                                                               not _CAPS.match(tokens[i].text))):
                    i += 1
                emit("".join(t.text for t in tokens[run_start:i]), tokens[run_start].start, True)
                continue
            if origin is not None and JOIN_EXPANSION_PIECES and (token.kind != "ident" or token.text not in macros):
                # a stretch of an expansion without macro names: one piece too (every caller joins
                # what an expansion emits, all of it mapped to `origin`)
                run_start = i
                while i < n and (tokens[i].kind != "ident" or tokens[i].text not in macros):
                    i += 1
                emit("".join(t.text for t in tokens[run_start:i]), origin, False)
                continue
            where = token.start if origin is None else origin
            macro = self.macros.get(token.text) if token.kind == "ident" else None
            if macro is None and top_level and token.kind == "ident" and _CAPS.match(token.text):
                after = self._unknown_statement_macro(tokens, i)
                if after:
                    # We cannot know what it expands to (often declarations the grammar cannot
                    # read as a call), so it becomes an empty statement in the same place.
                    for piece in tokens[i:after]:
                        emit(_blank(piece.text), piece.start, True)
                    emit(";", tokens[after - 1].start, False)
                    i = after
                    continue
            if macro is None or token.text in hidden or depth > MAX_EXPANSION_DEPTH or self._budget <= 0:
                if token.kind == "ident" and depth > MAX_EXPANSION_DEPTH and macro is not None:
                    self._note_once(where, "macro expansion nested too deeply; left unexpanded")
                emit(token.text, where, origin is None)
                i += 1
                continue
            if macro.params is None:
                body = macro.tokens
                self._emit_expansion(body, hidden | {macro.name}, depth, emit, where)
                i += 1
                continue
            # function-like: needs a following '('
            j = i + 1
            while j < n and tokens[j].kind in ("space", "newline", "comment"):
                j += 1
            if j >= n or tokens[j].text != "(":
                emit(token.text, where, origin is None)
                i += 1
                continue
            args, after = _collect_arguments(tokens, j)
            if args is None:
                emit(token.text, where, origin is None)
                i += 1
                continue
            body = self._substitute(macro, args, hidden, depth)
            self._emit_expansion(body, hidden | {macro.name}, depth, emit, where)
            if top_level and self._is_statement_macro(tokens, i, after):
                emit(";", where, False)
            i = after

    def _emit_expansion(self, body: list[Token], hidden: set, depth: int, emit, where: int) -> None:
        pieces: list[str] = []
        self._expand_tokens(body, hidden, depth + 1, lambda s, o, v=True: pieces.append(s), where)
        expansion = "".join(pieces)
        self._budget -= len(expansion)
        if self._budget < 0:
            self._note_once(where, "macro expansion too large; remaining macros left unexpanded")
        # Surround with spaces so that pasted tokens never glue onto their neighbours.
        if JOIN_EXPANSION_PIECES:
            emit(f" {expansion} ", where, False)
        else:
            emit(" ", where, False)
            for piece in pieces:
                emit(piece, where, False)
            emit(" ", where, False)

    def _substitute(self, macro: Macro, args: list[list[Token]], hidden: set, depth: int) -> list[Token]:
        params = macro.params or []
        if macro.variadic and len(args) > len(params):
            head = args[: len(params) - 1]
            tail: list[Token] = []
            for k, arg in enumerate(args[len(params) - 1:]):
                if k:
                    tail.append(Token("punct", ",", 0))
                tail.extend(arg)
            args = head + [tail]
        if len(args) == 1 and not any(t.kind not in ("space", "newline") for t in args[0]) and not params:
            args = []
        by_name = {name: args[k] if k < len(args) else [] for k, name in enumerate(params)}
        body = macro.tokens
        result: list[Token] = []
        k = 0
        while k < len(body):
            token = body[k]
            if token.text == "#" and k + 1 < len(body):
                nxt = _next_significant(body, k + 1)
                if nxt is not None and body[nxt].text in by_name:
                    text = "".join(t.text for t in by_name[body[nxt].text]).strip()
                    result.append(Token("string", '"' + text.replace('"', '\\"') + '"', 0))
                    k = nxt + 1
                    continue
            if token.kind == "ident" and token.text in by_name:
                pasting = _adjacent_paste(body, k)
                if pasting:
                    result.extend(t for t in by_name[token.text] if t.kind not in ("space", "newline"))
                else:
                    tokens = self._expanded_argument(by_name[token.text], hidden, depth)
                    closing = _redundant_parentheses(result, body, k, tokens)
                    if closing is not None:
                        k = closing
                    result.extend(tokens)
                k += 1
                continue
            if token.text == "##":
                while result and result[-1].kind == "space":
                    result.pop()
                k += 1
                while k < len(body) and body[k].kind == "space":
                    k += 1
                if result and k < len(body):
                    left = result.pop()
                    right = body[k]
                    right_text = "".join(t.text for t in by_name[right.text]) if right.text in by_name else right.text
                    result.extend(tokenize(left.text + right_text.strip()))
                    k += 1
                continue
            result.append(token)
            k += 1
        return result

    def _expanded_argument(self, argument: list[Token], hidden: set, depth: int) -> list[Token]:
        """A macro argument as it stands in the replacement: macro-expanded, then tokenised again.
        An argument without a macro name expands to its own text, whatever `hidden`, the depth or
        the budget, so its tokens are kept by that text (`i`, `x + 1`: the same few arguments
        recur through a file's calls), and a list of them is handed out each time (the caller
        may add to it)."""
        macros = self.macros
        for token in argument:
            if token.kind == "ident" and token.text in macros:
                expanded: list[str] = []
                self._expand_tokens(argument, hidden, depth + 1, lambda s, o, v=True: expanded.append(s), 0)
                return tokenize("".join(expanded))
        text = "".join([token.text for token in argument])
        tokens = self._argument_tokens.get(text)
        if tokens is None:
            tokens = self._argument_tokens[text] = tokenize(text)
        return list(tokens)

    def _unknown_statement_macro(self, tokens: list[Token], i: int) -> int:
        """For `CHECK(x)` of a macro we cannot see, on its own line with no `;`: index after ')'."""
        j = _next_significant(tokens, i + 1)
        if j is None or tokens[j].text != "(":
            return 0
        args, after = _collect_arguments(tokens, j)
        if args is None or not self._is_statement_macro(tokens, i, after):
            return 0
        return after

    def _is_statement_macro(self, tokens: list[Token], name_index: int, after: int) -> bool:
        """`CHECK(x)` alone on its line, between statements, with no `;` after it."""
        prev = name_index - 1
        while prev >= 0 and tokens[prev].kind in ("space", "comment"):
            prev -= 1
        if prev >= 0 and tokens[prev].kind != "newline":
            return False
        before = _previous_significant(tokens, name_index - 1)
        if before is not None and tokens[before].text not in (";", "{", "}", ")"):
            return False
        nxt = _next_significant(tokens, after)
        line_ends = after >= len(tokens) or any(t.kind == "newline" for t in tokens[after:nxt if nxt else len(tokens)])
        if not line_ends:
            return False
        return nxt is None or tokens[nxt].text not in (";", ",", ")", "?", ":", ".", "->", "=", "+", "-", "*", "/", "&&", "||", "[", "<<<")

    def _fix_qualifier_macros(self, tokens: list[Token]) -> list[Token]:
        """Blank unknown ALL_CAPS identifiers that stand where a qualifier would: `HOST_DEVICE float f()`,
        `void LAUNCH_BOUNDS k(...)`, `float* RESTRICT p`. Repeats so that chains of them go too."""
        blank: set[int] = set()
        changed = True
        while changed:
            changed = False
            significant = [k for k, t in enumerate(tokens)
                           if t.kind not in ("space", "newline", "comment") and k not in blank]
            for pos, k in enumerate(significant):
                token = tokens[k]
                if token.kind != "ident" or not _CAPS.match(token.text) or len(token.text) < 3 or \
                        token.text in self.macros:
                    continue
                nxt = [tokens[j] for j in significant[pos + 1: pos + 4]]
                prev = tokens[significant[pos - 1]] if pos > 0 else Token("punct", ";", 0)
                if self._is_qualifier_position(prev, nxt):
                    blank.add(k)
                    changed = True
        if not blank:
            return tokens
        return [Token("space", " " * len(t.text), t.start) if k in blank else t for k, t in enumerate(tokens)]

    def _is_qualifier_position(self, prev: Token, nxt: list[Token]) -> bool:
        if not nxt:
            return False
        declaration_start = prev.text in (";", "{", "}", ">", "*", "&", ",", "(") or prev.text in QUALIFIER_KEYWORDS
        if nxt[0].text in QUALIFIER_KEYWORDS and nxt[0].text != "const" and prev.text not in ("(", ","):
            return True
        if prev.text in QUALIFIER_KEYWORDS - {"const", "template"} and len(nxt) >= 2 and \
                nxt[0].kind == "ident" and nxt[1].text == "(":
            return True  # void LAUNCH_BOUNDS kernel(
        if prev.text in ("*", "&") and nxt[0].kind == "ident" and len(nxt) >= 2 and nxt[1].text in (",", ")", "=", ";", "["):
            return True  # float* RESTRICT p
        if declaration_start and prev.text not in ("(", ",", "*", "&") and len(nxt) >= 3 and \
                nxt[0].kind == "ident" and nxt[1].kind == "ident" and nxt[2].text == "(":
            return True  # FORCE_INLINE Vec3 add(
        if declaration_start and prev.text in (";", "{", "}") and nxt[0].kind == "ident" and \
                _CAPS.match(nxt[0].text) and nxt[0].text not in self.macros:
            return True  # HOST_DEVICE FORCE_INLINE ...
        return False

    def _note_once(self, offset: int, message: str) -> None:
        if not any(note == message for _, note in self._offset_notes):
            self._offset_notes.append((offset, message))


def preprocess(text: str, defines: dict | None = None, arch: str = "sm_90") -> Preprocessed:
    return Preprocessor(defines, arch).run(text)


# -- helpers ------------------------------------------------------------------------------------

def _directive_lines(text: str):
    """(start, end) of each directive's logical line, end including the newline: backslash-newline
    continues a directive on the next line (which is then no line of its own). A directive's line
    is one whose first character other than white space is `#`: found from the `#` characters
    (str.find), where a regular expression anchored at every line start tried each offset of the
    text in turn."""
    length = len(text)
    position = text.find("#")
    while position >= 0:
        start = text.rfind("\n", 0, position) + 1
        prefix = text[start:position]
        if prefix and not prefix.isspace():
            # (no directive here, nor later on this line)
            newline = text.find("\n", position)
            position = -1 if newline < 0 else text.find("#", newline)
            continue
        newline = text.find("\n", start)
        while newline > 0 and text[newline - 1] == "\\":
            newline = text.find("\n", newline + 1)
        end = length if newline == -1 else newline + 1
        yield start, end
        position = text.find("#", end)


def _index_or_end(items: list, value, start: int) -> int:
    """The index of the first `value` in items from `start` on, len(items) if there is none."""
    try:
        return items.index(value, start)
    except ValueError:
        return len(items)


# the line breaks of str.splitlines other than "\n" ("\r\n" is "\r" then "\n")
_OTHER_LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _breaks_lines_at_newlines_only(text: str) -> bool:
    """Whether text.splitlines() cuts text only after its newlines (one fast search a character)."""
    return not any(char in text for char in _OTHER_LINE_BREAKS)


def _line_starts(text: str) -> list[int]:
    """0 and the offset after each newline of text. ASCII text (where a character is a byte) is
    searched by numpy, whose comparison and nonzero scan cost about a byte each, where splitting
    the text into lines made a string a line (a tenth of the preprocessor on the realistic file);
    other text is the running sum of its lines' lengths, each with its newline, summed in C."""
    if text.isascii():
        import numpy       # (imported by the analysis anyway; here only when a file is preprocessed)
        newlines = numpy.flatnonzero(numpy.frombuffer(text.encode("ascii"), numpy.uint8) == 10)
        newlines += 1
        return [0, *newlines.tolist()]
    lines = text.split("\n")
    lines.pop()         # (what follows the last newline starts no further line)
    return list(accumulate(map(add, map(len, lines), repeat(1)), initial=0))


def _split_directive(stripped: str) -> tuple[str, str, str]:
    body = stripped[1:].lstrip()
    match = re.match(r"(\w*)", body)
    name = match.group(1)
    rest = body[match.end():].replace("\\\n", " ")
    return name, " ", rest


def _blank(line: str) -> str:
    return re.sub(r"[^\n]", " ", line)


def _collect_arguments(tokens: list[Token], open_index: int):
    """Arguments of a macro call whose '(' is at open_index; returns (args, index after ')')."""
    depth = 0
    args: list[list[Token]] = [[]]
    for k in range(open_index, len(tokens)):
        text = tokens[k].text
        if tokens[k].kind in ("punct",) and text in "([{":
            depth += 1
            if depth == 1:
                continue
        elif tokens[k].kind == "punct" and text in ")]}":
            depth -= 1
            if depth == 0:
                return args, k + 1
        elif text == "," and depth == 1:
            args.append([])
            continue
        args[-1].append(tokens[k])
    return None, open_index


def _next_significant(tokens: list[Token], start: int):
    for k in range(start, len(tokens)):
        if tokens[k].kind not in ("space", "newline", "comment"):
            return k
    return None


def _previous_significant(tokens: list[Token], start: int):
    for k in range(start, -1, -1):
        if tokens[k].kind not in ("space", "newline", "comment"):
            return k
    return None


def _adjacent_paste(body: list[Token], k: int) -> bool:
    prev = _previous_significant(body, k - 1)
    nxt = _next_significant(body, k + 1)
    return (prev is not None and body[prev].text == "##") or (nxt is not None and body[nxt].text == "##")


_PP_ALLOWED = re.compile(r"^[\s0-9a-fA-FxXuUlL()+\-*/%<>=!&|^~?:]*$")


def _eval_pp_expression(expression: str):
    """Evaluate an integer #if expression after macro expansion; identifiers left are 0 (as in C)."""
    if re.search(r"\b[A-Za-z_]\w*\s*\(", expression):
        return None  # a function-like macro we do not know: undecidable
    expression = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: m.group(0) if re.fullmatch(r"0[xX][0-9a-fA-F]+[uUlL]*", m.group(0)) else "0", expression)
    expression = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", expression)
    if not _PP_ALLOWED.match(expression) or not expression.strip():
        return None
    if "**" in expression or re.search(r"<<\s*\(*\s*\d{3,}", expression) or len(expression) > 2000:
        return None  # refuse what Python would turn into huge numbers
    python = expression.replace("&&", " and ").replace("||", " or ")
    python = re.sub(r"!(?!=)", " not ", python)
    python = re.sub(r"(\d+|\))\s*/\s*", r"\1 // ", python)
    if "?" in python:
        return None
    try:
        return int(eval(python, {"__builtins__": {}}, {}))  # noqa: S307 - only digits and operators remain
    except Exception:
        return None

"""The preprocessor's line bookkeeping (prefast13) against the code it replaced, on every CUDA file
of the project and on random text where they could part:

- the file's line starts found by numpy (ASCII text) against one match per newline;
- a region's line offsets sliced from the file's line starts against splitting the region with
  str.splitlines (which also breaks at `\\r`, form feeds and the other Unicode line breaks);
- _line_chunks by list.index and groupby against the per-line loops it replaced;
- _other_macro_names kept per set of macro names against computing it afresh;
- the whole preprocessed output with the sliced offsets against the splitlines path."""

import bisect
import random
import re
from itertools import accumulate

import pytest

from kernelscope.frontend import macros
from test_walker_fast_paths import CUDA_FILES

PIECES = ["a", "B", "\n", "\n", "x = 1;", "MAX", "(", ")", "\r", "\r\n", "\x0c", "\x0b", "\x85", "\u2028", "é",
          "#define N 4\n", "#undef N\n", "N", "CHECK(x)\n", " "]


def _reference_line_starts(text: str) -> list:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _splitlines_offsets(text: str, start: int, end: int) -> list:
    return list(accumulate(map(len, text[start:end].splitlines(keepends=True)), initial=start))


def _old_line_chunks(lines: list, kinds: list):
    """_line_chunks as it was before prefast13 (per-line loops over the region's lines)."""
    wanted = list(kinds)
    index = 0
    while index < len(lines):
        if kinds[index] == macros.EXPAND:
            low = max(0, index - 1)
            high = index
            depth = lines[index].count("(") - lines[index].count(")")
            while depth > 0 and high + 1 < len(lines) and high - index < macros.MAX_CALL_LINES:
                high += 1
                depth += lines[high].count("(") - lines[high].count(")")
            high = min(len(lines) - 1, high + 1)
            for k in range(low, high + 1):
                wanted[k] = macros.EXPAND
        index += 1
    first = 0
    for k in range(1, len(lines) + 1):
        if k == len(lines) or wanted[k] != wanted[first]:
            yield first, k, wanted[first]
            first = k


def _random_text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(size))


def test_line_starts_match_every_newline_on_cuda_files_and_random_text():
    texts = [path.read_text(encoding="latin-1") for path in CUDA_FILES]
    rng = random.Random(13)
    texts += [_random_text(rng, rng.randint(0, 40)) for _ in range(2000)]
    assert any(text.isascii() for text in texts) and any(not text.isascii() for text in texts)
    for text in texts:
        assert macros._line_starts(text) == _reference_line_starts(text), text[:80]


def test_region_offsets_are_what_splitlines_gives():
    rng = random.Random(131)
    texts = [path.read_text(encoding="latin-1") for path in CUDA_FILES[::5]]
    texts += [_random_text(rng, rng.randint(1, 40)) for _ in range(1500)]
    sliced = 0
    for text in texts:
        preprocessor = macros.Preprocessor()
        preprocessor.run(text)              # sets the line starts _region_line_offsets slices
        starts = _reference_line_starts(text)
        if preprocessor._newline_starts is not None:
            sliced += 1
        for _ in range(5):
            start = rng.choice(starts)
            end = rng.randint(start + 1, len(text)) if start < len(text) else len(text)
            if start == end:
                continue
            assert preprocessor._region_line_offsets(text, start, end) == _splitlines_offsets(text, start, end), \
                (text[:80], start, end)
    assert sliced > len(CUDA_FILES[::5]) // 2


@pytest.mark.parametrize("text", ["a\rb\nc\n", "a\x0cb\n", "x\u2028y\n", "a\r\nb\n", "a\x85b", "a\nb\x1cc\n"])
def test_other_line_breaks_keep_splitlines(text):
    preprocessor = macros.Preprocessor()
    preprocessor.run(text)
    assert preprocessor._newline_starts is None
    assert preprocessor._region_line_offsets(text, 0, len(text)) == _splitlines_offsets(text, 0, len(text))


def test_line_chunks_are_the_old_loops_runs():
    rng = random.Random(1313)
    preprocessor = macros.Preprocessor()
    for _ in range(4000):
        lines = [rng.choice(["x\n", "f(\n", "a)\n", "((\n", "))\n", "(x)\n", "\n", "y"]) for _ in range(rng.randint(1, 25))]
        kinds = [rng.choice([macros.PLAIN, macros.PLAIN, macros.CONSTANTS, macros.EXPAND]) for _ in lines]
        base = rng.randint(0, 3)
        text = "z" * base + "".join(lines)
        offsets = list(accumulate(map(len, lines), initial=base))
        assert list(preprocessor._line_chunks(text, offsets, kinds)) == list(_old_line_chunks(lines, kinds))


def test_long_calls_are_cut_where_the_old_loop_cut_them():
    lines = ["CALL(\n"] + ["x,\n"] * (macros.MAX_CALL_LINES + 20) + [")\n"]
    kinds = [macros.EXPAND] + [macros.PLAIN] * (len(lines) - 1)
    offsets = list(accumulate(map(len, lines), initial=0))
    assert list(macros.Preprocessor()._line_chunks("".join(lines), offsets, kinds)) == list(_old_line_chunks(lines, kinds))


def _fresh_other_names(preprocessor) -> tuple:
    names = preprocessor.macros.keys()
    other = frozenset(name for name in names if not macros._CAPS_WORD.fullmatch(name))
    return other, all(name.isidentifier() for name in other)


def test_other_macro_names_kept_per_name_set_follow_every_change():
    rng = random.Random(7)
    preprocessor = macros.Preprocessor()
    for _ in range(3000):
        name = rng.choice(["T", "TX", "MAX", "n", "__x", "BLOCK", "a-b", "R"])
        if rng.random() < 0.5:
            preprocessor.macros[name] = macros.Macro(name, "1")
        else:
            preprocessor.macros.pop(name, None)
        assert preprocessor._other_macro_names() == _fresh_other_names(preprocessor)


def _preprocessed(text: str, sliced: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        if not sliced:
            patch.setattr(macros, "_breaks_lines_at_newlines_only", lambda text: False)
        pre = macros.preprocess(text)
    positions = pre.positions
    return (pre.text, positions._out_starts, positions._orig_starts, positions._verbatim, pre._line_starts,
            [(e.line, e.column, e.message) for e in pre.errors])


def test_preprocessed_files_are_the_same_with_sliced_offsets(monkeypatch):
    texts = [path.read_text(encoding="latin-1") for path in CUDA_FILES]
    texts += ["#define F(x) (x)\nint a = F(1\n, 2);\nCHECK(a)\nint b;\n",
              "#define TILE 4\nfloat s[TILE];\nHOST_DEVICE float f();\n" * 3]
    for text in texts:
        assert _preprocessed(text, True, monkeypatch) == _preprocessed(text, False, monkeypatch), text[:80]


def test_numeric_bodies_kept_by_body_answer_what_the_pattern_answers():
    preprocessor = macros.Preprocessor()
    bodies = ["32", "(32)", "-1", "0x1F", "1.5f", "(-0.5)", "1e5", "N", "32 + 1", "", "((1))", "1u", "0X", "3."]
    for body in bodies * 2:             # (the second time from what was kept)
        assert preprocessor._numeric_bodies(body) == bool(macros._NUMBER_BODY.match(body)), body


def _old_parse_define(body_text: str, line: int):
    """parse_define as it was before prefast13 (nothing kept)."""
    match = re.match(r"\s*([A-Za-z_]\w*)(\([^)]*\))?", body_text)
    if not match:
        return None
    name = match.group(1)
    rest = macros._without_comments(body_text[match.end():])
    if match.group(2) is None:
        return macros.Macro(name, rest.strip(), None, line=line)
    raw = [p.strip() for p in match.group(2)[1:-1].split(",") if p.strip()]
    variadic = bool(raw) and raw[-1].endswith("...")
    params = [p if p != "..." else "__VA_ARGS__" for p in raw]
    if variadic and params[-1].endswith("...") and params[-1] != "...":
        params[-1] = params[-1][:-3].strip()
    return macros.Macro(name, rest.strip(), params, variadic=variadic, line=line)


def test_defines_kept_by_text_are_what_parsing_gives():
    bodies = [line.split("define", 1)[1] for path in CUDA_FILES
              for line in path.read_text(encoding="latin-1").splitlines() if line.lstrip().startswith("#define")]
    bodies += [" X 1 // one", " F(a, b) a + b", " V(...) f(__VA_ARGS__)", " W(x, rest...) g(x, rest)", " 1x", "",
               " G() 0", " H( ) /* c */ 1", " E(a,) a"]
    assert len(bodies) > 100
    for line, body in enumerate(bodies * 2):          # (the second time from what was kept)
        assert macros.parse_define(body, line) == _old_parse_define(body, line), body


def test_kept_defines_hand_out_their_own_parameter_lists():
    first = macros.parse_define(" F(a, b) a", 1)
    first.params.append("c")
    assert macros.parse_define(" F(a, b) a", 2).params == ["a", "b"]


# -- the position map -----------------------------------------------------------------------------

def _run_adding_positions(self, text: str):
    """Preprocessor.run as it was before its emit wrote PositionMap.add out (prefast13)."""
    self._budget = max(200_000, len(text) * macros.MAX_EXPANSION_FACTOR)
    out: list[str] = []
    positions = macros.PositionMap()
    out_len = 0
    line_starts = macros._line_starts(text)
    self._newline_starts = line_starts if macros._breaks_lines_at_newlines_only(text) else None
    stack: list[list[bool]] = []  # per #if: [this branch active, some branch taken, parent active]
    active = True
    code_lines: list[tuple[int, int]] = []  # spans of active code to expand, merged

    def emit(piece: str, orig: int, verbatim: bool = True):
        nonlocal out_len
        if not piece:
            return
        positions.add(out_len, orig, verbatim)
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
            emit(macros._blank(text[start:end]), start)

    position = 0
    for logical_start, logical_end in macros._directive_lines(text):
        lines_between(position, logical_start)
        position = logical_end
        line_text = text[logical_start:logical_end]
        flush_code()
        directive, _, rest = macros._split_directive(line_text.lstrip())
        line_no = bisect.bisect_right(line_starts, logical_start)
        keep = self._directive(directive, rest, line_no, stack, active)
        active = stack[-1][0] if stack else True  # a branch is only taken inside an active parent
        if keep and active:
            emit(line_text, logical_start)
        else:
            emit(macros._blank(line_text), logical_start)
    lines_between(position, len(text))
    flush_code()
    if stack:
        self.errors.append(macros.SourceError(len(line_starts), 1, "unterminated #if at end of file"))
    for offset, message in self._offset_notes:
        line = bisect.bisect_right(line_starts, offset)
        self.errors.append(macros.SourceError(line, offset - line_starts[line - 1] + 1, message))
    expanded = "".join(out)
    return macros.Preprocessed(expanded, text, positions, self.macros, self.errors, line_starts)


def test_positions_written_out_are_what_position_map_add_gives():
    rng = random.Random(99)
    texts = [path.read_text(encoding="latin-1") for path in CUDA_FILES]
    texts += [_random_text(rng, rng.randint(0, 40)) for _ in range(1000)]
    texts += ["#define F(x) (x)\n#define C 3\nint a = F(1\n, 2) + C;\nCHECK(a)\n", "#if X\nint a;\n#else\nint b;\n#endif\n"]
    for text in texts:
        new, old = macros.Preprocessor().run(text), _run_adding_positions(macros.Preprocessor(), text)
        assert (new.text, new.positions._out_starts, new.positions._orig_starts, new.positions._verbatim, new._line_starts,
                new.errors) == (old.text, old.positions._out_starts, old.positions._orig_starts, old.positions._verbatim,
                                old._line_starts, old.errors), text[:80]

"""The preprocessor finds where each line of a region to expand starts from the file's line starts
(Preprocessor._region_line_offsets, where "\\n" is the file's only line break) instead of splitting
the region with str.splitlines (_split_line_offsets, any text). The offsets, and what preprocess
gives (text, position map, errors), must be the same either way: on every CUDA file of the
project, and on texts with the other breaks splitlines knows (form feeds, vertical tabs, carriage
returns, file separators, U+2028), with and without a final newline."""

import random

from kernelscope.frontend import macros
from kernelscope.frontend.source import normalise
from test_walker_fast_paths import CUDA_FILES

LINES = ["#define N 4", "#define F(x) ((x) + 1)", "#define CHECK(x) do { x; } while (0)", "int a = N;",
         "int b = F(a);", "CHECK(f(a))", "HOST_DEVICE float g() { return 0; }", "#if N > 2", "#else",
         "#endif", "int c = F(", "  a);", "// N in a comment", "float s = 1.0f;", "\f", "int\x0bd = N;",
         "x\ry = F(1);", "z\x1cw = N;", "u\u2028v = N;", "", "__global__ void k(float* y) { y[0] = N; }"]


def _outcome(text: str, split_always: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        if split_always:
            patch.setattr(macros.Preprocessor, "_region_line_offsets",
                          lambda self, text, start, end: macros._split_line_offsets(text, start, end))
        pre = macros.preprocess(text)
    positions = pre.positions
    return (pre.text, positions._out_starts, positions._orig_starts, positions._verbatim,
            [(e.line, e.column, e.message) for e in pre.errors])


def _offsets_agree(text: str, monkeypatch) -> int:
    """Each region's offsets both ways; how many regions took the file's line starts."""
    sliced = []
    general = macros._split_line_offsets
    answer = macros.Preprocessor._region_line_offsets

    def compared(self, text, start, end):
        offsets = answer(self, text, start, end)
        assert offsets == general(text, start, end), (start, end)
        sliced.append(self._newline_starts is not None)
        return offsets

    with monkeypatch.context() as patch:
        patch.setattr(macros.Preprocessor, "_region_line_offsets", compared)
        macros.preprocess(text)
    return sum(sliced)


def test_the_offsets_and_the_output_agree_on_every_cuda_file(monkeypatch):
    sliced = 0
    for path in CUDA_FILES:
        text = normalise(path.read_text(encoding="latin-1"))
        sliced += _offsets_agree(text, monkeypatch)
        assert _outcome(text, False, monkeypatch) == _outcome(text, True, monkeypatch), path
    assert sliced > 100


def test_the_offsets_and_the_output_agree_on_random_texts_with_other_line_breaks(monkeypatch):
    rng = random.Random(10)
    other_breaks = 0
    for _ in range(300):
        text = "\n".join(rng.choice(LINES) for _ in range(rng.randint(1, 12)))
        if rng.random() < 0.7:
            text += "\n"
        other_breaks += any(char in text for char in macros._OTHER_LINE_BREAKS)
        _offsets_agree(text, monkeypatch)
        assert _outcome(text, False, monkeypatch) == _outcome(text, True, monkeypatch), repr(text)
    assert other_breaks > 50


def test_a_form_feed_line_is_a_line_of_its_own():
    # (what a slice of the "\n" line starts would get wrong: the region splits at the form feed)
    text = "#define N 4\nint a;\fint b = N;\n"
    preprocessor = macros.Preprocessor()
    preprocessor.run(text)
    assert preprocessor._newline_starts is None
    start = text.index("int a")
    assert macros._split_line_offsets(text, start, len(text)) == [start, text.index("int b"), len(text)]

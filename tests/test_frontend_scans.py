"""The front end's whole-text scans: which lines the preprocessor expands, directive lines that
continue over backslash-newlines, the #pragma shim, and the per-kernel lookups of launch bounds
and launch sites. Each case is one where a scan that found too little or too much would change
what the parser sees or what a kernel reports."""

from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.parse import parse_file
from kernelscope.frontend.shims import apply_shims


def test_a_short_lowercase_macro_is_expanded_only_while_it_is_defined():
    source = "int a = n;\n#define n 4\nint b = n + nn + n2;\n#undef n\nint c = n;\n"
    lines = preprocess(source).text.split("\n")
    assert lines[0] == "int a = n;"
    assert lines[2].split() == ["int", "b", "=", "4", "+", "nn", "+", "n2;"]
    assert lines[4] == "int c = n;"


def test_a_lowercase_function_like_macro_is_expanded():
    source = "#define idx(i, j) ((i) * 8 + (j))\nint k = idx(r, c);\n"
    line = preprocess(source).text.split("\n")[1]
    assert "idx" not in line
    assert "".join(line.split()) == "intk=(r*8+c);"        # (a lone argument loses its parentheses)


def test_a_directive_continued_over_lines_is_one_directive():
    source = "#define SUM(a, b) \\\n  ((a) + (b))\nint x = SUM(1, 2);\n#define X 1 \\\n#define Y 2\nint y = Y;\n"
    pre = preprocess(source)
    lines = pre.text.split("\n")
    assert len(lines) == len(source.split("\n"))          # line numbers never move
    assert "".join(lines[2].split()) == "intx=(1+2);"
    assert "Y" not in pre.macros                           # its line belongs to X's definition
    assert lines[5] == "int y = Y;"


def test_a_pragma_between_a_loop_header_and_its_body_is_blanked_in_place():
    source = ("void f(int n) {\n  for (int i = 0; i < n; i++) // rows\n  // nothing here\n  #pragma unroll\n"
              "  for (int j = 0; j < 4; j++) g(i, j);\n  h();\n#pragma unroll\n  for (;;) {}\n}\n")
    text, _ = apply_shims(source)
    lines, original = text.split("\n"), source.split("\n")
    assert lines[3] == " " * len(original[3])
    assert lines[6] == original[6]                        # after a statement, not a header: kept
    assert [k for k, (a, b) in enumerate(zip(lines, original)) if a != b] == [3]


KERNELS = """
__global__ void plain(float* a) { a[threadIdx.x] = 0.f; }
__global__ void __launch_bounds__(256, 2) bounded(float* a) { a[threadIdx.x] = 1.f; }
__global__ void
__launch_bounds__(128)
late(float* a) { a[threadIdx.x] = 2.f; }
void host(float* a) {
    bounded<<<4, 256>>>(a);
    plain<<<1, 32>>>(a);
    bounded<<<8, 256>>>(a);
}
"""


def test_each_kernel_gets_its_own_launch_bounds_and_launches():
    kernels = {k.name: k for k in parse_file(KERNELS, "k.cu").kernels}
    assert kernels["plain"].launch_bounds == ()
    assert kernels["bounded"].launch_bounds == (256, 2)
    assert kernels["late"].launch_bounds == (128,)
    assert [(s.kernel, s.line) for s in kernels["bounded"].launches] == [("bounded", 8), ("bounded", 10)]
    assert [(s.kernel, s.line) for s in kernels["plain"].launches] == [("plain", 9)]
    assert kernels["late"].launches == []


def test_a_macro_name_inside_a_longer_word_is_not_expanded():
    # the scan for macro words finds candidates anywhere; one that starts inside a word is not one
    source = "#define MAX 4\n#define k 2\nint fooMAX = MAX + 3MAX + x_MAX + MAXk + kk + k;\n"
    line = preprocess(source).text.split("\n")[2]
    assert line.split() == ["int", "fooMAX", "=", "4", "+", "3MAX", "+", "x_MAX", "+", "MAXk", "+", "kk", "+",
                            "2", ";"]


# -- shims' shortcuts against the scans they stand for ------------------------------------------------

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from kernelscope.frontend import shims  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CUDA_FILES = sorted(p for folder in ("tests/kernels", "examples", "corpus") for p in (ROOT / folder).rglob("*")
                    if p.suffix in (".cu", ".cuh") and p.is_file())
# one text for each word the attribute shortcut looks for, and the class-instantiation and pragma
# shapes: a shortcut that missed one of them would leave that text unshimmed
SHIM_CASES = [
    "struct __align__(16) V { float a; };\n",
    "__global__ void k(const __grid_constant__ P p) {}\n",
    "__device__ __nv_pure__ int f(int x) { return x; }\n",
    "__global__ void __cluster_dims__(2, 1, 1) k() {}\n",
    '_Pragma("unroll") for (;;) {}\n',
    "struct __attribute__((aligned(8))) S { int a; };\n",
    "template class Stream<double>;\ntemplate<class T> class C<T>;\n",
    "template  struct\tBox<int, 4>;\n",
    "for (int i = 0; i < n; i++)\n  #  pragma unroll\n  for (;;) {}\n\t#pragma once\nx; # define pragma\n#pragma",
    "if (a)\n#pragma unroll #pragma\nb();\n",
    "#define pragma_note 1\n#pragma a\n#pragma b\n",
]


def _general_shims(text: str) -> str:
    """What apply_shims' attribute, class-instantiation and pragma steps give by their scans alone."""
    text = shims._ATTRIBUTES.sub(lambda m: shims._blank(m.group(0)), text)
    text = shims._CLASS_INSTANTIATION.sub(lambda m: shims._blank(m.group(0)), text)
    return text


@pytest.mark.parametrize("text", SHIM_CASES)
def test_shim_shortcuts_agree_with_the_scans_on_each_shape(text):
    shortcut = shims._blank_class_instantiations(shims._blank_attributes(text))
    assert shortcut == _general_shims(text)
    assert shims._pragma_line_starts(text) == [m.start() for m in shims._PRAGMA_LINE.finditer(text)]


def test_shim_cases_each_change_their_text():
    # (else the shape tests above could pass on shortcuts that skip everything)
    for text in SHIM_CASES[:8]:
        assert _general_shims(text) != text
    for text in SHIM_CASES[8:]:
        assert shims._PRAGMA_LINE.search(text)


def test_shim_shortcuts_agree_with_the_scans_on_every_cuda_file():
    assert len(CUDA_FILES) > 100
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        assert shims._blank_class_instantiations(shims._blank_attributes(text)) == _general_shims(text), path
        assert shims._pragma_line_starts(text) == [m.start() for m in shims._PRAGMA_LINE.finditer(text)], path


# -- the preprocessor's macro-word scan against one scan with both alternatives ------------------------

import re  # noqa: E402

from kernelscope.frontend import macros  # noqa: E402


def _one_scan_macro_words(preprocessor, text: str) -> list:
    """The macro words by one pattern with the ALL_CAPS words and the other macro names as
    alternatives (what _macro_words did before it split the scan): (start, end, word) in order."""
    other = sorted((name for name in preprocessor.macros if not macros._CAPS_WORD.fullmatch(name)),
                   key=len, reverse=True)
    names = "".join("|" + re.escape(name) for name in other)
    pattern = re.compile(rf"(?:[A-Z_][A-Z0-9_]{{2,}}{names})\b")
    return [(m.start(), m.end(), m.group()) for m in pattern.finditer(text)
            if macros._starts_word(text, m.start())
            and (m.group() in preprocessor.macros or macros._CAPS_WORD.fullmatch(m.group()))]


def _split_scan_macro_words(preprocessor, text: str) -> list:
    return preprocessor._macro_words_by_patterns(text, 0, len(text))


MACRO_WORD_TEXT = ("int n = N + nn + n2 + xN + N_ + NAB + AB_c + idx(i, j) + IDXx + MAX_N + _x + x_x + "
                   "__cplusplus + fooMAX + MAXk + Ab + AbC + N3 + n_MAX + MAX_n;\n")


@pytest.mark.parametrize("names", [(), ("N",), ("n", "idx"), ("Ab", "MAX_N", "_x"), ("n", "N", "nn", "MAX")])
def test_the_split_macro_word_scan_finds_what_one_scan_finds(names):
    preprocessor = macros.Preprocessor()
    for name in names:
        preprocessor.macros[name] = macros.Macro(name, "1")
    found = _split_scan_macro_words(preprocessor, MACRO_WORD_TEXT)
    assert found == _one_scan_macro_words(preprocessor, MACRO_WORD_TEXT)
    words = set(re.findall(r"\w+", MACRO_WORD_TEXT))
    assert {word for _, _, word in found} == words & (set(names) | {"NAB", "MAX_N", "__cplusplus"})


def test_the_split_macro_word_scan_agrees_on_every_cuda_file():
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        preprocessor = macros.Preprocessor()
        for name in ("N", "n", "idx", "Ab"):           # (short and lowercase names, which only the second scan finds)
            preprocessor.macros[name] = macros.Macro(name, "1")
        preprocessor.run(text)                          # the file's own macros as well
        assert _split_scan_macro_words(preprocessor, text) == _one_scan_macro_words(preprocessor, text), path


# -- the tokeniser's fast pattern against its reference ----------------------------------------------

import random  # noqa: E402

# characters where token kinds meet: string prefixes, raw-string delimiters, comments, numbers
TOKEN_SOUP = list('uUL8R"\'()/*\\\n .0123eE+-pxX_ab#<>=&|!:;,{}[]\t\x0c\x0b') + ["//", "/*", "*/", 'R"x(', ')x"', "u8", "..."]


REFERENCE_TOKEN = macros.reference_token_pattern()


def _reference_tokens(text: str) -> list:
    return [("string" if m.lastgroup == "delim" else m.lastgroup, m.group(0), m.start())
            for m in REFERENCE_TOKEN.finditer(text)]


def test_the_fast_token_pattern_agrees_with_the_reference_on_every_cuda_file():
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        assert [tuple(t) for t in macros.tokenize(text)] == _reference_tokens(text), path


def test_the_fast_token_pattern_agrees_with_the_reference_on_random_text():
    rng = random.Random(22)
    for _ in range(4000):
        text = "".join(rng.choice(TOKEN_SOUP) for _ in range(rng.randint(1, 30)))
        assert [tuple(t) for t in macros.tokenize(text)] == _reference_tokens(text), repr(text)


@pytest.mark.parametrize("text, kinds", [
    ('u8"a" L"b" R"x(c)x" 8"d" \'e\' uR"(f)"', ["string"] * 6),
    (".5 5. 0x1F 1e+5 1.5e-3f", ["number"] * 5),
    ("// c\n/* d */", ["comment", "comment"]),
    ("uv Lx R8 _a", ["ident"] * 4),
])
def test_each_token_shape_gets_its_kind(text, kinds):
    assert [t.kind for t in macros.tokenize(text) if t.kind not in ("space", "newline")] == kinds

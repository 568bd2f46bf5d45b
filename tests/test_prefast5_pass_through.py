"""The preprocessor copies a chunk of lines it would tokenise as it is when no word in it could
change (Preprocessor._passes_through): no macro name, and no unknown ALL_CAPS word where the
statement-macro or qualifier-macro rules could apply. Its answer must be what tokenising and
expanding the chunk gives: the same text, the same position map, the same errors, on every CUDA
file of the project, on random token soups and on each rule's own shape."""

import random

import pytest

from kernelscope.frontend import macros
from test_walker_fast_paths import CUDA_FILES


def _outcome(text: str, shortcut: bool, monkeypatch) -> tuple:
    """What preprocess gives with the pass-through shortcut, or with every chunk tokenised; and
    how many chunks the shortcut let through."""
    passed = []
    answer = macros.Preprocessor._passes_through

    def spied(self, *args):
        passed.append(answer(self, *args))
        return passed[-1]

    with monkeypatch.context() as patch:
        patch.setattr(macros.Preprocessor, "_passes_through", spied if shortcut else (lambda self, *args: False))
        pre = macros.preprocess(text)
    positions = pre.positions
    return ((pre.text, positions._out_starts, positions._orig_starts, positions._verbatim,
             [(e.line, e.column, e.message) for e in pre.errors]), sum(passed))


def _agree(text: str, monkeypatch) -> int:
    fast, through = _outcome(text, True, monkeypatch)
    general, _ = _outcome(text, False, monkeypatch)
    assert fast == general, repr(text)
    return through


def test_the_shortcut_agrees_on_every_cuda_file(monkeypatch):
    assert len(CUDA_FILES) > 100
    through = sum(_agree(path.read_text(encoding="latin-1"), monkeypatch) for path in CUDA_FILES)
    assert through > 100          # (it is taken: most chunks are there for a word it leaves alone)


# Each shape changes when tokenised (a rule of _is_qualifier_position or a statement macro applies),
# so the shortcut must not let it through; the tail of each line keeps the chunk otherwise inert.
CHANGED = [
    "HOST_DEVICE float f(float x);\n",                  # a qualifier keyword next
    "__device__ DATA_TYPE twice(DATA_TYPE v);\n",       # a keyword before, a name and `(` next
    "float* RESTRICT p, q;\n",                          # after `*`, a name and `,` next
    "float& REF_Q r = s;\n",                            # after `&`, a name and `=` next
    "FORCE_INLINE Vec3 add(Vec3 a);\n",                 # two names and `(` next
    "int a;\nHOST_DEVICE FORCE_INLINE int f();\n",      # another unknown ALL_CAPS word next
    "int a;\nCHECK(a)\nint b;\n",                       # a statement macro
    "int a = TILE;\nOK(a)\nint b;\n",                   # a short one, on a line tokenised for TILE
    "int a;\nCHECK \\\n(a)\nint b;\n",                  # `\` is white space to the tokeniser
    "int a;\nCHECK /* why */ (a)\nint b;\n",            # so is a comment
    "int a;\nCHECK // why\n(a)\nint b;\n",
    'const char* s = "it\'s";\nHOST_DEVICE float f();\n',
    "float* /* p */ RESTRICT p;\n",
    "float*\nRESTRICT p;\n",
]

# Shapes the shortcut lets through: the unknown word is followed by something else, or the quote
# or comment that would hide its neighbours is read as the tokeniser reads it.
UNCHANGED = [
    "typedef float DATA_TYPE;\nDATA_TYPE* a;\n",
    "void f(DATA_TYPE ALPHA, DATA_TYPE BETA);\n",       # a name next, but after `(` and `,`
    "int x = N * M + BLOCK_SIZE;\n",
    "// Models NVIDIA's CUDA SDK sample\nint x;\n",      # an apostrophe and ALL_CAPS words in a comment
    'extern "C" void f(int NXY);\n',
    "printf(\"%d HOST_DEVICE float f(\", N);\n",        # the shapes inside a string
    "int c = 'A'; int d = MAX_N;\n",
    "/* FORCE_INLINE Vec3 add( */ int x = TILE;\n",
]

# Where the tokeniser reads quotes differently from a plain scan: the general way, always.
NOT_ASKED = [
    "int x = 1'000 * TILE;\n",                          # a digit separator
    'auto s = R"x(HOST_DEVICE float f()")x"; int y = TILE;\n',
]


@pytest.mark.parametrize("text", CHANGED)
def test_a_shape_that_changes_is_tokenised(text, monkeypatch):
    general, _ = _outcome(text, False, monkeypatch)
    assert general[0] != text
    assert _agree(text, monkeypatch) == 0


@pytest.mark.parametrize("text", UNCHANGED)
def test_a_shape_that_stays_passes_through(text, monkeypatch):
    general, _ = _outcome(text, False, monkeypatch)
    assert general[0] == text
    assert _agree(text, monkeypatch) == 1


@pytest.mark.parametrize("text", NOT_ASKED)
def test_a_quote_the_tokeniser_reads_otherwise_is_tokenised(text, monkeypatch):
    assert macros._code_only(text) is None
    assert _agree(text, monkeypatch) == 0


def test_a_macro_name_in_the_chunk_is_tokenised(monkeypatch):
    assert _agree("#define half_of(x) ((x) / 2)\nint y = half_of(TILE);\n", monkeypatch) == 0


# pieces where the rules and the tokeniser's token kinds meet: ALL_CAPS words short and long,
# qualifier keywords, names, the punctuation the rules read, comments, literals, white space
SOUP = ["FOO", "BAR_X", "N", "AB", "HD", "_Q", "float", "int", "const", "void", "static", "template", "__device__",
        "x", "sum", "Vec3", "add", "(", ")", ",", ";", "=", "==", "[", "]", "*", "&", "&&", "{", "}", "<", ">",
        "/", "/*c*/", "// c FOO x(\n", "\n", "\t", "\\", "\x0c", "1", "1.5f", "a.", ".5", "\u00e9", '"s("',
        "'c'", 'L"x"', 'R"x(a")x"', "1'000", 'u8"', '"a//b"', "'/*'", "'", '"', "\\\n"]


def test_the_shortcut_agrees_on_random_token_soups(monkeypatch):
    rng = random.Random(22)
    through = changed = 0
    for _ in range(3000):
        text = "".join(rng.choice(SOUP) + rng.choice(("", " ", " ")) for _ in range(rng.randint(1, 25))) + "\n"
        through += _agree(text, monkeypatch)
        changed += _outcome(text, False, monkeypatch)[0][0] != text
    assert through > 300 and changed > 30         # (both ways are met often)

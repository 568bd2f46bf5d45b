"""The preprocessor's fast paths against its general ones, on every CUDA file of the project and
on random text where they could part:

- the macro words of ASCII text read through character shapes and str.find (_macro_words) against
  the two regular-expression scans (_macro_words_by_patterns);
- a `#define` body without a `/` kept as it is against the body tokenised with its comments
  blanked (_without_comments);
- the file's line starts summed from its lines' lengths against one match per newline;
- a macro-free macro argument's tokens kept by its text against the argument expanded and
  tokenised at each use (_expanded_argument)."""

import random
import re

import pytest

from kernelscope.frontend import macros
from test_walker_fast_paths import CUDA_FILES

# ALL_CAPS words and near misses where word boundaries, digits and lower-case letters meet
WORD_SOUP = ["MAX", "MAX_N", "N", "NN", "N3", "3N", "0XFF", "x", "xMAX", "MAXx", "_AB", "__AB__", "_x_", "AB_c",
             "idx", "n", "Ab", "__cplusplus", " ", "\n", "(", ")", ".", "+", "é", "ÉTÉ", "//", "\"S\"", "1e5", "_"]


def _preprocessor(names=("N", "n", "idx", "Ab")) -> macros.Preprocessor:
    preprocessor = macros.Preprocessor()
    for name in names:            # (short and lower-case names, which only the named scan finds)
        preprocessor.macros[name] = macros.Macro(name, "1")
    return preprocessor


def _both_scans(preprocessor, text: str, start: int, end: int) -> tuple:
    return preprocessor._macro_words(text, start, end), preprocessor._macro_words_by_patterns(text, start, end)


def test_the_shaped_scan_finds_what_the_patterns_find_on_every_cuda_file():
    assert len(CUDA_FILES) > 100
    found = 0
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        preprocessor = _preprocessor()
        preprocessor.run(text)                      # the file's own macros as well
        for start, end in ((0, len(text)), (1, len(text) - 1), (len(text) // 3, len(text) // 2)):
            fast, general = _both_scans(preprocessor, text, start, end)
            assert fast == general, (path, start, end)
            found += len(fast)
    assert found > 1000


def test_the_shaped_scan_agrees_on_random_word_soups():
    rng = random.Random(6)
    for _ in range(3000):
        text = "".join(rng.choice(WORD_SOUP) for _ in range(rng.randint(1, 30)))
        preprocessor = _preprocessor(rng.sample(["N", "n", "idx", "Ab", "MAX", "x_x", "_x"], rng.randint(0, 4)))
        start, end = sorted(rng.randint(0, len(text)) for _ in range(2))
        fast, general = _both_scans(preprocessor, text, start, end)
        assert fast == general, (text, start, end)


@pytest.mark.parametrize("text, words", [
    ("int a = MAX_N + xMAX + MAXx + N3 + 3NN + 0XFF;\n", ["MAX_N"]),
    ("A_B(BLOCK)\n", ["A_B", "BLOCK"]),
    ("__CUDA_ARCH__ __cplusplus idx(i) idx_2\n", ["__CUDA_ARCH__", "__cplusplus", "idx"]),
])
def test_the_shaped_scan_finds_whole_words_only(text, words):
    found = _preprocessor()._macro_words(text, 0, len(text))
    assert [word for _, _, word in found] == words
    assert all(text[start:end] == word for start, end, word in found)


def test_a_word_cut_by_the_region_start_is_no_word():
    text = "xMAX_N MAX_N\n"
    preprocessor = _preprocessor()
    assert preprocessor._macro_words(text, 1, len(text)) == [(7, 12, "MAX_N")]
    assert preprocessor._macro_words(text, 7, len(text)) == [(7, 12, "MAX_N")]


def test_a_name_that_is_no_identifier_goes_the_general_way(monkeypatch):
    preprocessor = _preprocessor(("A-B", "n"))
    general = []
    monkeypatch.setattr(preprocessor, "_macro_words_by_patterns", lambda *args: general.append(args) or [])
    preprocessor._macro_words("int A-B = n;\n", 0, 13)
    assert general


def test_non_ascii_text_goes_the_general_way(monkeypatch):
    preprocessor = _preprocessor()
    general = []
    monkeypatch.setattr(preprocessor, "_macro_words_by_patterns", lambda *args: general.append(args) or [])
    preprocessor._macro_words("// ÉTÉ\nint MAX_N;\n", 0, 17)
    preprocessor._macro_words("int MAX_N;\n", 0, 11)
    assert len(general) == 1


# -- #define bodies --------------------------------------------------------------------------------

def _tokenised_without_comments(text: str) -> str:
    return "".join(t.text if t.kind != "comment" else " " for t in macros.tokenize(text))


def test_define_bodies_without_comments_are_what_tokenising_gives():
    bodies = [line.split("define", 1)[1] for path in CUDA_FILES
              for line in path.read_text(encoding="latin-1").splitlines() if line.lstrip().startswith("#define")]
    bodies += [" X 1 // one", " X a/b", " X \"a/b\"", " X '/'", " X /* c */ 2", " X 1 /", " X R\"(/)\""]
    assert len(bodies) > 100
    for body in bodies:
        assert macros._without_comments(body) == _tokenised_without_comments(body), body


# -- line starts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "a", "\n", "a\n", "\n\n", "ab\ncd\n\nx", "a\r\nb\x0cc\n"])
def test_line_starts_are_the_offsets_after_each_newline(text):
    assert macros._line_starts(text) == [0] + [m.end() for m in re.finditer("\n", text)]


# -- macro arguments ----------------------------------------------------------------------------------

def _preprocessed(text: str, kept: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        if not kept:
            def expanded_each_time(self, argument, hidden, depth):
                pieces: list = []
                self._expand_tokens(argument, hidden, depth + 1, lambda s, o, v=True: pieces.append(s), 0)
                return macros.tokenize("".join(pieces))
            patch.setattr(macros.Preprocessor, "_expanded_argument", expanded_each_time)
        pre = macros.preprocess(text)
    positions = pre.positions
    return (pre.text, positions._out_starts, positions._orig_starts, positions._verbatim,
            [(e.line, e.column, e.message) for e in pre.errors])


def test_kept_arguments_give_what_expanding_each_use_gives_on_every_cuda_file(monkeypatch):
    for path in CUDA_FILES:
        text = path.read_text(encoding="latin-1")
        assert _preprocessed(text, True, monkeypatch) == _preprocessed(text, False, monkeypatch), path


MACRO_SOUP = ["#define SQ(x) ((x) * (x))\n", "#define TWICE(x) SQ(x) + SQ(x)\n", "#define A 2\n",
              "#define P(a, b) a ## b\n", "#define S(a) #a\n", "#undef A\n", "#define A A + 1\n",
              "SQ(", "TWICE(", "P(", "S(", "A", "i", "x + 1", ", ", ")", " ", "\n", "(", "y"]


def test_kept_arguments_agree_on_random_macro_soups(monkeypatch):
    rng = random.Random(6)
    for _ in range(1500):
        text = "".join(rng.choice(MACRO_SOUP) for _ in range(rng.randint(1, 40)))
        assert _preprocessed(text, True, monkeypatch) == _preprocessed(text, False, monkeypatch), repr(text)


def test_an_argument_used_twice_is_tokenised_once():
    preprocessor = macros.Preprocessor()
    pre = preprocessor.run("#define SQ(x) ((x) * (x))\nint a = SQ(i + 1) + SQ(i + 1);\n")
    assert "((i + 1) * (i + 1))" in pre.text
    assert list(preprocessor._argument_tokens) == ["i + 1"]


# -- predefined macros ----------------------------------------------------------------------------------

@pytest.mark.parametrize("arch, defines", [("sm_90", None), ("sm_75", None), ("sm_80", {"N": 4, "n": "2"}), ("x", {})])
def test_the_shared_predefined_macros_are_what_each_preprocessor_made(arch, defines):
    preprocessor = macros.Preprocessor(defines, arch)
    digits = "".join(ch for ch in arch if ch.isdigit()) or "90"
    made = {**macros.PREDEFINED, "__CUDA_ARCH__": str(int(digits) * 10), **{k: str(v) for k, v in (defines or {}).items()}}
    assert {name: (macro.body, macro.params) for name, macro in preprocessor.macros.items()} == \
        {name: (body, None) for name, body in made.items()}
    # the seeded answer of _other_macro_names is the one found from the names
    other = frozenset(name for name in preprocessor.macros if not macros._CAPS_WORD.fullmatch(name))
    assert preprocessor._other_macro_names() == (other, True)


def test_a_preprocessor_changes_its_own_macro_table_only():
    first = macros.Preprocessor()
    first.run("#undef __cplusplus\n#define __CUDA_ARCH__ 700\n#define low 1\n")
    second = macros.Preprocessor()
    assert "__cplusplus" in second.macros and second.macros["__CUDA_ARCH__"].body == "900"
    assert "low" not in second.macros
    assert second._other_macro_names() == (frozenset({"__cplusplus"}), True)
    assert first._other_macro_names() == (frozenset({"low"}), True)

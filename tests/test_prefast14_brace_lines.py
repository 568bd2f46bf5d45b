"""parse._unclosed_braces reads only the lines that hold a brace or a block comment's mark
(_brace_lines, prefast14). Its answer must be that of reading the whole text
(_unclosed_braces_of_all): on random texts of comment, literal, brace and line-break characters,
and on every CUDA file of the project, with and without lines cut out of their comments."""

import random

import pytest

from kernelscope.frontend import parse as front
from test_walked_captures import CUDA_FILES


@pytest.fixture
def every_text_picked(monkeypatch):
    # (texts shorter than BRACE_LINES_MIN_CHARS are read whole: these are short)
    monkeypatch.setattr(front, "BRACE_LINES_MIN_CHARS", 0)

# (whole words, so that block comments run over lines without marks, and literals end at newlines)
ALPHABET = ["/", "*", "/*", "*/", "//", "a", " ", "\n", "\n", "\n", '"', "'", "\\", "{", "}", "**", "x\n"]


def _random_texts(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 60)))


def test_same_answer_as_reading_every_character_on_random_texts(every_text_picked):
    cut = 0
    for text in _random_texts(30000, 21):
        assert front._unclosed_braces(text) == front._unclosed_braces_of_all(text), repr(text)
        cut += len(front._brace_lines(text)) < len(text)
    assert cut > 10000


def test_same_answer_on_the_cuda_files(every_text_picked):
    texts = [path.read_text(encoding="latin-1") for path in CUDA_FILES]
    # each file also cut after every seventh line: braces left open, comments left unterminated
    for text in list(texts):
        lines = text.splitlines(keepends=True)
        texts.extend("".join(lines[:end]) for end in range(1, len(lines), 7))
    answers = [front._unclosed_braces(text) for text in texts]
    assert answers == [front._unclosed_braces_of_all(text) for text in texts]
    assert sum(1 for count in answers if count) > 500
    assert sum(1 for text in texts if len(front._brace_lines(text)) < len(text)) > len(texts) // 2


def test_a_backslash_newline_keeps_the_whole_text(every_text_picked):
    # a literal may run on over a backslash-newline: its second line's `{` is not code (left
    # alone, that line would start a literal of its own after the brace)
    text = 'char* s = "a \\\n {";\n{\n'
    assert front._brace_lines(text) == text
    assert front._unclosed_braces(text) == 1


def test_leaving_out_lines_with_a_comment_end_would_differ():
    # (the comparison can fail: a line with `*/` but no brace must be kept)
    def without_comment_ends(text):
        return "".join(line for line in text.splitlines(keepends=True) if "{" in line or "}" in line or "/*" in line)
    texts = list(_random_texts(5000, 22))
    assert any(front._unclosed_braces_of_all(without_comment_ends(text)) != front._unclosed_braces_of_all(text)
               for text in texts)


def test_only_long_texts_are_picked(monkeypatch):
    picked = []
    monkeypatch.setattr(front, "_brace_lines", lambda text: picked.append(len(text)) or text)
    short = "{\n// }\n" * 100
    long = short * (front.BRACE_LINES_MIN_CHARS // len(short) + 1)
    assert front._unclosed_braces(short) == 64 and picked == []
    assert front._unclosed_braces(long) == 64 and picked == [len(long)]

"""parse._NOT_CODE reads a block comment as runs of what cannot end it (prefast12) instead of
`/\\*.*?(?:\\*/|\\Z)`. Its matches, and so _unclosed_braces, must be those of the old pattern: on
random texts of comment, literal and brace characters, and on every CUDA file of the project."""

import random
import re

from kernelscope.frontend import parse as front
from test_walked_captures import CUDA_FILES

OLD_NOT_CODE = re.compile(r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'",
                          re.DOTALL)
ALPHABET = ["/", "*", "*", "/*", "*/", "//", "a", " ", "\n", '"', "'", "\\", "{", "}", "{", "**"]


def _random_texts(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))


def _matches(pattern, text: str) -> list:
    return [match.span() for match in pattern.finditer(text)]


def test_block_comments_match_as_the_lazy_pattern_did_on_random_texts():
    ended_at_end = 0
    for text in _random_texts(20000, 12):
        assert _matches(front._NOT_CODE, text) == _matches(OLD_NOT_CODE, text), repr(text)
        ended_at_end += any(end == len(text) and text[start:start + 2] == "/*"
                            for start, end in _matches(OLD_NOT_CODE, text))
    assert ended_at_end > 100       # (unterminated comments, stars at the end among them)


def test_unclosed_braces_as_with_the_lazy_pattern(monkeypatch):
    texts = list(_random_texts(3000, 13)) + [path.read_text(encoding="latin-1") for path in CUDA_FILES]
    ours = [front._unclosed_braces(text) for text in texts]
    monkeypatch.setattr(front, "_NOT_CODE", OLD_NOT_CODE)
    assert ours == [front._unclosed_braces(text) for text in texts]
    assert sum(1 for count in ours if count) > 100


def test_a_pattern_without_the_starred_end_differs():
    # (the comparison can fail: leaving out `\**\Z` loses comments that end in stars at the end)
    wrong = re.compile(front._NOT_CODE.pattern.replace(r"|\**\Z", r"|\Z"), re.DOTALL)
    assert wrong.pattern != front._NOT_CODE.pattern
    assert any(_matches(wrong, text) != _matches(OLD_NOT_CODE, text) for text in _random_texts(2000, 14))

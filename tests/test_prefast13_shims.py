"""apply_shims' skips (prefast13) against the scans they spare, on every CUDA file of the project and
on random text where they could part: the `__launch_bounds__` and `template class` scans skipped
where str's search finds no such word, the lambda-qualifier scan where no qualifier word follows
a `]` over white space, and the deep-template scan told by bytes.translate."""

import random
import re

import pytest

from kernelscope.frontend import shims
from test_walker_fast_paths import CUDA_FILES


def _old_apply_shims(text: str):
    """apply_shims as it was before prefast13: every scan run on every text."""
    marks = []
    pieces = []
    last = 0
    for match in shims._LAUNCH_BOUNDS.finditer(text):
        if match.start() < last:
            continue
        close = shims._matching_paren(text, match.end() - 1)
        if close is None:
            continue
        inner = text[match.end():close]
        marks.append(shims.LaunchBoundsMark(match.start(), tuple(a.strip() for a in shims._split_top_level(inner))))
        pieces.append(text[last:match.start()])
        pieces.append(shims._blank(text[match.start():close + 1]))
        last = close + 1
    pieces.append(text[last:])
    text = "".join(pieces)
    text = shims._blank_attributes(text)
    text = shims._LAMBDA_QUALIFIER.sub(lambda m: m.group(1) + shims._blank(m.group(2)), text)
    text = shims._CLASS_INSTANTIATION.sub(lambda m: shims._blank(m.group(0)), text)
    text = shims._blank_pragmas_inside_statements(text)
    if shims._DEEP_ANGLES.search(text):
        text = shims._flatten_deep_templates(text)
    return text, marks


PIECES = ["]", "[=]", " ", "\n", "\t", "\x1c", "\x0b", "__device__", "__host__", "device", "x", "(", ")", "<", ">",
          ";", "{", "}", "a<", "A<", "template", " class ", "struct", "S<int>", "__launch_bounds__(", "256", ",",
          "é", "_", " " * 250, "#pragma unroll\n", "for (i)\n"]


def _random_texts(seed: int, count: int) -> list:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40))) for _ in range(count)]


def test_apply_shims_is_the_old_one_on_every_cuda_file_and_random_text():
    texts = [path.read_text(encoding="latin-1") for path in CUDA_FILES] + _random_texts(13, 4000)
    texts += ["__global__ void __launch_bounds__(256, 2) k() { auto f = [=] __host__ __device__ (int i) {}; }",
              "template class Stream<double>;\n", "W" + "<W" * 12 + ">" * 13 + " w;"]
    for text in texts:
        assert shims.apply_shims(text) == _old_apply_shims(text), text[:120]


def test_the_lambda_check_holds_wherever_the_scan_matches():
    matched = 0
    for text in _random_texts(131, 6000) + ["]" + " " * 300 + "__device__", "x]\n\x1c __host__ __device__"]:
        if shims._LAMBDA_QUALIFIER.search(text):
            matched += 1
            assert shims._may_hold_lambda_qualifier(text), text
    assert matched > 100


@pytest.mark.parametrize("text, holds", [("[=] __device__ (int i)", True), ("a[i] = __device__ f();", False), ("a[i]\n  __device__f();", True),
                                         ("] x __device__", False), ("__device__ void f()", False),
                                         ("]" + " " * 300 + "__host__", True), ("[&]__host__ __device__", True)])
def test_the_lambda_check_on_examples(text, holds):
    assert shims._may_hold_lambda_qualifier(text) == holds


def test_deep_angles_told_by_translate_are_what_the_regex_finds():
    rng = random.Random(1313)
    found = 0
    for _ in range(6000):
        text = "".join(rng.choice("<<<<<<<<<<<<>a;(){} é\n") for _ in range(rng.randint(0, 60)))
        expected = shims._DEEP_ANGLES.search(text) is not None
        found += expected
        assert shims._has_deep_angles(text) == expected, text
    assert found > 50

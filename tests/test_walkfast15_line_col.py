"""Preprocessed.line_col starting from the piece and the line of the offset asked before, and
Preprocessed.original_offset from that piece (walkfast15), against the bisections they replaced, on every CUDA file of the
project and on made-up position maps: offsets in text order (as the walk asks), backwards, at random,
at every piece's and line's first and last offset, and past both ends."""

import bisect
import inspect
import random
import re
import textwrap

import pytest

from kernelscope.frontend import macros
from test_walker_fast_paths import CUDA_FILES


def _reference_original(positions: macros.PositionMap, out_offset: int) -> int:
    """PositionMap.original as it was: one bisection, no hint."""
    i = bisect.bisect_right(positions._out_starts, out_offset) - 1
    if i < 0:
        return out_offset
    if positions._verbatim[i]:
        return positions._orig_starts[i] + (out_offset - positions._out_starts[i])
    return positions._orig_starts[i]


def _reference_line_col(pre: macros.Preprocessed, out_offset: int) -> tuple:
    starts = [0] + [m.end() for m in re.finditer("\n", pre.original)]
    offset = _reference_original(pre.positions, out_offset)
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


def _orders(offsets: list, seed: int) -> list:
    shuffled = list(offsets)
    random.Random(seed).shuffle(shuffled)
    # text order with steps back to earlier lines now and then, as the walk's loops and records make
    stepping = [o for k, o in enumerate(offsets) for o in ((o, offsets[k // 2]) if k % 7 == 3 else (o,))]
    return [list(offsets), list(reversed(offsets)), shuffled, stepping]


def _edge_offsets(pre: macros.Preprocessed) -> list:
    """Every piece's and line's first and last offset (in the expanded text where they map), and some past both ends."""
    edges = {-3, -1, 0, 1, len(pre.text) - 1, len(pre.text), len(pre.text) + 5}
    for start in pre.positions._out_starts:
        edges.update((start - 1, start, start + 1))
    for m in re.finditer("\n", pre.text):
        edges.update((m.start(), m.end()))
    return sorted(edges)


def _check(pre_factory, offsets: list, seed: int) -> None:
    for order in _orders(offsets, seed):
        pre = pre_factory()           # fresh hints and an empty answer table for each order
        for out_offset in order:
            expected_original = _reference_original(pre.positions, out_offset)
            assert pre.positions.original(out_offset) == expected_original, out_offset
            assert pre.line_col(out_offset) == _reference_line_col(pre, out_offset), out_offset
            # (original_offset shares line_col's last piece: asked between line_col's asks)
            assert pre.original_offset(out_offset) == expected_original, out_offset
            assert pre.original_offset(out_offset + 7) == _reference_original(pre.positions, out_offset + 7)


@pytest.mark.parametrize("path", CUDA_FILES, ids=lambda p: p.name)
def test_line_col_matches_the_bisections_on_every_cuda_file(path):
    text = path.read_text(encoding="latin-1")
    try:
        macros.preprocess(text)
    except Exception:                 # (a file the preprocessor refuses has no positions to compare)
        pytest.skip("not preprocessed")
    offsets = _edge_offsets(macros.preprocess(text))
    _check(lambda: macros.preprocess(text), offsets, seed=len(text))


def _made_up(seed: int):
    """A random original text and a position map over it: verbatim pieces and macro expansions
    (every character of an expansion maps to the use's start)."""
    rng = random.Random(seed)
    original = "".join(rng.choice(["a", "b;", "\n", "\n\n", "xyz", " "]) for _ in range(rng.randint(0, 300)))
    positions = macros.PositionMap()
    out = orig = 0
    pieces = []
    while orig < len(original):
        length = rng.randint(1, 12)
        verbatim = rng.random() < 0.6
        positions.add(out, orig, verbatim)
        produced = length if verbatim else rng.randint(0, 25)
        pieces.append(original[orig:orig + length] if verbatim else "E" * produced)
        out += produced
        orig += length
    expanded = "".join(pieces)

    def make():
        fresh = macros.PositionMap()
        fresh._out_starts, fresh._orig_starts, fresh._verbatim = \
            list(positions._out_starts), list(positions._orig_starts), list(positions._verbatim)
        return macros.Preprocessed(expanded, original, fresh, {})
    return make, expanded


@pytest.mark.parametrize("seed", range(150))
def test_line_col_matches_the_bisections_on_made_up_maps(seed):
    make, expanded = _made_up(seed)
    offsets = sorted(set(range(-2, len(expanded) + 3)))
    _check(make, offsets, seed)


def _line_col_changed(old: str, new: str):
    """Preprocessed.line_col with one line of its source replaced."""
    source = textwrap.dedent(inspect.getsource(macros.Preprocessed.line_col))
    assert old in source
    namespace = {}
    exec(compile(source.replace(old, new), macros.__file__, "exec"), vars(macros), namespace)
    return namespace["line_col"]


@pytest.mark.parametrize("old, new", [
    ("if start <= out_offset < end:", "if start <= out_offset:"),      # the piece's end not checked
    ("if not start <= offset < end:", "if not start <= offset:"),      # the line's end not checked
    ("if not start <= offset < end:", "if not offset < end:"),         # the line's start not checked
    ("offset = fixed if shift is None else out_offset + shift", "offset = out_offset + (shift or 0)"),
])
def test_a_hint_taken_unchecked_is_found(monkeypatch, old, new):
    monkeypatch.setattr(macros.Preprocessed, "line_col", _line_col_changed(old, new))
    failures = 0
    for seed in range(20):
        make, expanded = _made_up(seed)
        try:
            _check(make, list(range(-2, len(expanded) + 3)), seed)
        except AssertionError:
            failures += 1
    assert failures


def test_an_original_offset_without_the_end_check_is_found(monkeypatch):
    def unchecked(self, out_offset):
        start, end, shift, fixed = self._last_piece
        if start <= out_offset:
            return fixed if shift is None else out_offset + shift
        return self._map_through_piece(out_offset)
    monkeypatch.setattr(macros.Preprocessed, "original_offset", unchecked)
    failures = 0
    for seed in range(20):
        make, expanded = _made_up(seed)
        try:
            _check(make, list(range(-2, len(expanded) + 3)), seed)
        except AssertionError:
            failures += 1
    assert failures

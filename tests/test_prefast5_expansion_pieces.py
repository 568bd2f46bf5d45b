"""The preprocessor emits a macro's expansion as one piece, and an expansion's stretches without
macro names as one piece each (macros.JOIN_EXPANSION_PIECES), where it emitted a piece per token:
the text, the errors and the original offset of every offset of the text must stay what they were,
on every CUDA file of the project and on random macro definitions and uses."""

import random

from kernelscope.frontend import macros
from test_walker_fast_paths import CUDA_FILES


def _outcome(text: str, joined: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        patch.setattr(macros, "JOIN_EXPANSION_PIECES", joined)
        pre = macros.preprocess(text)
    offsets = range(len(pre.text) + 1)
    return (pre.text, [(e.line, e.column, e.message) for e in pre.errors],
            [pre.positions.original(o) for o in offsets], [pre.line_col(o) for o in offsets]), \
        len(pre.positions._out_starts)


def _agree(text: str, monkeypatch) -> tuple:
    joined, joined_entries = _outcome(text, True, monkeypatch)
    apart, apart_entries = _outcome(text, False, monkeypatch)
    assert joined == apart, repr(text)
    return joined_entries, apart_entries


def test_joined_pieces_agree_on_every_cuda_file(monkeypatch):
    fewer = 0
    for path in CUDA_FILES:
        joined_entries, apart_entries = _agree(path.read_text(encoding="latin-1"), monkeypatch)
        fewer += joined_entries < apart_entries
    assert fewer > 10               # (files whose expansions were many pieces, now fewer)


DEFINES = ["#define SQ(x) ((x) * (x))", "#define ADD(a, b) (a + b)", "#define N 16", "#define M (N + 1)",
           "#define CAT(a, b) a ## b", "#define STR(a) #a", "#define V(...) f(__VA_ARGS__)",
           "#define IDX(i, j) ((i) * M + (j))", "#define SELF SELF + 1", "#define twice(x) ADD(x, x)",
           "#define E", "#define P(x) (x)", "#define CALL(f, x) f(x)"]
USES = ["SQ(i)", "ADD(SQ(a), N)", "M", "CAT(x, 1)", "STR(a + b)", "V(1, 2, N)", "IDX(i, j + 1)", "SELF",
        "twice(q)", "E", "P(N) * P(j)", "CALL(SQ, 3)", "SQ((a, b))", "ADD(1,\n 2)", "x", "1.5f", "y[i]"]


def test_joined_pieces_agree_on_random_macro_uses(monkeypatch):
    rng = random.Random(7)
    fewer = 0
    for _ in range(400):
        defines = rng.sample(DEFINES, rng.randint(1, len(DEFINES)))
        lines = [f"int v{k} = {' + '.join(rng.choice(USES) for _ in range(rng.randint(1, 4)))};"
                 for k in range(rng.randint(1, 6))]
        joined_entries, apart_entries = _agree("\n".join(defines + lines) + "\n", monkeypatch)
        fewer += joined_entries < apart_entries
    assert fewer > 200

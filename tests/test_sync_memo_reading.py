"""`sync.Memo.reading` finds, once per expression, loop or tuple of conditions, which varying
names its memo entries are keyed by; for an expression it reads them off the expression's own
symbols (in whatever order their set gives) instead of joining and sorting them like the general
path does. These compare the findings with the general path's, and check that a memo keyed by
too few names is caught."""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels

BODIES = {
    "a loop whose addresses read its counter and a carried value": """
__shared__ float t[256];
int j = threadIdx.x;
for (int i = 0; i < 4; i++) {
    t[(j + i * 32) % 256] = x[i];
    j = j + 1;
    __syncthreads();
}
y[threadIdx.x] = t[threadIdx.x];""",
}
FILES = ["examples/reduction.cu", "corpus/bitonic_sort/shared_network.cu", "corpus/attention_scores/register_blocked.cu",
         "tests/kernels/sync/race_war_tile_loop.cu", "tests/kernels/sync/ok_double_buffer.cu"]


def _findings(kernel) -> dict:
    return sync.analyze(kernel, (256, 1, 1), {"n": 4096, "len": 512, "seq": 128, "dim": 64}, grid=(2, 1, 1)).to_json()


def _general(memo, what) -> tuple:
    names = sync._names_read(sync._expressions_of(what))
    if names is None:
        return what, None, None, False
    changing = tuple(sorted(name for name in names if name in memo.varying))
    return what, changing, (sync._ABSENT,) * len(changing), not sync._BLOCK_INDEX.isdisjoint(names)


@pytest.mark.parametrize("name,kernel", list(named_kernels(BODIES, FILES)),
                         ids=lambda case: case if isinstance(case, str) else "")
def test_the_names_read_off_an_expression_find_what_the_general_path_finds(name, kernel, monkeypatch):
    expected = _findings(kernel)
    monkeypatch.setattr(sync.Memo, "reading", _general)
    assert _findings(kernel) == expected


def test_a_memo_keyed_by_too_few_names_is_caught(monkeypatch):
    kernel = kernel_of(BODIES["a loop whose addresses read its counter and a carried value"])
    expected = _findings(kernel)
    reading = sync.Memo.reading

    def forgetful(memo, what):
        found = reading(memo, what)
        return found if found[1] is None else (what, (), (), found[3])

    monkeypatch.setattr(sync.Memo, "reading", forgetful)
    assert _findings(kernel) != expected

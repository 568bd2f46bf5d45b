"""A nest with no barrier whose batch could not reach MIN_NEST_ROWS rows whatever its inner loops'
trip counts is told so before its look-ahead (EARLY_TOO_FEW, `_surely_too_few_rows`). These check
that the look-ahead itself gives up on every nest the early test turns away, over nests of every
small shape (outer and inner trip counts around the limits, one to three inner loops, bounds that
read the outer counter, a barrier somewhere), and that the findings are the same with it on and off."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file
from kernel_bodies import kernel_of

ROOT = Path(__file__).resolve().parents[1]
FILES = ("tests/kernels/realworld/samples_scalarprod.cu", "corpus/pairwise_dist/register_blocked.cu",
         "corpus/attention_scores/register_blocked.cu", "corpus/bitonic_sort/shared_network.cu")


def _nest(outer: int, inners: tuple, barrier: str = "", reads_outer: bool = False) -> str:
    loops = "".join(f"""
    for (int j{n} = 0; j{n} < {trips}{' + k' if reads_outer else ''}; j{n}++) {{
        y[(threadIdx.x + j{n} * 7 + k) % 512] += t[(threadIdx.x + j{n}) % 256];{barrier if n == 0 else ''}
    }}""" for n, trips in enumerate(inners))
    return f"""
__shared__ float t[256];
t[threadIdx.x] = x[threadIdx.x];
__syncthreads();
for (int k = 0; k < {outer}; k++) {{{loops}
}}"""


SHAPES = [(outer, inners, barrier, reads)
          for outer in (1, 2, 3, 4, 5)
          for inners in ((3,), (7,), (8,), (2, 5), (7, 7), (1, 1, 1), (7, 7, 7))
          for barrier in ("", "\n        __syncthreads();")
          for reads in (False, True)]


def _kernels():
    for outer, inners, barrier, reads in SHAPES:
        yield f"{outer}x{inners}{' barrier' if barrier else ''}{' reads k' if reads else ''}", \
            kernel_of(_nest(outer, inners, barrier, reads))
    for path in FILES:
        if (ROOT / path).exists():
            for kernel in parse_file((ROOT / path).read_text(), path).kernels:
                yield f"{path}:{kernel.name}", kernel


KERNELS = list(_kernels())


def _findings(kernel) -> dict:
    return sync.analyze(kernel, (256, 1, 1), {"vectorN": 4, "elementN": 3000, "n": 40, "m": 24, "d": 16},
                        grid=(2, 1, 1)).to_json()


def test_every_nest_turned_away_early_is_one_the_look_ahead_gives_up_on(monkeypatch):
    monkeypatch.setattr(sync, "EARLY_TOO_FEW", False)
    asked = []      # (turned away early, look-ahead's answer) per nest batch tried
    real = sync.BlockRun.prepare_nest

    def watched(self, node, env, forgotten, trips, *rest):
        with monkeypatch.context() as early:
            early.setattr(sync, "EARLY_TOO_FEW", True)
            turned_away = sync._surely_too_few_rows(node, len(trips))
        prepared = real(self, node, env, forgotten, trips, *rest)
        asked.append((turned_away, prepared is not None))
        return prepared

    monkeypatch.setattr(sync.BlockRun, "prepare_nest", watched)
    for _, kernel in KERNELS:
        _findings(kernel)
    assert (True, False) in asked and (False, True) in asked     # both answers met
    assert (True, True) not in asked


@pytest.mark.parametrize("name,kernel", KERNELS, ids=lambda case: case if isinstance(case, str) else "")
def test_findings_are_the_same_without_the_early_test(name, kernel, monkeypatch):
    expected = _findings(kernel)
    monkeypatch.setattr(sync, "EARLY_TOO_FEW", False)
    assert _findings(kernel) == expected

"""A warp intrinsic in a loop is checked against its lane mask in every iteration; the executor
keeps the last answer per intrinsic, with the masks and threads it was asked of. These compare the
findings with and without that, and check that an answer kept for other threads is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.analyses import sync
from kernelscope.frontend import parse_file

ROOT = Path(__file__).resolve().parents[1]


def kernel_of(body: str, params: str = "const float* x, float* y, int n"):
    source = f'extern "C" __global__ void k({params})\n{{\n{body}\n}}\n'
    model = parse_file(source, "k.cu")
    assert model.kernels, model.errors
    return model.kernels[0]


BODIES = {
    "lanes that drop out of a shuffle loop": """
float v = x[threadIdx.x];
for (int k = 0; k < 8; k++)
    if (threadIdx.x % 32 < 32 - k)
        v += __shfl_xor_sync(0xffffffff, v, 1);
y[threadIdx.x] = v;""",
    "a mask that follows the counter": """
float v = x[threadIdx.x];
for (int k = 0; k < 6; k++)
    v += __shfl_down_sync(0xffffffffu >> k, v, 1);
y[threadIdx.x] = v;""",
    "a warp reduction after threads returned": """
if (threadIdx.x % 32 == 5 + blockIdx.x)
    return;
float v = x[threadIdx.x];
for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
__syncwarp();
y[threadIdx.x] = v;""",
}

CORPUS = ["examples/reduction.cu", "corpus/bitonic_sort/shuffle_network.cu", "corpus/layer_norm/warp_shuffle.cu",
          "corpus/cross_entropy/warp_vectorized.cu", "corpus/softmax/block_shared.cu"]


def _cases():
    for name, body in BODIES.items():
        yield name, kernel_of(body)
    for path in CORPUS:
        for kernel in parse_file((ROOT / path).read_text(), path).kernels:
            yield f"{path}:{kernel.name}", kernel


CASES = list(_cases())


def _findings(kernel) -> dict:
    return sync.analyze(kernel, (256, 1, 1), {}, grid=(2, 1, 1)).to_json()


def _unkept(self, record, masks, active):
    return sync._mask_problem(masks, active, self.alive, self.space)


@pytest.mark.parametrize("name,kernel", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_kept_mask_checks_find_what_fresh_ones_find(name, kernel, monkeypatch):
    kept = _findings(kernel)
    monkeypatch.setattr(sync.BlockRun, "mask_problem", _unkept)
    assert kept == _findings(kernel)


def test_an_answer_kept_for_other_threads_is_caught(monkeypatch):
    kernel = kernel_of(BODIES["lanes that drop out of a shuffle loop"])
    honest = _findings(kernel)
    assert honest["mask_mismatches"]

    def careless(self, record, masks, active):
        if id(record) not in self.mask_checks:
            self.mask_checks[id(record)] = sync._mask_problem(masks, active, self.alive, self.space)
        return self.mask_checks[id(record)]

    monkeypatch.setattr(sync.BlockRun, "mask_problem", careless)
    assert _findings(kernel) != honest

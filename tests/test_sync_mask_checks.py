"""A warp intrinsic in a loop is checked against its lane mask in every iteration; the executor
keeps the last answer per intrinsic, with the masks and threads it was asked of, and evaluates the
masks of a long loop's iterations at once (`BlockRun.run_batched`). These compare the findings
with and without either, and check that an answer kept for other threads, or masks checked against
another iteration's threads, are caught."""

from __future__ import annotations

import pytest

from kernelscope.analyses import sync
from kernel_bodies import kernel_of, named_kernels

BODIES = {
    "lanes that drop out of a shuffle loop": """
float v = x[threadIdx.x];
for (int k = 0; k < 12; k++)
    if (threadIdx.x % 32 < 32 - k)
        v += __shfl_xor_sync(0xffffffff, v, 1);
y[threadIdx.x] = v;""",
    "a mask that follows the counter": """
float v = x[threadIdx.x];
for (int k = 0; k < 10; k++)
    v += __shfl_down_sync(k < 9 ? 0xffffffffu : 0xffffu, v, 1);
y[threadIdx.x] = v;""",
    "a shuffle network in a nest with barriers": """
__shared__ float t[256];
float v = x[threadIdx.x];
for (int k = 2; k <= 256; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) {
        if (j >= 32) {
            t[threadIdx.x] = v;
            __syncthreads();
            v = fminf(v, t[threadIdx.x ^ j]);
            __syncthreads();
        } else {
            v = fmaxf(v, __shfl_xor_sync(j < 2 ? 0xffffu : 0xffffffffu, v, j));
        }
    }
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
    return named_kernels(BODIES, CORPUS)


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


@pytest.mark.parametrize("name,kernel", CASES, ids=lambda case: case if isinstance(case, str) else "")
def test_masks_of_iterations_evaluated_at_once_find_what_one_by_one_finds(name, kernel, monkeypatch):
    batched = _findings(kernel)
    monkeypatch.setattr(sync, "MIN_BATCH", 1 << 30)
    monkeypatch.setattr(sync, "MIN_NEST_ROWS", 1 << 30)
    assert batched == _findings(kernel)


def test_loops_of_warp_intrinsics_are_batched(monkeypatch):
    for name, method in (("a mask that follows the counter", "run_batched"),
                         ("a shuffle network in a nest with barriers", "run_nest_batched")):
        outcomes = []
        real = getattr(sync.BlockRun, method)
        monkeypatch.setattr(sync.BlockRun, method, lambda self, *args, real=real: (
            outcomes.append(real(self, *args)) or outcomes[-1]))
        _findings(kernel_of(BODIES[name]))
        assert True in outcomes, name


def test_masks_checked_against_another_iterations_threads_are_caught(monkeypatch):
    kernel = kernel_of(BODIES["a mask that follows the counter"])
    honest = _findings(kernel)
    assert honest["mask_mismatches"]
    real = sync.BlockRun.check_masks

    def first_row(self, step, record, name, masks):
        if masks is not None and getattr(masks, "base", None) is not None and masks.base.ndim == 2:
            masks = masks.base[0]
        return real(self, step, record, name, masks)

    monkeypatch.setattr(sync.BlockRun, "check_masks", first_row)
    assert _findings(kernel) != honest

"""KS3xx on real kernels. Occupancy needs a register count: these tests take it from ptxas
(`registers = "ptxas"`), so they run where nvcc is installed and are skipped elsewhere."""

import shutil

import pytest

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import lint_text

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc (ptxas) is not installed")

PTXAS = Settings(registers="ptxas")


def findings(source, code):
    return [f.diagnostic.line for f in lint_text(source, "kernel.cu", PTXAS).findings if f.diagnostic.rule == code]


LARGE_TILE = """
__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
    __shared__ float tile[12 * 1024];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}
void launch(float* a, float* b) { k<<<100, BLOCK>>>(a, b); }
"""

SMALL_TILE = LARGE_TILE.replace("12 * 1024", "256")


def test_ks301_fires_when_shared_memory_leaves_few_warps_per_sm():
    assert findings(LARGE_TILE.replace("BLOCK", "64"), "KS301") == [2]


def test_ks301_is_silent_for_a_small_tile_and_a_full_block():
    assert findings(SMALL_TILE.replace("BLOCK", "256"), "KS301") == []


BOUNDED = """
__global__ void __launch_bounds__(256) k(float* __restrict__ a) { a[threadIdx.x] = 0.0f; }
void launch(float* a) { k<<<100, BLOCK>>>(a); }
"""


def test_ks303_fires_for_a_launch_above_the_kernels_launch_bounds():
    assert findings(BOUNDED.replace("BLOCK", "512"), "KS303") == [2]


def test_ks303_is_silent_for_a_launch_within_the_bounds():
    assert findings(BOUNDED.replace("BLOCK", "256"), "KS303") == []


SPILLING = """
__global__ void __launch_bounds__(1024, 2) k(const float* __restrict__ a, float* __restrict__ c, int n) {
    float acc[64];
#pragma unroll
    for (int j = 0; j < 64; ++j) acc[j] = a[threadIdx.x + j * 1024];
    for (int s = 0; s < n; ++s) {
#pragma unroll
        for (int j = 0; j < 64; ++j) acc[j] = acc[j] * acc[(j + 1) % 64] + a[s];
    }
#pragma unroll
    for (int j = 0; j < 64; ++j) c[threadIdx.x + j * 1024] = acc[j];
}
"""


def test_ks302_fires_when_launch_bounds_force_spills():
    assert findings(SPILLING, "KS302") == [2]


def test_ks302_is_silent_when_the_register_limit_allows_the_working_set():
    relaxed = SPILLING.replace("__launch_bounds__(1024, 2)", "__launch_bounds__(128)")
    assert findings(relaxed, "KS302") == []

"""KS4xx on real kernels: a kernel that triggers each rule and one that must not."""

import pytest

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import lint_text


def findings(source, code):
    outcome = lint_text(source, "kernel.cu", Settings(block=(256, 1, 1)))
    return [f.diagnostic.line for f in outcome.findings if f.diagnostic.rule == code]


ALIASING = """
__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""
RESTRICTED = ALIASING.replace("const float* x, float* y", "const float* __restrict__ x, float* __restrict__ y")


def test_ks402_fires_when_a_written_pointer_may_alias_a_read_one():
    assert findings(ALIASING, "KS402") == [2]


def test_ks402_is_silent_with_restrict():
    assert findings(RESTRICTED, "KS402") == []


def test_ks402_is_silent_with_a_single_pointer():
    assert findings("__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n", "KS402") == []


def test_ks401_fires_on_a_streaming_add():
    assert findings(RESTRICTED, "KS401")


def test_ks403_fires_on_reused_read_only_data_without_const_restrict():
    source = """
    __global__ void conv1d(float* x, float* w, float* y, int k) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float s = 0.0f;
        for (int j = 0; j < k; ++j) s += w[j] * x[i + j];
        y[i] = s;
    }
    """
    assert findings(source, "KS403")


def test_ks401_is_silent_on_a_compute_bound_kernel():
    source = """
    __global__ void poly(const float* __restrict__ x, float* __restrict__ y) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = x[i], s = 0.0f;
        #pragma unroll
        for (int k = 0; k < 512; ++k) s = s * v + 1.0f;   // 1,024 FLOPs per 8 bytes
        y[i] = s;
    }
    """
    assert findings(source, "KS401") == []


def test_ks403_is_silent_with_const_restrict_or_ldg():
    restricted = """
    __global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int k) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float s = 0.0f;
        for (int j = 0; j < k; ++j) s += w[j] * x[i + j];
        y[i] = s;
    }
    """
    ldg = restricted.replace("const float* __restrict__ x, const float* __restrict__ w", "float* x, float* w") \
        .replace("w[j] * x[i + j]", "__ldg(&w[j]) * __ldg(&x[i + j])")
    assert findings(restricted, "KS403") == []
    assert findings(ldg, "KS403") == []

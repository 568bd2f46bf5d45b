"""KS2xx on real kernels: each rule fires on a kernel with the hazard and is silent on the fix.
The seeded corpus in tests/kernels/sync (checked against compute-sanitizer on the H200) is
covered by the synchronization analysis' own tests; these pairs pin down the lint codes."""

import pytest

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import lint_text


def lines_of(source, code, block=(256, 1, 1)):
    outcome = lint_text(source, "kernel.cu", Settings(block=block))
    return sorted({f.diagnostic.line for f in outcome.findings if f.diagnostic.rule == code})


CASES = {
    "KS201": (
        """__global__ void k(float* __restrict__ a) {
            __shared__ float s[256];
            if (threadIdx.x < 128) {
                s[threadIdx.x] = a[threadIdx.x];
                __syncthreads();
                a[threadIdx.x] = s[127 - threadIdx.x];
            }
        }""",
        """__global__ void k(float* __restrict__ a) {
            __shared__ float s[256];
            if (threadIdx.x < 128) s[threadIdx.x] = a[threadIdx.x];
            __syncthreads();
            if (threadIdx.x < 128) a[threadIdx.x] = s[127 - threadIdx.x];
        }""", 5),
    "KS202": (
        """__global__ void k(float* __restrict__ a) {
            __shared__ float s[256];
            s[threadIdx.x] = a[blockIdx.x * 256 + threadIdx.x];
            a[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
        }""",
        """__global__ void k(float* __restrict__ a) {
            __shared__ float s[256];
            s[threadIdx.x] = a[blockIdx.x * 256 + threadIdx.x];
            __syncthreads();
            a[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
        }""", 4),
    "KS203": (
        """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = in[i];
            __syncthreads();
            out[i] = v;
        }""",
        """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            out[i] = in[i];
        }""", 4),
    "KS204": (
        """__global__ void k(const float* __restrict__ x, float* __restrict__ total, int n) {
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
                atomicAdd(total, x[i]);
        }""",
        """__global__ void k(const float* __restrict__ x, float* __restrict__ total, int n) {
            float v = 0.0f;
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
                v += x[i];
            for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
            if (threadIdx.x % 32 == 0) atomicAdd(total, v);
        }""", 3),
    "KS205": (
        """__global__ void k(float* __restrict__ a) {
            float v = a[threadIdx.x];
            if (threadIdx.x % 32 < 20) v += __shfl_down_sync(0xffffffffu, v, 1);
            a[threadIdx.x] = v;
        }""",
        """__global__ void k(float* __restrict__ a) {
            float v = a[threadIdx.x];
            float w = __shfl_down_sync(0xffffffffu, v, 1);
            if (threadIdx.x % 32 < 20) v += w;
            a[threadIdx.x] = v;
        }""", 3),
    "KS206": (
        """__global__ void k(const float* __restrict__ x, float* __restrict__ y, int n) {
            __shared__ float s[256];
            int i = blockIdx.x * 256 + threadIdx.x;
            if (i >= n) return;
            s[threadIdx.x] = x[i];
            __syncthreads();
            y[i] = s[(threadIdx.x + 1) % 256];
        }""",
        """__global__ void k(const float* __restrict__ x, float* __restrict__ y, int n) {
            __shared__ float s[256];
            int i = blockIdx.x * 256 + threadIdx.x;
            s[threadIdx.x] = i < n ? x[i] : 0.0f;
            __syncthreads();
            if (i < n) y[i] = s[(threadIdx.x + 1) % 256];
        }""", 4),
    "KS207": (
        """__global__ void k(const float* __restrict__ x, float* __restrict__ out) {
            __shared__ float s[64];
            int t = threadIdx.x;
            s[t] = x[t];
            __syncthreads();
            if (t < 32) {
                s[t] += s[t + 16];
                s[t] += s[t + 8];
            }
            if (t == 0) out[0] = s[0];
        }""",
        """__global__ void k(const float* __restrict__ x, float* __restrict__ out) {
            __shared__ float s[64];
            int t = threadIdx.x;
            s[t] = x[t];
            __syncthreads();
            if (t < 32) {
                float v = s[t] + s[t + 16];
                __syncwarp();
                s[t] = v;
                __syncwarp();
                v = s[t] + s[t + 8];
                __syncwarp();
                s[t] = v;
            }
            if (t == 0) out[0] = s[0];
        }""", 7),
    "KS208": (
        """__global__ void k(float* __restrict__ a, float* __restrict__ out) {
            a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
            __threadfence();
            out[blockIdx.x] = 2.0f;
        }""",
        """__global__ void k(float* __restrict__ a, float* __restrict__ out) {
            a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
            out[blockIdx.x] = 2.0f;
        }""", 3),
}

BLOCKS = {"KS207": (64, 1, 1)}


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_fires_on_the_faulty_kernel_at_the_hazard(code):
    faulty, _, line = CASES[code]
    assert line in lines_of(faulty, code, BLOCKS.get(code, (256, 1, 1)))


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_is_silent_on_the_corrected_kernel(code):
    _, corrected, _ = CASES[code]
    assert lines_of(corrected, code, BLOCKS.get(code, (256, 1, 1))) == []

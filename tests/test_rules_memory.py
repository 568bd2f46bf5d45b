"""KS1xx on real kernels through the real analyses: each rule fires on a kernel that has the
problem and stays silent on the corrected kernel.

KS104 (local-memory-array): runtime-indexed local arrays fire, constant and unrolled-counter indices do not.
"""

import pytest

from kernelscope.lint.config import Settings
from kernelscope.lint.engine import lint_text

SETTINGS = Settings(block=(256, 1, 1))


def findings(source, code, settings=SETTINGS):
    outcome = lint_text(source, "kernel.cu", settings)
    return [f.diagnostic.line for f in outcome.findings if f.diagnostic.rule == code]


CASES = {
    "KS101": (
        """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            out[i] = in[i * 32];
        }""",
        """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            out[i] = in[i];
        }"""),
    "KS102": (
        """__global__ void k(const float* __restrict__ x, const int* __restrict__ idx, float* __restrict__ y) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            y[i] = x[idx[i]];
        }""",
        """__global__ void k(const float* __restrict__ x, const int* __restrict__ idx, float* __restrict__ y) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            y[i] = x[i] + idx[i];
        }"""),
    "KS103": (
        """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
            __shared__ float tile[32][32];
            tile[threadIdx.x % 32][0] = in[threadIdx.x];
            __syncthreads();
            out[threadIdx.x] = tile[threadIdx.x % 32][1];
        }""",
        """__global__ void k(const float* __restrict__ in, float* __restrict__ out) {
            __shared__ float tile[32][33];
            tile[threadIdx.x % 32][0] = in[threadIdx.x];
            __syncthreads();
            out[threadIdx.x] = tile[threadIdx.x % 32][1];
        }"""),
    "KS111": (
        """__global__ void k(float* __restrict__ a, int steps) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = a[i];
            for (int s = 0; s < steps; ++s) {
                if (threadIdx.x % 2 == 0) v = v * 0.5f;
                else v = v + 1.0f;
            }
            a[i] = v;
        }""",
        """__global__ void k(float* __restrict__ a, int steps) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = a[i];
            for (int s = 0; s < steps; ++s) {
                if ((threadIdx.x / 32) % 2 == 0) v = v * 0.5f;
                else v = v + 1.0f;
            }
            a[i] = v;
        }"""),
    "KS112": (
        """__global__ void k(float* __restrict__ a) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = a[i];
            if (threadIdx.x % 2) v = 1.0f;
            a[i] = v;
        }""",
        """__global__ void k(float* __restrict__ a) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = a[i];
            if ((threadIdx.x / 32) % 2) v = 1.0f;
            a[i] = v;
        }"""),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_fires_on_the_faulty_kernel(code):
    faulty, _ = CASES[code]
    assert findings(faulty, code)


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_is_silent_on_the_corrected_kernel(code):
    _, corrected = CASES[code]
    assert findings(corrected, code) == []


def test_ks101_points_at_the_strided_access():
    faulty, _ = CASES["KS101"]
    assert findings(faulty, "KS101") == [3]


def test_ks111_and_ks112_tell_loops_from_straight_code():
    assert findings(CASES["KS111"][0], "KS112") == []
    assert findings(CASES["KS112"][0], "KS111") == []


def test_ks104_fires_on_a_dynamically_indexed_local_array():
    source = """__global__ void k(const int* __restrict__ keys, int* __restrict__ out, int n) {
        int counts[8] = {0};
        for (int i = threadIdx.x; i < n; i += blockDim.x) counts[keys[i] & 7]++;
        for (int b = 0; b < 8; ++b) atomicAdd(&out[b], counts[b]);
    }"""
    assert findings(source, "KS104")


def test_ks104_is_silent_for_constant_and_unrolled_indices():
    source = """__global__ void k(const float* __restrict__ a, float* __restrict__ out) {
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        #pragma unroll
        for (int r = 0; r < 4; ++r) acc[r] += a[threadIdx.x * 4 + r];
        out[threadIdx.x] = acc[0] + acc[3];
    }"""
    assert findings(source, "KS104") == []

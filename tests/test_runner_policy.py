"""Candidates are device code only; escapes need an opt-in (CPU only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.runner.source_policy import PolicyError, check_source, host_functions, kernel_names, \
    strip_comments_and_strings

ROOT = Path(__file__).resolve().parents[1]

DEVICE_ONLY = '''
#include <cuda_fp16.h>
namespace detail {
template <typename T> __device__ __forceinline__ T twice(T v) { return v + v; }
}
struct Pair { float a, b; };
__constant__ float weights[4];
extern "C" {
__global__ void __launch_bounds__(256, 2) scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = detail::twice(x[i]) * weights[0];   // not main(), not cudaMalloc
}
}
__host__ __device__ inline float both(float v) { return v; }
'''


def test_device_only_source_passes():
    check_source(DEVICE_ONLY)
    assert kernel_names(DEVICE_ONLY) == ["scale"]


@pytest.mark.parametrize("source, words", [
    ("int main() { return 0; }", "defines main()"),
    ("__global__ void k(float *a) {}\nvoid go(float *a) { k<<<1, 1>>>(a); }", "'go' is not __global__"),
    ("__global__ void k(float *a) { float *p; cudaMalloc(&p, 4); }", "calls cudaMalloc"),
    ("__global__ void k(float *a) {}\n__host__ void h() {}", "'h' is not __global__"),
    ("static float helper(float v) { return v; }", "'helper' is not __global__"),
])
def test_host_code_is_rejected_with_a_reason(source, words):
    with pytest.raises(PolicyError) as error:
        check_source(source)
    assert "host code" in str(error.value) and words in str(error.value)


@pytest.mark.parametrize("source, opt_in", [
    ("__global__ void child(float *a) {}\n__global__ void k(float *a) { child<<<1, 1>>>(a); }",
     "dynamic_parallelism"),
    ("__global__ void k(float *a) { float *p = (float *)malloc(16); free(p); }", "device_malloc"),
    ("__global__ void k(long long *t) { t[0] = clock64(); }", "clock"),
    ('__global__ void k(unsigned long long *t) { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t[0])); }',
     "clock"),
])
def test_escapes_need_their_opt_in(source, opt_in):
    with pytest.raises(PolicyError, match=opt_in):
        check_source(source)
    check_source(source, allow={opt_in})


def test_words_in_comments_and_strings_do_not_count():
    source = '// int main() calls cudaMalloc\n__global__ void k(char *s) { printf("malloc( main()"); }'
    check_source(source)


def test_unknown_opt_in_is_an_error():
    with pytest.raises(PolicyError, match="unknown opt-in"):
        check_source("__global__ void k() {}", allow={"everything"})


def test_the_adversarial_host_code_kernel_is_rejected():
    with pytest.raises(PolicyError, match="'launch' is not __global__"):
        check_source((ROOT / "tests" / "kernels" / "adversarial" / "host_code.cu").read_text())


def test_strip_keeps_line_numbers():
    source = "a /* one\ntwo */ b // three\nc \"x\\\"y\" d"
    stripped = strip_comments_and_strings(source)
    assert stripped.count("\n") == source.count("\n")
    assert "one" not in stripped and "three" not in stripped and "x" not in stripped


def test_struct_methods_are_not_host_functions():
    assert host_functions(strip_comments_and_strings("struct S { float get() { return 1; } };")) == []

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


# Spellings that hide a name from a regex over the raw text; the token-level policy sees through each.
@pytest.mark.parametrize("source, opt_in", [
    ("__global__ void k(long long *t) { t[0] = (clock64)(); }", "clock"),
    ("#define CLK clock64\n__global__ void k(long long *t) { t[0] = CLK(); }", "clock"),
    ("#define CAT(a, b) a##b\n__global__ void k(long long *t) { t[0] = CAT(clo, ck64)(); }", "clock"),
    ("__global__ void k(long long *t) { t[0] = clo\\\nck64(); }", "clock"),
    ('__global__ void k(unsigned long long *t) { asm volatile("mov.u64 %0, %%glob" "altimer;" : "=l"(t[0])); }',
     "clock"),
    ('#define REG "altimer"\n__global__ void k(unsigned long long *t) { asm volatile("mov.u64 %0, %%glob" REG ";" : "=l"(t[0])); }',
     "clock"),
    ('__global__ void k(unsigned long long *t) { asm volatile("mov.u64 %0, %%\\x67lobaltimer;" : "=l"(t[0])); }',
     "clock"),
    ('#define S(...) #__VA_ARGS__\n__global__ void k(unsigned long long *t) { asm volatile(S(mov.u64 %0, %globaltimer;) : "=l"(t[0])); }',
     "clock"),
    ("__global__ void k(float **p) { p[0] = (float *)(malloc)(16); }", "device_malloc"),
    ("#define ALLOC malloc\n__global__ void k(float **p) { p[0] = (float *)ALLOC(16); }", "device_malloc"),
    ("__global__ void child(float *a) {}\n#define LAUNCH(k, a) k<<<1, 1>>>(a)\n"
     "__global__ void k(float *a) { LAUNCH(child, a); }", "dynamic_parallelism"),
    ("__global__ void child(float *a) {}\n#define OPEN <<<\n__global__ void k(float *a) { child OPEN 1, 1>>>(a); }",
     "dynamic_parallelism"),
])
def test_spellings_that_hide_an_escape_still_need_its_opt_in(source, opt_in):
    with pytest.raises(PolicyError, match=opt_in):
        check_source(source)
    check_source(source, allow={opt_in})


@pytest.mark.parametrize("source", [
    "#define ALLOCATE cudaMalloc\n__global__ void k(float *a) { float *p; ALLOCATE(&p, 4); }",
    "__global__ void k(float *a) { float *p; (cudaMalloc)(&p, 4); }",
    "#define ENTRY main\nint ENTRY() { return 0; }",
])
def test_host_calls_built_by_macros_are_rejected(source):
    with pytest.raises(PolicyError, match="host code"):
        check_source(source)


@pytest.mark.parametrize("header", ["cuda_fp16.h", "cuda_bf16.h", "cooperative_groups.h", "mma.h",
                                    "cuda/std/cstdint", "cub/block/block_reduce.cuh",
                                    "cooperative_groups/reduce.h"])
def test_cuda_device_headers_may_be_included(header):
    check_source(f"#include <{header}>\n__global__ void k(float *a) {{}}")


@pytest.mark.parametrize("line", ['#include "helpers.h"', "#include </etc/passwd>", "#include <stdio.h>",
                                  "#include <cuda/../../../etc/passwd>", "#define H <stdio.h>\n#include H",
                                  '#include_next <cuda_fp16.h>', '#/**/include "local.h"',
                                  '# \\\n include "local.h"', '%:include "local.h"'])
def test_other_includes_are_refused(line):
    with pytest.raises(PolicyError):
        check_source(f"{line}\n__global__ void k(float *a) {{}}")


def test_a_branch_only_one_compiler_takes_is_checked_too():
    source = ("#ifdef __CUDACC_RTC__\n#define CAT(a, b) a##b\n#else\n#define CAT(a, b) 0\n#endif\n"
              "__global__ void k(long long *t) { t[0] = CAT(clo, ck64)(); }")
    with pytest.raises(PolicyError, match="clock"):
        check_source(source)


def test_conditions_the_preprocessor_cannot_decide_are_refused():
    source = "#if __has_include(<evil.h>)\n#endif\n__global__ void k(float *a) {}"
    with pytest.raises(PolicyError, match="cannot check"):
        check_source(source)


def test_members_and_strings_named_like_escapes_do_not_count():
    check_source('template <typename T> __device__ int count(T *p) { return p->free + p->clock; }\n'
                 '__global__ void k(char *s) { printf("clock64 malloc <<<"); }')


def test_a_source_over_the_size_limit_is_refused_before_it_is_preprocessed():
    import time

    from kernelscope.runner import source_policy

    # 1 MB of function-like macro arguments: about 17 s of preprocessing were it checked
    huge = "#define F(...) __VA_ARGS__ __VA_ARGS__\n__global__ void k(float* x) { F(" + "x," * 500_000 + "x); }\n"
    started = time.process_time()
    with pytest.raises(PolicyError, match=r"over the runner's 256 KB limit"):
        source_policy.check_source(huge)
    assert time.process_time() - started < 0.5     # refused on its size, not after the work


def test_a_source_under_the_size_limit_is_still_checked_on_its_tokens():
    padding = "// " + "p" * 200_000 + "\n"
    with pytest.raises(PolicyError, match="cudaMalloc"):
        check_source(padding + "__global__ void k(float* x) { cudaMalloc(0, 4); }\n")

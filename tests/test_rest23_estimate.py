"""resources.estimate_usage counts its features in plain loops and adds the weighted features with
map(mul): compared here with the code it replaced (kept below) on every kernel of the project's files
and on kernels that reach each cap."""

from __future__ import annotations

from kernelscope import resources
from kernelscope.frontend.parse import parse_file
from kernelscope.resources import (ARITH_SITES_CAP, ESTIMATOR_WEIGHTS, LOCAL_WORDS_CAP, MIN_REGISTERS, ResourceUsage,
                                   estimate_usage, estimator_features)
from tests.project_sources import project_kernels


def old_estimator_features(kernel) -> dict:
    local_bytes = sum(kernel.local_arrays.values())
    return {
        "base": 1,
        "pointer_params": sum(1 for p in kernel.params if p.is_pointer),
        "loops": len(kernel.loops),
        "loop_depth": max((loop.depth for loop in kernel.loops), default=0),
        "unrolled_loops": sum(1 for loop in kernel.loops if loop.unrolled is not None),
        "arith_sites": min(len(kernel.arith), ARITH_SITES_CAP),
        "local_words": min(local_bytes // 4, LOCAL_WORDS_CAP),
    }


def old_estimate_usage(kernel) -> ResourceUsage:
    features = old_estimator_features(kernel)
    registers = round(sum(ESTIMATOR_WEIGHTS[name] * value for name, value in features.items()))
    registers = min(max(registers, MIN_REGISTERS), resources._launch_bounds_register_cap(kernel))
    local_bytes = sum(kernel.local_arrays.values())
    return ResourceUsage(
        registers=registers,
        stack_bytes=local_bytes if local_bytes > LOCAL_WORDS_CAP * 4 else 0,
        static_shared_bytes=resources._static_shared_bytes(kernel),
        barriers=1 if any(b.kind.startswith("syncthreads") for b in kernel.barriers) else 0,
        source="estimate",
        instantiation=kernel.name,
    )


def same(kernel):
    assert estimator_features(kernel) == old_estimator_features(kernel), kernel.name
    assert list(estimator_features(kernel)) == list(old_estimator_features(kernel))
    assert estimate_usage(kernel) == old_estimate_usage(kernel), kernel.name


def test_project_kernels_get_the_old_estimate():
    kernels = list(project_kernels())
    for kernel in kernels:
        same(kernel)
    estimates = {estimate_usage(k).registers for k in kernels}
    assert len(estimates) > 10          # the weights were exercised, not only the floor
    assert any(estimate_usage(k).barriers for k in kernels) and any(not estimate_usage(k).barriers for k in kernels)


HEAVY = """
__global__ void __launch_bounds__(1024, 2) heavy(float* a, const float* b, double* c, int n) {
    float local[80];
    __shared__ float tile[32][33];
    for (int i = 0; i < n; i++) {
        #pragma unroll 4
        for (int j = 0; j < 8; j++) {
            for (int k = 0; k < 4; k++) { local[k] = a[i] * b[j] + c[k] * 2.0 + a[k] / b[k] - 1.0f; }
        }
    }
    __syncthreads();
    for (int q = 0; q < 30; q++) { a[q] = a[q] * 3.0f + b[q] * 4.0f - local[q] * 5.0f + tile[q][0]; }
    a[1] = a[2] * 3.0f + b[3] * 4.0f - a[4] * 5.0f + b[5] * 6.0f - a[6] * 7.0f + b[7] * 8.0f + a[8] * b[9] * a[10];
    a[1] = a[2] * 3.0f + b[3] * 4.0f - a[4] * 5.0f + b[5] * 6.0f - a[6] * 7.0f + b[7] * 8.0f + a[8] * b[9] * a[10];
}
__global__ void light(int* x) { __syncwarp(); x[threadIdx.x] = 0; }
"""


def test_caps_and_barriers_are_those_of_the_old_estimate():
    kernels = {k.name: k for k in parse_file(HEAVY).kernels}
    heavy, light = kernels["heavy"], kernels["light"]
    features = estimator_features(heavy)
    assert features["arith_sites"] == ARITH_SITES_CAP and features["local_words"] == LOCAL_WORDS_CAP
    assert features["loop_depth"] == 3 and features["unrolled_loops"] >= 1 and features["pointer_params"] == 3
    assert estimate_usage(heavy).stack_bytes == 320 and estimate_usage(heavy).barriers == 1
    assert estimate_usage(light).barriers == 0
    same(heavy)
    same(light)

"""The walker's intrinsic tables: each CUDA intrinsic the walker models reaches its own handler, and
the records it leaves are those of that kind of call."""

import pytest

from kernelscope.frontend import body, parse_file


def kernel_of(statements: str):
    source = ("__global__ void k(const float* a, float* b, int* c, unsigned m, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + statements + "\n}\n")
    model = parse_file(source, "k.cu")
    assert not model.errors, model.errors
    return model.kernels[0]


def test_a_name_in_two_groups_is_refused():
    with pytest.raises(ValueError, match="two handlers"):
        body._intrinsic_table((("fmaf",), body.Walker._fma_call), (("fmaf", "sqrtf"), body.Walker._sqrt_call))


@pytest.mark.parametrize("names, handler", [
    (body.BARRIERS, body.Walker._barrier_call), (body.CACHED_LOADS, body.Walker._cached_load_call),
    (body.CACHED_STORES, body.Walker._cached_store_call), (body.CASTS, body.Walker._cast_call),
])
def test_intrinsics_that_read_their_argument_nodes_have_their_handler(names, handler):
    assert {name: body._INTRINSICS_ON_ARGUMENTS[name] for name in names} == {name: handler for name in names}


@pytest.mark.parametrize("names, handler", [
    (body.FMA, body.Walker._fma_call), (body.SQRT, body.Walker._sqrt_call),
    (body.HALF_ARITH, body.Walker._half_arith_call), (body.SPECIAL_MATH, body.Walker._special_math_call),
    (body.FLOAT_MINMAX, body.Walker._float_minmax_call), (body.INTEGER_FUNCTIONS, body.Walker._integer_call),
])
def test_intrinsics_of_argument_values_have_their_handler(names, handler):
    assert {name: body._INTRINSICS_ON_VALUES[name] for name in names} == {name: handler for name in names}


def test_barriers_and_warp_syncs_become_barrier_records():
    kernel = kernel_of("__syncthreads(); __syncwarp(m);")
    assert [b.kind for b in kernel.barriers] == ["syncthreads", "syncwarp"]
    assert kernel.barriers[1].mask is not None and str(kernel.barriers[1].mask) == "m"


def test_a_cache_hinted_load_is_a_load_of_its_pointer():
    kernel = kernel_of("b[i] = __ldg(&a[i]);")
    loads = [x for x in kernel.accesses if x.op == "load"]
    assert [(x.array, x.cached) for x in loads] == [("a", "__ldg")]


def test_math_intrinsics_charge_their_operation():
    kernel = kernel_of("b[i] = fmaf(a[i], 2.0f, 1.0f) + sqrtf(a[i]) + __expf(a[i]);")
    assert {op.op for op in kernel.arith} >= {"fma", "sqrt", "special"}


def test_prefixed_intrinsics_atomics_and_shuffles_are_recognised():
    kernel = kernel_of("atomicAdd(&c[i], 1); float v = __shfl_down_sync(0xffffffffu, a[i], 1); b[i] = v;")
    assert [x.op for x in kernel.accesses if x.array == "c"] == ["atomic"]
    assert kernel.uses_shuffle


def test_an_unconditioned_intrinsic_name_falls_through_to_the_files_own_function():
    # `sync` with two arguments is not cooperative groups' sync(g): the file's helper is inlined
    source = ("__device__ int sync(int x, int y) { return x + y; }\n"
              "__global__ void k(int* out) { out[threadIdx.x] = sync(1, 2); }\n")
    kernel = parse_file(source, "k.cu").kernels[0]
    assert not kernel.barriers and not kernel.uses_cooperative_groups

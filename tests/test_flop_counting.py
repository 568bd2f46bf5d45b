"""Per-thread FLOP and trip counts (the mean over the threads of the block the analyzer models) on
small kernels worked out by hand, and the math-library costs
the walker charges (measured on the H200 under ncu: profiles/measured/math_flops_h200.csv)."""

import csv
from pathlib import Path

import pytest

from kernelscope.analyze import analyze_source

MATH_TABLE = Path(__file__).resolve().parents[1] / "profiles" / "measured" / "math_flops_h200.csv"


def measured_cost(operation: str, precision: str) -> float:
    with MATH_TABLE.open() as handle:
        for row in csv.DictReader(handle):
            if row["operation"] == operation and row["precision"] == precision:
                return float(row["flops_per_call"])
    raise KeyError(operation)


def flops_per_thread(body: str, params: str = "const float* x, const float* y, float* out, int n",
                     block=(256, 1, 1), grid=(64, 1, 1), bindings=None) -> float:
    source = f'extern "C" __global__ void k({params}) {{\n{body}\n}}\n'
    result = analyze_source(source, "k.cu", block=block, grid=grid, bindings=bindings or {"n": 1 << 20},
                            registers="estimate")
    assert result.kernels, result.errors
    value = result.kernels[0].intensity.flops_per_thread
    assert value is not None, result.kernels[0].intensity.symbolic
    return value


I = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"


@pytest.mark.parametrize("call, operation", [("expf(x[i])", "expf"), ("logf(x[i])", "logf"),
                                             ("tanhf(x[i])", "tanhf"), ("__expf(x[i])", "__expf"),
                                             ("sqrtf(x[i])", "sqrtf"), ("rsqrtf(x[i])", "rsqrtf"),
                                             ("powf(x[i], y[i])", "powf")])
def test_a_math_call_costs_what_ncu_counted_for_it(call, operation):
    assert flops_per_thread(I + f"out[i] = {call};") == pytest.approx(measured_cost(operation, "fp32"))


def test_expansions_are_much_dearer_than_their_fast_intrinsics():
    # expf's range reduction and polynomial against __expf's single multiply before MUFU.EX2
    assert flops_per_thread(I + "out[i] = expf(x[i]);") >= 5 * flops_per_thread(I + "out[i] = __expf(x[i]);")


def test_division_costs_depend_on_the_divisor():
    full = flops_per_thread(I + "out[i] = x[i] / y[i];")
    reciprocal = flops_per_thread(I + "out[i] = 1.0f / y[i];")
    by_two = flops_per_thread(I + "out[i] = x[i] / 2.0f;")
    assert full == pytest.approx(measured_cost("/", "fp32"))
    assert reciprocal == pytest.approx(measured_cost("1/x", "fp32")) and reciprocal < full
    assert by_two == 1          # an exact multiplication by 0.5
    double = flops_per_thread("int i = blockIdx.x * blockDim.x + threadIdx.x;\nout[i] = x[i] / y[i];",
                              params="const double* x, const double* y, double* out, int n")
    assert double == pytest.approx(measured_cost("/", "fp64")) and double > full


def test_chunked_loop_clipped_by_a_conjunction_counts_each_threads_run():
    # one block of 256 threads x 32 elements = 8192 elements of work, n = 4096: the first half of the
    # threads run 32 iterations each, the rest none: 16 on average, one FMA (2 FLOPs) per iteration
    body = """long start = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 32;
    for (long i = start; i < start + 32 && i < n; i++) out[i] = 2.0f * x[i] + y[i];"""
    assert flops_per_thread(body, grid=(1, 1, 1), bindings={"n": 4096}) == pytest.approx(16 * 2)


def test_remainder_loop_continues_where_the_unrolled_loop_stopped():
    # n = 1000 over one block of 256 threads: the unrolled loop runs while i + 3 * 256 < 1000, which
    # holds for i < 232 only (once each: after one step i >= 1024); the remainder loop takes the rest
    body = """int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        out[i] = x[i] + 1.0f; out[i + stride] = x[i + stride] + 1.0f;
        out[i + 2 * stride] = x[i + 2 * stride] + 1.0f; out[i + 3 * stride] = x[i + 3 * stride] + 1.0f;
    }
    for (; i < n; i += stride) out[i] = x[i] + 1.0f;"""
    # every element gets exactly one add, whichever loop handles it
    assert flops_per_thread(body, grid=(1, 1, 1), bindings={"n": 1000}) == \
        pytest.approx(1000 / 256)


def test_an_undecidable_if_else_charges_each_arm_half():
    body = I + """if (x[i] > 0.0f) out[i] = x[i] * 3.0f + 1.0f;
    else out[i] = x[i] - 1.0f;"""
    # arms of 2 and 1 FLOPs, one of them runs: 1.5 expected, not 3
    assert flops_per_thread(body) == pytest.approx(1.5)


def test_an_if_without_else_on_data_is_still_charged_in_full():
    assert flops_per_thread(I + "if (x[i] > 0.0f) out[i] = x[i] * 3.0f + 1.0f;") == pytest.approx(2)


def test_conditions_on_two_uniform_loops_are_counted_over_both():
    # the pairs (r, p) with 0 <= r - p < 3, r < 6, p < 4: r - p in {0, 1, 2} for 3 + 3 + 3 + 3 = 12
    # pairs; one multiply-add each
    body = """float acc = 0.0f;
    for (int r = 0; r < 6; r++)
        for (int p = 0; p < 4; p++) {
            int d = r - p;
            if (d >= 0 && d < 3) acc += x[d] * y[p];
        }
    out[threadIdx.x] = acc;"""
    assert flops_per_thread(body) == pytest.approx(12 * 2)


def test_a_subexpression_repeated_in_one_statement_is_computed_once():
    # (x - m) * (x - m): one subtraction, one multiply, as the compiler emits (and ncu counts) it
    body = I + "float m = y[0];\nout[i] = (x[i] - m) * (x[i] - m);"
    assert flops_per_thread(body) == pytest.approx(2)


def test_the_same_subexpression_in_two_statements_counts_twice():
    body = I + "float m = y[0];\nout[i] = (x[i] - m) * 2.0f;\nout[i + 1] = (x[i] - m) * 3.0f;"
    assert flops_per_thread(body) == pytest.approx(4)

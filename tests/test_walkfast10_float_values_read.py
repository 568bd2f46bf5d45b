"""The expressions the walk builds for floating-point arithmetic are read by the analyses, not only
for their FLOPs and the loads they contain: a float computed from thread indices or from data
that is the same across a warp, converted to an index implicitly (`int j = f;`) or compared in a
condition, is evaluated. A cheaper stand-in for float arithmetic (one opaque node per type over its
operands: walkfast10 measured it at -2.9% of the body walk over the distinct kernels, with the JSON
of all 363 project files unchanged) changes these results, so any such shortcut must build the real
expression wherever a float value leaves float arithmetic."""

from kernelscope.analyze import analyze_source, document

THREAD_FLOAT = """
__global__ void scale_index(float *out, const float *in)
{
    float f = threadIdx.x * 2.0f;
    int j = f;
    out[j] = in[threadIdx.x];
    if (f > 40.0f)
        out[threadIdx.x] = 0.0f;
}
"""

WARP_UNIFORM_FLOAT = """
__global__ void row_offset(float *out, const float *in, const float *rows)
{
    float f = rows[blockIdx.x] * 4.0f;
    int j = f;
    out[j + threadIdx.x] = in[threadIdx.x];
}
"""


def _kernel(source: str) -> dict:
    return document([analyze_source(source, "k.cu", registers="estimate")])["files"][0]["kernels"][0]


def _access(kernel: dict, text: str) -> dict:
    return next(a for a in kernel["accesses"] if a["expr"] == text)


def test_a_float_of_thread_indices_is_evaluated_as_an_index_and_in_a_condition():
    kernel = _kernel(THREAD_FLOAT)
    store = _access(kernel, "out[j]")
    assert (store["pattern"], store["stride_bytes"]) == ("strided", 8)
    (branch,) = kernel["divergence"]["divergent_branches"]
    assert branch["divergent"] is True and branch["share_true"] == 0.918


def test_a_float_of_warp_uniform_data_is_evaluated_per_warp_as_an_index():
    store = _access(_kernel(WARP_UNIFORM_FLOAT), "out[j + threadIdx.x]")
    assert store["pattern"] == "coalesced"
    assert store["note"].startswith("address reads data that is the same across each warp")

"""A kernel's parameters are read from their text once (parse._param_shape) and sized twice for
a template kernel: before its type parameters are bound (to deduce them from launches) and after.
The sizes kept must be the ones read after."""

from kernelscope.frontend.parse import parse_file

SOURCE = """
template <typename T>
__global__ void scale(T* __restrict__ out, const T* in, T factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * factor;
}
template __global__ void scale<double>(double*, const double*, double, int);
"""


def test_a_template_parameter_is_sized_by_its_bound_type():
    (kernel,) = parse_file(SOURCE, "scale.cu").kernels
    assert kernel.template_types["T"][0] == "double"
    params = {p.name: p for p in kernel.params}
    assert [(p.name, p.elem_bytes, p.is_pointer) for p in kernel.params] == \
        [("out", 8, True), ("in", 8, True), ("factor", 8, False), ("n", 4, False)]
    assert params["out"].is_restrict and not params["out"].is_const
    assert params["in"].is_const and not params["in"].is_restrict
    assert [p.line for p in kernel.params] == [3, 3, 3, 3]

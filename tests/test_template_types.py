"""Template kernels' element types: followed from the file's host code, bound with --type, or one
consistent default (issue 19: `template <typename T>` kernels had 4-byte elements but a 1-byte stride)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kernelscope.analyze import analyze_source
from kernelscope.cli import cli

COPY = """
template <class T>
__global__ void copy_kernel(const T* a, T* c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i];
}
"""

HOST_CLASS = COPY + """
template <class T>
class Stream {
  public:
    void copy();
  private:
    T* d_a;
    T* d_c;
    int n;
};
template <class T>
void Stream<T>::copy() { copy_kernel<<<n / 256, 256>>>(d_a, d_c); }
template class Stream<double>;
"""

HOST_FUNCTION = COPY + """
template <class T>
void run(T* in, T* out, int n) { copy_kernel<T><<<n / 256, 256>>>(in, out); }
template void run<short>(short* in, short* out, int n);
"""

PLAIN_HOST = COPY + """
void run(unsigned char* in, unsigned char* out, int n) { copy_kernel<<<n / 256, 256>>>(in, out); }
"""


def kernel(source: str, **options):
    return analyze_source(source, "t.cu", registers="estimate", **options).kernels[0]


def global_accesses(result):
    return [a for a in result.memory.accesses if a.space == "global"]


def test_an_unknown_element_type_is_float_for_sizes_and_strides_alike():
    result = kernel(COPY)
    assert result.kernel.template_types == {"T": ("float", "default")}
    for access in global_accesses(result):
        assert (access.elem_bytes, access.stride_bytes, access.sectors_per_request) == (4, 4, 4)


def test_a_host_class_template_instantiated_for_double_gives_the_kernel_double():
    result = kernel(HOST_CLASS)
    assert result.kernel.template_types == {"T": ("double", "launch arguments")}
    assert {a.sectors_per_request for a in global_accesses(result)} == {8}


def test_explicit_template_arguments_follow_the_host_functions_instantiation():
    result = kernel(HOST_FUNCTION)
    assert result.kernel.template_types == {"T": ("short", "instantiation")}
    assert {a.elem_bytes for a in global_accesses(result)} == {2}


def test_argument_types_of_a_plain_host_function_are_deduced():
    result = kernel(PLAIN_HOST)
    assert result.kernel.template_types["T"][0] == "unsigned char"
    assert {a.sectors_per_request for a in global_accesses(result)} == {1}


def test_the_type_option_overrides_what_the_file_says():
    result = kernel(HOST_CLASS, types={"T": "float2"})
    assert result.kernel.template_types == {"T": ("float2", "option")}
    assert {a.sectors_per_request for a in global_accesses(result)} == {8}
    assert {a.elem_bytes for a in global_accesses(result)} == {8}


def test_analyze_takes_type_on_the_command_line(tmp_path):
    path = tmp_path / "copy.cu"
    path.write_text(COPY)
    out = CliRunner().invoke(cli, ["analyze", "--format", "json", "--registers", "estimate", "--type", "T=double",
                                    str(path)])
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)["files"][0]["kernels"][0]
    assert record["template_types"] == {"T": {"type": "double", "source": "option"}}
    assert {a["elem_bytes"] for a in record["accesses"]} == {8}


def test_a_malformed_type_option_is_a_usage_error(tmp_path):
    path = tmp_path / "copy.cu"
    path.write_text(COPY)
    out = CliRunner().invoke(cli, ["analyze", "--type", "T", str(path)])
    assert out.exit_code == 2
    assert "Traceback" not in out.output


def test_lint_takes_type_too(tmp_path):
    path = tmp_path / "strided.cu"
    path.write_text("""
template <class T>
__global__ void pick(const T* a, T* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[2 * i];
}
""")

    def uncoalesced(*options):
        out = CliRunner().invoke(cli, ["lint", "--exit-zero", *options, str(path)])
        assert out.exit_code == 0, out.output
        return [line for line in out.output.splitlines() if "KS101" in line]

    assert "8 sectors per warp request, ideal 4" in uncoalesced()[0]
    assert "16 sectors per warp request, ideal 8" in uncoalesced("--type", "T=double")[0]


def test_an_explicit_class_instantiation_is_no_syntax_error():
    result = analyze_source(HOST_CLASS, "t.cu", registers="estimate")
    assert result.errors == []
    assert "KS901" not in {d.rule for d in result.diagnostics}

"""The front end's whole-text scans: which lines the preprocessor expands, directive lines that
continue over backslash-newlines, the #pragma shim, and the per-kernel lookups of launch bounds
and launch sites. Each case is one where a scan that found too little or too much would change
what the parser sees or what a kernel reports."""

from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.parse import parse_file
from kernelscope.frontend.shims import apply_shims


def test_a_short_lowercase_macro_is_expanded_only_while_it_is_defined():
    source = "int a = n;\n#define n 4\nint b = n + nn + n2;\n#undef n\nint c = n;\n"
    lines = preprocess(source).text.split("\n")
    assert lines[0] == "int a = n;"
    assert lines[2].split() == ["int", "b", "=", "4", "+", "nn", "+", "n2;"]
    assert lines[4] == "int c = n;"


def test_a_lowercase_function_like_macro_is_expanded():
    source = "#define idx(i, j) ((i) * 8 + (j))\nint k = idx(r, c);\n"
    line = preprocess(source).text.split("\n")[1]
    assert "idx" not in line
    assert "".join(line.split()) == "intk=(r*8+c);"        # (a lone argument loses its parentheses)


def test_a_directive_continued_over_lines_is_one_directive():
    source = "#define SUM(a, b) \\\n  ((a) + (b))\nint x = SUM(1, 2);\n#define X 1 \\\n#define Y 2\nint y = Y;\n"
    pre = preprocess(source)
    lines = pre.text.split("\n")
    assert len(lines) == len(source.split("\n"))          # line numbers never move
    assert "".join(lines[2].split()) == "intx=(1+2);"
    assert "Y" not in pre.macros                           # its line belongs to X's definition
    assert lines[5] == "int y = Y;"


def test_a_pragma_between_a_loop_header_and_its_body_is_blanked_in_place():
    source = ("void f(int n) {\n  for (int i = 0; i < n; i++) // rows\n  // nothing here\n  #pragma unroll\n"
              "  for (int j = 0; j < 4; j++) g(i, j);\n  h();\n#pragma unroll\n  for (;;) {}\n}\n")
    text, _ = apply_shims(source)
    lines, original = text.split("\n"), source.split("\n")
    assert lines[3] == " " * len(original[3])
    assert lines[6] == original[6]                        # after a statement, not a header: kept
    assert [k for k, (a, b) in enumerate(zip(lines, original)) if a != b] == [3]


KERNELS = """
__global__ void plain(float* a) { a[threadIdx.x] = 0.f; }
__global__ void __launch_bounds__(256, 2) bounded(float* a) { a[threadIdx.x] = 1.f; }
__global__ void
__launch_bounds__(128)
late(float* a) { a[threadIdx.x] = 2.f; }
void host(float* a) {
    bounded<<<4, 256>>>(a);
    plain<<<1, 32>>>(a);
    bounded<<<8, 256>>>(a);
}
"""


def test_each_kernel_gets_its_own_launch_bounds_and_launches():
    kernels = {k.name: k for k in parse_file(KERNELS, "k.cu").kernels}
    assert kernels["plain"].launch_bounds == ()
    assert kernels["bounded"].launch_bounds == (256, 2)
    assert kernels["late"].launch_bounds == (128,)
    assert [(s.kernel, s.line) for s in kernels["bounded"].launches] == [("bounded", 8), ("bounded", 10)]
    assert [(s.kernel, s.line) for s in kernels["plain"].launches] == [("plain", 9)]
    assert kernels["late"].launches == []


def test_a_macro_name_inside_a_longer_word_is_not_expanded():
    # the scan for macro words finds candidates anywhere; one that starts inside a word is not one
    source = "#define MAX 4\n#define k 2\nint fooMAX = MAX + 3MAX + x_MAX + MAXk + kk + k;\n"
    line = preprocess(source).text.split("\n")[2]
    assert line.split() == ["int", "fooMAX", "=", "4", "+", "3MAX", "+", "x_MAX", "+", "MAXk", "+", "kk", "+",
                            "2", ";"]

"""The built-in preprocessor: what it expands, what it leaves, and where positions map back to."""

import pytest

from kernelscope.errors import InputError
from kernelscope.frontend.macros import preprocess
from kernelscope.frontend.source import decode_source, normalise


def test_function_like_macro_expands_in_index_and_maps_back_to_its_call():
    text = "#define IDX(r,c,ld) ((r)*(ld)+(c))\nx = a[IDX(i, j, n)];\n"
    pre = preprocess(text)
    # an argument that is one name loses the macro's parentheses around it (`(n) * (j)` would parse
    # as a cast of `*(j)` to a type n)
    expanded = pre.text[pre.text.index("a[") + 2:pre.text.index("];")]
    assert "".join(expanded.split()) == "(i*n+j)"
    offset = pre.text.index("i", pre.text.index("a["))
    assert pre.line_col(offset) == (2, 7)      # the `I` of IDX on line 2
    assert pre.line_col(pre.text.index("];")) == (2, 19)


def test_self_referencing_and_mutually_recursive_macros_terminate():
    text = "#define A A + 1\n#define B C\n#define C B\nint x = A + B;\n"
    pre = preprocess(text)
    line = pre.text.splitlines()[3]
    assert "A + 1" in line and ("B" in line or "C" in line)


def test_if_blocks_follow_the_device_pass_and_keep_line_numbers():
    text = "#if __CUDA_ARCH__ >= 800\nint fast;\n#else\nint slow;\n#endif\nint after;\n"
    pre = preprocess(text, arch="sm_90")
    lines = pre.text.splitlines()
    assert lines[1] == "int fast;" and "slow" not in pre.text and lines[5] == "int after;"
    assert "slow" in preprocess(text, arch="sm_75").text


def test_command_line_defines_take_part_in_conditions_and_expansion():
    text = "#ifdef WIDE\nint w = TILE;\n#endif\n"
    assert preprocess(text, {"WIDE": "1", "TILE": "32"}).text.split() == ["int", "w", "=", "32", ";"]
    assert "int w" not in preprocess(text).text


def test_unknown_qualifier_macros_are_blanked_without_moving_text():
    text = "HOST_DEVICE FORCE_INLINE float f(float* RESTRICT p);\n"
    pre = preprocess(text)
    assert pre.text.split() == ["float", "f(float*", "p);"]
    assert len(pre.text) == len(text)


def test_statement_macro_without_semicolon_becomes_an_empty_statement():
    text = "void f() {\n  DECLARE_TILE(float, t, 128)\n  int i = 0;\n}\n"
    pre = preprocess(text)
    assert "DECLARE_TILE" not in pre.text and ";" in pre.text.splitlines()[1]


def test_undecidable_condition_takes_first_branch_and_says_so():
    pre = preprocess("#if SOME_FUNC(3)\nint a;\n#else\nint b;\n#endif\n")
    assert "int a;" in pre.text and "int b;" not in pre.text
    assert pre.errors and "first branch" in pre.errors[0].message


def test_exponential_macro_expansion_is_cut_off():
    lines = ["#define M0 x"] + [f"#define M{k} M{k-1} M{k-1}" for k in range(1, 40)] + ["int y = M39;"]
    pre = preprocess("\n".join(lines) + "\n")
    assert len(pre.text) < 50_000_000
    assert any("too large" in e.message for e in pre.errors)


@pytest.mark.parametrize("data, encoding", [
    ("__global__ void k() {}\n".encode("utf-8"), "utf-8"),
    ("// caf\xe9\n__global__ void k() {}\n".encode("latin-1"), "latin-1"),
    ("\ufeff__global__ void k() {}\n".encode("utf-8"), "utf-8-sig"),
    ("__global__ void k() {}\n".encode("utf-16"), "utf-16"),
])
def test_text_encodings_are_detected(data, encoding):
    source = decode_source(data)
    assert source.encoding == encoding and "__global__" in source.text


def test_binary_input_is_refused_with_a_clear_message():
    with pytest.raises(InputError, match="binary"):
        decode_source(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))


def test_normalise_adds_final_newline_and_strips_blanks_after_include():
    assert normalise('#include "a.h"   \nint x;') == '#include "a.h"\nint x;\n'

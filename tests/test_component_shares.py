"""benchmarks/component_shares.py files each line of callgrind_annotate under the component that
executed it. The lines below were printed by callgrind_annotate for a real profile of the realistic
file (23ad670): code inlined from CPython's headers names no shared object, and tree-sitter's parser
core lives in the bindings' shared object, so neither the object alone nor the file alone decides."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import component_shares  # noqa: E402

CAPTURED = [
    ("1,376,135,381 (23.89%)  /tmp/python-build.20260509073455.222/Python-3.11.7/Python/ceval.c:"
     "_PyEval_EvalFrameDefault'2 [/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0]",
     1_376_135_381, "CPython interpreter and objects"),
    ("   39,270,815 ( 0.68%)  /tmp/python-build.20260509073455.222/Python-3.11.7/./Include/object.h:_PyFrame_Clear",
     39_270_815, "CPython interpreter and objects"),
    ("  171,154,399 ( 2.97%)  /project/src/parser.c:ts_lex "
     "[/work/main/.venv/lib/python3.11/site-packages/tree_sitter_cuda/_binding.abi3.so]",
     171_154_399, "tree-sitter: CUDA grammar (lexer)"),
    ("   29,209,233 ( 0.51%)  /project/tree_sitter/core/lib/src/./stack.c:ts_parser_parse",
     29_209_233, "tree-sitter: parser core"),
    ("  102,776,477 ( 1.78%)  /project/tree_sitter/core/lib/src/./parser.c:ts_parser_parse "
     "[/work/main/.venv/lib/python3.11/site-packages/tree_sitter/_binding.cpython-311-x86_64-linux-gnu.so]",
     102_776_477, "tree-sitter: parser core"),
    ("   18,124,286 ( 0.31%)  /project/tree_sitter/core/lib/src/./node.c:ts_node_child_by_field_id "
     "[/work/main/.venv/lib/python3.11/site-packages/tree_sitter/_binding.cpython-311-x86_64-linux-gnu.so]",
     18_124_286, "tree-sitter: node API (what the walk reads)"),
    ("   26,115,068 ( 0.45%)  ???:mapiter_trivial_get [/work/main/.venv/lib/python3.11/site-packages/numpy/_core/"
     "_multiarray_umath.cpython-311-x86_64-linux-gnu.so]",
     26_115_068, "numpy"),
    ("   18,640,689 ( 0.32%)  /tmp/python-build.20260509073455.222/Python-3.11.7/Modules/_json.c:"
     "encoder_listencode_obj.isra.0'2 [/root/.pyenv/versions/3.11.7/lib/python3.11/lib-dynload/"
     "_json.cpython-311-x86_64-linux-gnu.so]",
     18_640_689, "json encoder"),
    ("   58,582,092 ( 1.02%)  ./string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:"
     "__memcpy_avx_unaligned_erms [/usr/lib/x86_64-linux-gnu/libc.so.6]",
     58_582_092, "libc/libm"),
]


@pytest.mark.parametrize("line, count, expected", CAPTURED, ids=[c[2] + str(i) for i, c in enumerate(CAPTURED)])
def test_captured_lines_land_in_their_component(line, count, expected):
    match = component_shares.LINE.match(line)
    assert match is not None
    assert int(match.group(1).replace(",", "")) == count
    assert component_shares.component(match.group(2), match.group(3) or "") == expected


def test_shares_add_up_a_profile(tmp_path, monkeypatch):
    """shares() reads the total from PROGRAM TOTALS and sums each component's lines."""
    annotated = "\n".join(["--------", "5,761,149,870 (100.0%)  PROGRAM TOTALS", "",
                           "Ir                      file:function", ""] + [c[0] for c in CAPTURED])

    class Done:
        stdout = annotated

    monkeypatch.setattr(component_shares.subprocess, "run", lambda *a, **k: Done())
    total, by_component = component_shares.shares("unused")
    assert total == 5_761_149_870
    assert by_component["CPython interpreter and objects"] == 1_376_135_381 + 39_270_815
    assert by_component["tree-sitter: parser core"] == 29_209_233 + 102_776_477
    assert sum(by_component.values()) == sum(c[1] for c in CAPTURED)

"""The JSON report's own string table (render27, report/analysis_json._ReportStrings).

A report keeps each string it had to escape, so that its repeated strings (the file's path in every
diagnostic, array names, expressions and messages) are escaped once. Its answers must be json's,
the shared table must not grow, and report_pieces must stay render(document(...)), also where the
escaped strings repeat and where some need escaping to ASCII."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelscope.analyze import analyze_path, analyze_source, document
from kernelscope.report import analysis_json
from kernelscope.report.analysis_json import render, report_pieces

ROOT = Path(__file__).parent.parent
FILES = sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("tests/kernels/realworld/*.cu"))[::5]


def encoded(value) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def test_the_report_table_answers_as_json_and_remembers_only_its_own():
    shared = len(analysis_json._ENCODED_STRINGS)
    table = analysis_json._ReportStrings(analysis_json._ENCODED_STRINGS)
    texts = ["x[i]", 'quote " and \\ back', "caf\u00e9 \u2713", "tab\tnew\nline", "\x7f", "line", ""]

    class Named(str):
        pass

    for _ in range(2):          # the second round is answered from what the first stored
        for text in texts + [Named("sub")]:
            assert table[text] == encoded(text)
    assert table["sub"] == '"sub"'
    assert "x[i]" in table and "x[i]" not in analysis_json._ENCODED_STRINGS
    assert len(analysis_json._ENCODED_STRINGS) == shared
    with pytest.raises(TypeError):
        table[None]
    assert None not in table


def test_report_pieces_leave_the_shared_table_as_it_was():
    shared = dict(analysis_json._ENCODED_STRINGS)
    report_pieces([analyze_path(FILES[0], registers="estimate", plan=True)])
    assert analysis_json._ENCODED_STRINGS == shared


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_report_pieces_of_project_files_are_render_of_the_document(path):
    results = [analyze_path(path, registers="estimate", plan=True)]
    assert "".join(report_pieces(results)) == render(document(results))


# The same strings in many places, ASCII and not: kernel names, arrays and expressions repeat across
# kernels, and the path repeats in every diagnostic.
REPEATING = """
__global__ void {name}(float *d\u00e9j\u00e0, float *out, int n) {{
    __shared__ float tile[32];
    tile[threadIdx.x] = d\u00e9j\u00e0[threadIdx.x * 32];
    out[threadIdx.x * 2] = tile[(threadIdx.x + 1) % 32];
}}
"""


@pytest.mark.parametrize("path", ["r\u00e9sum\u00e9.cu", "plain.cu", "del\x7f.cu"])
def test_repeated_strings_that_need_escaping_are_written_as_render_writes_them(path):
    source = "".join(REPEATING.format(name=name) for name in ("k\u00e9", "k2", "k\u00e9_again"))
    results = [analyze_source(source, path, registers="estimate"), analyze_source(source, "other.cu",
                                                                                  registers="estimate")]
    assert results[0].diagnostics, "the kernels should draw diagnostics, whose path repeats"
    text = "".join(report_pieces(results))
    assert text == render(document(results))
    assert json.loads(text)["files"][0]["path"] == path

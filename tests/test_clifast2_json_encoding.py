"""The JSON report's encoder leaves strings unescaped where that writes the same text (report/
analysis_json.py): every report is byte for byte what json.dumps writes, on the project's CUDA files
and on strings with every ASCII character, DEL and characters beyond ASCII."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelscope.analyze import analyze_path, document
from kernelscope.report import analysis_json
from kernelscope.report.analysis_json import render

ROOT = Path(__file__).parent.parent
FILES = sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("corpus/*/*.cu"))[::7] + \
    sorted(ROOT.glob("tests/kernels/realworld/*.cu"))[::5]


def plain(value) -> str:
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_reports_of_the_projects_files_are_what_json_dumps_writes(path):
    doc = document([analyze_path(path)])
    assert render(doc) == plain(doc) + "\n"


ODD_STRINGS = ["".join(map(chr, range(128))), "\x7f", "tab\there", "quote \" and \\ back", "caf\u00e9",
               "\u4e2d\u6587", "\U0001f600", "\u2028 line separator", "\x00nul", "plain"]


@pytest.mark.parametrize("text", ODD_STRINGS, ids=repr)
def test_any_string_anywhere_in_a_report_is_written_as_json_dumps_writes_it(text):
    occupancy = {"arch": text, "sweep": [{"block_size": 32}]}
    doc = {"schema": "s", "files": [{"path": text, "errors": [text], "notes": [],
                                     "kernels": [{"name": text, "occupancy": occupancy, text: [text, 1.5, None]},
                                                 {"name": "b", "occupancy": occupancy}]}],
           "diagnostics": [{"message": text}]}
    assert render(doc) == plain(doc) + "\n"
    assert analysis_json._compact(text) == plain(text)


def test_the_unescaped_encoder_alone_would_differ_where_the_check_sends_the_text_back():
    # (what the isascii/DEL check guards against: without it these reports would change)
    for text in ("\x7f", "caf\u00e9", "\U0001f600"):
        assert analysis_json._UNESCAPED.encode(text) != plain(text)
        assert analysis_json._compact([text]) == plain([text])


def test_non_finite_numbers_still_become_null():
    doc = {"schema": "s", "files": [{"path": "p", "kernels": [{"occupancy": {"x": float("inf")}, "y": 1.0}]}],
           "diagnostics": []}
    assert json.loads(render(doc))["files"][0]["kernels"][0]["occupancy"] == {"x": None}

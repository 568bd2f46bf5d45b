"""The JSON report's strings come from a table of their encodings (report/analysis_json.py,
_ENCODED_STRINGS) where the table has them, and from json's own escaping otherwise: the text must
be json.dumps' byte for byte, for strings in the table, near it and far from it, as keys and as
values, and for whole reports of the project's files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelscope.analyze import analyze_path, document
from kernelscope.report import analysis_json
from kernelscope.report.analysis_json import render

ROOT = Path(__file__).parent.parent


def plain(value) -> str:
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


def general(value) -> str:
    """The general path: json's own encoder with the unescaped encoder's settings."""
    return json.JSONEncoder(ensure_ascii=False, check_circular=False, allow_nan=False,
                            separators=(",", ":")).encode(value)


def test_every_kept_encoding_is_what_json_writes_for_that_string():
    assert len(analysis_json._ENCODED_STRINGS) == len(set(analysis_json._COMMON_STRINGS))
    for text, encoded in analysis_json._ENCODED_STRINGS.items():
        assert type(text) is str and encoded == json.dumps(text, ensure_ascii=False)


def test_a_string_not_kept_is_escaped_and_not_added_to_the_table():
    size = len(analysis_json._ENCODED_STRINGS)
    for text in ("not kept", "tab\there", "quote \" and \\", "caf\u00e9", "\x00\x1f\x7f", "\U0001f600"):
        assert analysis_json._ENCODED_STRINGS[text] == json.dumps(text, ensure_ascii=False)
    assert len(analysis_json._ENCODED_STRINGS) == size


NEAR = ["line", "line ", " line", "Line", "lin", "line\n", "global", "globa", "global\x7f", "", " ", "\"",
        "info\u00e9", "fp32", "fp 32", "\u2028"]


@pytest.mark.parametrize("text", NEAR, ids=repr)
def test_keys_and_values_near_the_table_are_written_as_json_dumps_writes_them(text):
    value = {text: [text, {"line": text, text: 1}], "nested": {"global": text}, "n": [1, 2.5, None, True]}
    assert analysis_json._unescaped(value) == general(value)
    assert analysis_json._compact(value) == plain(value)
    assert analysis_json._unescaped(text) == general(text)


def test_keys_that_are_not_strings_are_converted_as_json_does():
    value = {1: "a", 2.5: "b", True: "c", None: "d", "line": "e"}
    assert analysis_json._unescaped(value) == general(value)


def test_errors_are_json_s_own():
    with pytest.raises(ValueError):
        analysis_json._unescaped({"line": float("nan")})
    with pytest.raises(TypeError, match="not JSON serializable"):
        analysis_json._unescaped({"line": object()})


FILES = sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("tests/kernels/realworld/*.cu"))[::3] + \
    sorted(ROOT.glob("tests/kernels/memory/*.cu"))[::3]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_reports_of_the_projects_files_are_what_json_dumps_writes(path):
    doc = document([analyze_path(path)])
    assert render(doc) == plain(doc) + "\n"
    assert analysis_json._unescaped(doc) == general(doc)

"""The JSON report written in pieces (report25): `kernelscope analyze --format json` encodes each kernel's
dict as it is built (analysis_json.report_pieces) and hands write_output the pieces instead of one joined
text. Standard output and -o files must hold exactly render(document(results)), which is json.dumps' text:
on the project's files, several files at once, with strings beyond ASCII or DEL anywhere (in the file's
head, in one kernel, in an occupancy), and with a NaN or an infinity (render's ValueError path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.analyze import analyze_path, analyze_source, document
from kernelscope.cli import cli
from kernelscope.commands._common import write_output
from kernelscope.identity_cache import IdentityCache
from kernelscope.report import analysis_json
from kernelscope.report.analysis_json import render, report_pieces

ROOT = Path(__file__).parent.parent
FILES = sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("corpus/*/*.cu"))[::11] + \
    sorted(ROOT.glob("tests/kernels/realworld/*.cu"))[::7]
ANALYZE = ["analyze", "--format", "json", "--registers", "estimate"]

SOURCE = """
__global__ void a(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = 2.0f * x[i]; }
__global__ void b(float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = y[i] + 1.0f; }
"""


def dumped(doc: dict) -> str:
    return json.dumps(doc, allow_nan=False, separators=(",", ":")) + "\n"


def run_cli(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_commands_output_and_file_are_render_of_the_document(path, tmp_path):
    expected = render(document([analyze_path(path, registers="estimate", plan=True)]))
    assert run_cli([*ANALYZE, str(path)]) == expected
    out = tmp_path / "report.json"
    run_cli([*ANALYZE, "-o", str(out), str(path)])
    assert out.read_bytes() == expected.encode("ascii")


def test_a_path_beyond_ascii_is_escaped_in_the_commands_output_and_file(tmp_path):
    source = tmp_path / "gr\u00f6\u00dfe \u2713 \U0001f600.cu"
    source.write_text(SOURCE, encoding="utf-8")
    doc = document([analyze_path(source, registers="estimate", plan=True)])
    expected = dumped(doc)
    assert "\\u00f6" in expected and expected.isascii()
    assert run_cli([*ANALYZE, str(source)]) == expected
    out = tmp_path / "report.json"
    run_cli([*ANALYZE, "-o", str(out), str(source)])
    assert out.read_bytes() == expected.encode("ascii")


@pytest.mark.parametrize("text", ["plain\n", "caf\u00e9 \u2713\n"], ids=repr)
def test_write_output_writes_pieces_as_it_writes_their_join(text, tmp_path, capsys):
    pieces = [text[:3], "", text[3:]]
    write_output(pieces, None)
    write_output(pieces, "-")
    assert capsys.readouterr().out == text * 2
    joined, split = tmp_path / "joined.txt", tmp_path / "split.txt"
    write_output(text, str(joined))
    write_output(pieces, str(split))
    assert split.read_bytes() == joined.read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_report_pieces_join_to_render_of_the_document(path):
    results = [analyze_path(path, registers="estimate", plan=True)]
    assert "".join(report_pieces(results)) == render(document(results))


def test_several_files_in_one_command_and_in_report_pieces(tmp_path):
    paths = [str(p) for p in FILES[:3]]
    results = [analyze_path(p, registers="estimate", plan=True) for p in paths]
    expected = render(document(results))
    assert "".join(report_pieces(results)) == expected
    assert run_cli([*ANALYZE, *paths]) == expected
    assert "".join(report_pieces([])) == render(document([])) == dumped(document([]))


class FixedKernel:
    """A kernel result whose to_json is a given dict, made anew at each call as the records' are."""

    def __init__(self, make):
        self.make = make

    def to_json(self) -> dict:
        return self.make()


def results_with(changes: dict) -> list:
    """Two files of SOURCE's kernels; kernel i of the second is changed by changes[i](its dict)."""
    results = [analyze_source(SOURCE, name, registers="estimate") for name in ("a.cu", "b.cu")]
    second = results[1]
    kernels = list(second.kernels)
    for index, change in changes.items():
        original = kernels[index]
        kernels[index] = FixedKernel(lambda original=original, change=change: change(original.to_json()))
    second.kernels = kernels
    return results


def renamed(name):
    def change(kernel):
        kernel["name"] = name
        return kernel
    return change


def with_occupancy(key, value):
    def change(kernel):
        kernel["occupancy"] = {**kernel["occupancy"], key: value}
        return kernel
    return change


ODD_PARTS = {
    "non-ascii name": {1: renamed("caf\u00e9")},
    "DEL in a name": {0: renamed("a\x7fb")},
    "nan line": {1: lambda k: {**k, "line": float("nan")}},
    "inf in occupancy": {0: with_occupancy("theoretical_occupancy", float("inf"))},
    "non-ascii occupancy": {1: with_occupancy("arch", "sm_\u2713")},
    "both": {0: renamed("\U0001f600"), 1: lambda k: {**k, "column": float("-inf")}},
}


@pytest.mark.parametrize("changes", ODD_PARTS.values(), ids=ODD_PARTS.keys())
def test_one_odd_kernel_is_written_as_render_writes_the_whole(changes):
    results = results_with(changes)
    assert "".join(report_pieces(results)) == render(document(results))


def test_occupancy_dicts_made_anew_for_each_kernel_are_not_mistaken_for_each_other(monkeypatch):
    # each kernel's occupancy a new dict that nothing else keeps (the cache of encoded occupancies made
    # too small to keep them): dropped with the kernel's dict, its id could come back as the next
    # kernel's (report_pieces keeps them while it runs)
    monkeypatch.setattr(analysis_json, "_ENCODED", IdentityCache(1))
    def occupancy_of(number):
        return lambda k: {**k, "occupancy": {**k["occupancy"], "block_size": number}}
    results = results_with({})
    kernel = results[1].kernels[0]
    results[1].kernels = [FixedKernel(lambda n=n: occupancy_of(n)(kernel.to_json())) for n in range(50)]
    text = "".join(report_pieces(results))
    assert text == render(document(results))
    assert [k["occupancy"]["block_size"] for k in json.loads(text)["files"][1]["kernels"]] == list(range(50))


def test_write_output_batches_many_pieces(tmp_path, capsys):
    pieces = [f"{i:06d}," for i in range(100_000)]
    write_output(pieces, None)
    out = tmp_path / "many.txt"
    write_output(pieces, str(out))
    assert capsys.readouterr().out == out.read_text() == "".join(pieces)


def test_write_output_to_a_file_descriptor_writes_every_batch(capfd):
    # standard output on a file descriptor takes the batches (in memory, as under capsys, one join)
    pieces = [f"{i:07d}," for i in range(100_000)] + ["end\n"]
    write_output(pieces, None)
    assert capfd.readouterr().out == "".join(pieces)


def test_streams_in_memory_are_told_from_file_descriptors(tmp_path):
    import io

    from kernelscope.commands._common import _is_os_file

    assert not _is_os_file(io.StringIO())
    assert not _is_os_file(io.TextIOWrapper(io.BytesIO()))
    assert not _is_os_file(object())
    with open(tmp_path / "f.txt", "w") as handle:
        assert _is_os_file(handle)

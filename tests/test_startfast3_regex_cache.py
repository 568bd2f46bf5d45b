"""kernelscope.regex_cache: the regexes a fresh command compiles come from kernelscope/_regex_table.py,
each the very pattern `re` compiles (text, flags, code, groups), only in the Python that wrote the
table; a fresh `analyze` then compiles none of them itself, and the table is what the writer writes."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import _sre
import pytest

from kernelscope import _regex_table, regex_cache

ROOT = Path(__file__).resolve().parent.parent
IDS = [repr(entry[0])[:40] for entry in _regex_table.PATTERNS]

# A fresh process that counts what re's compiler compiles from the start of `kernelscope.cli` on.
COUNT_COMPILES = """
import re, sys
from re import _compiler
compiled = []
real = _compiler.compile
def counting(pattern, flags=0):
    compiled.append((pattern, flags))
    return real(pattern, flags)
_compiler.compile = counting
import contextlib, io
from kernelscope.cli import cli
with contextlib.redirect_stdout(io.StringIO()):
    try:
        cli.main(args=sys.argv[1:], prog_name="kernelscope", standalone_mode=True)
    except SystemExit:
        pass
print(repr(compiled))
"""


def writer():
    spec = importlib.util.spec_from_file_location("write_regex_table", ROOT / "tools" / "write_regex_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_in_a_fresh_process(tmp_path, *args) -> list:
    ran = subprocess.run([sys.executable, "-c", COUNT_COMPILES, *map(str, args)], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0, ran.stderr
    return ast.literal_eval(ran.stdout.strip().splitlines()[-1])


def test_the_table_was_written_by_this_python():
    assert _regex_table.PYTHON == regex_cache.python_key(), "run: python tools/write_regex_table.py"


@pytest.mark.parametrize("entry", _regex_table.PATTERNS, ids=IDS)
def test_each_installed_pattern_is_the_one_re_compiles(entry, monkeypatch):
    monkeypatch.setattr(re, "_cache", {})
    assert regex_cache.install() == len(_regex_table.PATTERNS)
    pattern, flags = entry[:2]
    installed = re.compile(pattern, flags)
    assert installed is re._cache[type(pattern), pattern, flags]
    compiled = re._compiler.compile(pattern, flags)
    # Pattern equality compares the text, the flags and the compiled code
    assert installed == compiled and installed is not compiled
    assert (installed.groups, installed.groupindex, installed.flags) == (compiled.groups, compiled.groupindex,
                                                                          compiled.flags)


def test_pattern_equality_sees_a_difference_in_the_code():
    # what the test above relies on: the same text and flags with other code are not equal
    pattern = r"a+b"
    parsed = re._parser.parse(pattern, 0)
    code = [int(unit) for unit in re._compiler._code(parsed, 0)]
    right = _sre.compile(pattern, parsed.state.flags, code, 0, {}, (None,))
    wrong_code = list(code)
    wrong_code[-2] += 1         # the literal 'b' as 'c'
    wrong = _sre.compile(pattern, parsed.state.flags, wrong_code, 0, {}, (None,))
    assert right == re.compile(r"a+b") != wrong
    assert wrong.fullmatch("aac") and not right.fullmatch("aac")


def test_another_python_leaves_re_alone(monkeypatch):
    cache = {}
    monkeypatch.setattr(re, "_cache", cache)
    monkeypatch.setattr(_regex_table, "PYTHON", ("cpython", 3, 11, 0, _sre.MAGIC))
    assert regex_cache.install() == 0
    assert cache == {}


@pytest.mark.parametrize("command", [
    ["analyze", "--format", "json", "--registers", "estimate", "{kernel}"],
    ["analyze", "--format", "json", "--registers", "estimate", "{planned}"],
    ["lint", "--registers", "estimate", "{kernel}"],
    ["rules"],
], ids=["analyze", "analyze a planned file", "lint", "rules"])
def test_a_fresh_command_compiles_no_regex(tmp_path, command):
    kernel, planned = tmp_path / "k.cu", tmp_path / "planned.cu"
    kernel.write_text(writer().ONE_KERNEL)
    planned.write_text(writer().PLANNED)
    compiled = compiled_in_a_fresh_process(tmp_path, *[arg.format(kernel=kernel, planned=planned) for arg in command])
    assert compiled == []


def test_without_the_table_the_same_command_compiles_many(tmp_path, monkeypatch):
    # the counting above sees compilations: with the table emptied, analyze compiles its regexes itself
    kernel = tmp_path / "k.cu"
    kernel.write_text(writer().ONE_KERNEL)
    script = COUNT_COMPILES.replace("import contextlib", "from kernelscope import regex_cache\n"
                                    "regex_cache.install = lambda: 0\nimport contextlib")
    ran = subprocess.run([sys.executable, "-c", script, "analyze", "--registers", "estimate", str(kernel)],
                         capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    compiled = ast.literal_eval(ran.stdout.strip().splitlines()[-1])
    assert len(compiled) > 50
    assert {(entry[0], entry[1]) for entry in _regex_table.PATTERNS} >= set(compiled)


def test_the_table_is_what_the_writer_writes_now():
    module = writer()
    entries = [module.compiled_entry(pattern, flags) for pattern, flags in module.recorded_patterns()]
    text = module.module_source(entries, regex_cache.python_key())
    assert (ROOT / "kernelscope" / "_regex_table.py").read_text() == text, "run: python tools/write_regex_table.py"

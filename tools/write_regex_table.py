"""Write kernelscope/_regex_table.py: the regular expressions fresh `analyze`, `lint` and `rules`
processes compile, with the code Python's regex compiler makes of each (see kernelscope/regex_cache.py
for why). Run it after adding or changing a regex that such a process compiles, or with a new
Python; tests/test_startfast3_regex_cache.py says when the table is out of date.

Usage: python tools/write_regex_table.py
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "kernelscope" / "_regex_table.py"
ONE_KERNEL = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n"
# with a launch plan, which `analyze` reads (runner.plan, tomllib)
PLANNED = ("__global__ void k(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = 1; }\n"
           '/* kernelscope:plan\n[[launch]]\nkernel = "k"\ngrid = ["ceil_div(n, 256)"]\nblock = ["256"]\n'
           'args = ["a", "n"]\n*/\n')

# The command lines whose regexes the table holds ({kernel}: a one-kernel file; {planned}: one with a plan).
COMMANDS = (
    ["analyze", "--format", "json", "--registers", "estimate", "{kernel}"],
    ["analyze", "--format", "json", "--registers", "estimate", "{planned}"],
    ["analyze", "--registers", "estimate", "{kernel}"],
    ["lint", "--format", "json", "--registers", "estimate", "{kernel}"],
    ["lint", "--registers", "estimate", "{kernel}"],
    ["rules"],
)

# Run in a fresh process: the keys of re's cache (type, pattern, flags) that the command added, in
# the order they were compiled. The table itself is kept out, so that the command compiles them all.
RECORD = """
import contextlib, io, re, sys
from kernelscope import regex_cache
regex_cache.install = lambda: 0
before = set(re._cache)
from kernelscope.cli import cli
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        cli.main(args=sys.argv[1:], prog_name="kernelscope", standalone_mode=True)
    except SystemExit:
        pass
print(repr([(key[1], key[2]) for key in re._cache if key not in before]))
"""


def bare_path() -> str:
    """The module path of a recording process started with -S: this checkout first, then the
    environment's package directories. Without `site`, no .pth file runs at start-up; an editable
    install's finder imports pathlib (and with it urllib.parse, which compiles a regex) before any
    command, a regular install does not, and the table must hold what the regular one compiles."""
    import sysconfig

    paths = sysconfig.get_paths()
    return os.pathsep.join(dict.fromkeys([str(ROOT), paths["purelib"], paths["platlib"]]))


def recorded_patterns() -> list:
    """(pattern, flags) of every regex the commands compile, first compilation first."""
    keys: dict = {}
    with tempfile.TemporaryDirectory() as scratch:
        kernel, planned = Path(scratch) / "one_kernel.cu", Path(scratch) / "planned.cu"
        kernel.write_text(ONE_KERNEL)
        planned.write_text(PLANNED)
        for command in COMMANDS:
            args = [arg.format(kernel=kernel, planned=planned) for arg in command]
            ran = subprocess.run([sys.executable, "-S", "-c", RECORD, *args], capture_output=True, text=True,
                                 cwd=scratch, env={**os.environ, "PYTHONPATH": bare_path()}, check=True)
            keys.update(dict.fromkeys(ast.literal_eval(ran.stdout.strip().splitlines()[-1])))
    return list(keys)


def compiled_entry(pattern, flags: int) -> tuple:
    """The table's entry of one pattern: what re._compiler.compile gives _sre.compile (Python 3.11's
    steps), the code as the bytes of its 32-bit units, little-endian: one bytes constant, which
    loads from cached bytecode as one copy (2.6 million instructions for the table, against 5.4 for
    base64 text to decompress). Where no bytecode is cached, Python compiles it in 37 million
    instructions; a table of int literals took 120 million."""
    from re import _compiler, _parser

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    code_bytes = b"".join(int(unit).to_bytes(4, "little") for unit in code)
    return (pattern, flags, flags | parsed.state.flags, code_bytes, parsed.state.groups - 1,
            tuple(groupindex.items()), tuple(indexgroup))


def module_source(entries: list, python: tuple) -> str:
    lines = [
        '"""Regular expressions already compiled, for kernelscope/regex_cache.py. Written by',
        "tools/write_regex_table.py; do not edit. Run that tool again after changing a regex a fresh",
        "analyze, lint or rules process compiles, or with a new Python (the table is used only by the",
        "Python in PYTHON).",
        "",
        "PATTERNS: (pattern, flags, compiled flags, code, groups, groupindex items, indexgroup), as",
        're._compiler.compile hands them to _sre.compile; the code as the bytes of its 32-bit units,',
        'little-endian."""',
        "",
        f"PYTHON = {python!r}",
        "",
        "PATTERNS = (",
        *(f"    {entry!r}," for entry in entries),
        ")",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from kernelscope.regex_cache import python_key

    entries = [compiled_entry(pattern, flags) for pattern, flags in recorded_patterns()]
    text = module_source(entries, python_key())
    changed = not TABLE.exists() or TABLE.read_text() != text
    TABLE.write_text(text)
    print(f"{TABLE.relative_to(ROOT)}: {len(entries)} patterns, {'written' if changed else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`--preprocess nvcc`: let the real preprocessor (`nvcc -E`) expand macros and headers, then keep
only what came from the file itself.

nvcc's output carries line markers (`# 42 "kernel.cu"`); lines from headers are dropped (the
analyses only look at the file's own kernels), and every kept line maps back to the line it came
from, so diagnostics keep pointing at the user's source.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from kernelscope.errors import InputError, ToolMissingError
from kernelscope.frontend.macros import PositionMap, Preprocessed

NVCC_TIMEOUT_S = 120
_MARKER = re.compile(r'^#(?:line)?\s*(\d+)\s+"((?:\\.|[^"\\])*)"')
# nvcc -E spells CUDA's qualifiers as GNU attributes; the grammar knows the CUDA spelling
_QUALIFIERS = {"global": "__global__", "device": "__device__", "host": "__host__", "shared": "__shared__",
               "constant": "__constant__", "managed": "__managed__"}
_ATTRIBUTE = re.compile(r"__attribute__\(\((\w+)(\(([^()]*)\))?\)\)")


def _cuda_spelling(line: str) -> str:
    def replace(match):
        name, arguments = match.group(1), match.group(3)
        if name in _QUALIFIERS:
            return _QUALIFIERS[name]
        if name == "launch_bounds":
            return f"__launch_bounds__({arguments})"
        return ""
    return _ATTRIBUTE.sub(replace, line) if "__attribute__" in line else line


def nvcc_preprocess(text: str, path: str, defines: dict | None, arch: str) -> Preprocessed:
    nvcc = shutil.which(os.environ.get("NVCC", "nvcc"))
    if nvcc is None:
        raise ToolMissingError("--preprocess nvcc needs nvcc on PATH (or NVCC set); "
                               "use the built-in preprocessor instead")
    source_dir = Path(path).resolve().parent if path and path != "<string>" else Path.cwd()
    with tempfile.TemporaryDirectory(prefix="kernelscope-cpp-") as scratch:
        source = Path(scratch) / "input.cu"
        source.write_text(text)
        command = [nvcc, "-E", "-x", "cu", f"-arch={_sm(arch)}", f"-I{source_dir}", str(source)]
        command += [f"-D{name}={value}" for name, value in (defines or {}).items()]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=NVCC_TIMEOUT_S,
                                  errors="replace")
        except subprocess.TimeoutExpired:
            raise InputError(f"{path}: nvcc -E took longer than {NVCC_TIMEOUT_S} s") from None
        if done.returncode != 0:
            first = next((line for line in done.stderr.splitlines() if "error" in line), done.stderr.strip())
            raise InputError(f"{path}: nvcc -E failed: {first.replace(str(source), path)[:300]}")
        return own_lines(done.stdout, text, str(source))


def own_lines(output: str, original: str, source_name: str) -> Preprocessed:
    """The lines of `output` that line markers attribute to `source_name`, each mapped back."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", original)]
    positions = PositionMap()
    kept: list[str] = []
    length = 0
    current_file = None
    current_line = 1
    for line in output.splitlines():
        marker = _MARKER.match(line)
        if marker:
            current_line = int(marker.group(1))
            current_file = marker.group(2).encode().decode("unicode_escape")
            continue
        if current_file is not None and os.path.basename(current_file) == os.path.basename(source_name):
            index = min(current_line, len(line_starts)) - 1
            line = _cuda_spelling(line)
            positions.add(length, line_starts[index], True)
            kept.append(line + "\n")
            length += len(line) + 1
        current_line += 1
    return Preprocessed("".join(kept), original, positions, {}, [])


def _sm(arch: str) -> str:
    digits = "".join(ch for ch in str(arch) if ch.isdigit()) or "90"
    return f"sm_{digits}"

"""Reading source bytes safely: size limit, binary detection, encoding, and the normalisations
that keep tree-sitter-cuda from tripping on harmless layout."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from kernelscope.errors import InputError
from kernelscope.records import record

# A CUDA translation unit larger than this is almost surely generated or not source at all; parsing
# it would take long enough to look like a hang. Override with KERNELSCOPE_MAX_BYTES.
DEFAULT_MAX_BYTES = 8 * 1024 * 1024


@record(frozen=True)
class SourceText:
    path: str
    text: str
    encoding: str


def max_bytes() -> int:
    try:
        return int(os.environ.get("KERNELSCOPE_MAX_BYTES", DEFAULT_MAX_BYTES))
    except ValueError:
        return DEFAULT_MAX_BYTES


def read_source(path: str | os.PathLike) -> SourceText:
    """Read a file as CUDA source or raise InputError with a message fit for one line."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{path}: is a directory")
    if not stat.S_ISREG(info.st_mode):
        # FIFOs and devices may never end (/dev/zero) or block forever (a pipe with no writer).
        raise InputError(f"{path}: not a regular file")
    size = info.st_size
    limit = max_bytes()
    if size > limit:
        raise InputError(f"{path}: file is {size} bytes, over the {limit}-byte limit (set KERNELSCOPE_MAX_BYTES)")
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)   # a file that grows while we read is still bounded
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return decode_source(data, str(path))


def decode_source(data: bytes, path: str = "<string>") -> SourceText:
    """Decode bytes: UTF-8 (with or without BOM), UTF-16 with BOM, else Latin-1 for text that is
    plainly 8-bit text. Binary data (NUL bytes or many control characters) is refused."""
    if len(data) > max_bytes():
        raise InputError(f"{path}: input is {len(data)} bytes, over the {max_bytes()}-byte limit")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return SourceText(path, data.decode("utf-16"), "utf-16")
        except UnicodeDecodeError:
            raise InputError(f"{path}: not valid UTF-16 despite its byte-order mark") from None
    if b"\x00" in data:
        raise InputError(f"{path}: binary file (contains NUL bytes), not CUDA source")
    if _looks_binary(data):
        raise InputError(f"{path}: binary file (mostly control bytes), not CUDA source")
    if data.startswith(b"\xef\xbb\xbf"):
        return SourceText(path, data[3:].decode("utf-8", errors="replace"), "utf-8-sig")
    try:
        return SourceText(path, data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        # Comments in Latin-1 are common in older code bases; every byte maps to a character.
        return SourceText(path, data.decode("latin-1"), "latin-1")


_CONTROL = bytes(range(0, 9)) + bytes(range(14, 32)) + b"\x7f"


def _looks_binary(data: bytes) -> bool:
    sample = data[:65536]
    if not sample:
        return False
    # one pass that drops the control bytes, instead of counting each of the 25 in its own pass
    # over the sample (a pass over every file `analyze` reads)
    controls = len(sample) - len(sample.translate(None, _CONTROL))
    return controls / len(sample) > 0.05


def normalise(text: str) -> str:
    """Changes that keep every character's line and column: tabs and form feeds stay, CRLF becomes LF
    (a column never counts the CR), trailing blanks after #include are dropped, and a final newline
    is added (the grammar needs it after a trailing preprocessor line)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"(#[ \t]*include[^\n]*?)[ \t]+(?=\n)", lambda m: m.group(1), text)
    if not text.endswith("\n"):
        text += "\n"
    return text

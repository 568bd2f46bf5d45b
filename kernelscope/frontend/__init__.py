"""The front end: bytes -> preprocessed text -> tree-sitter tree -> kernel records."""

from kernelscope.frontend.parse import parse_file
from kernelscope.frontend.source import decode_source, read_source

__all__ = ["parse_file", "read_source", "decode_source"]

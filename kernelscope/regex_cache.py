"""Regular expressions a fresh command would compile, put into `re`'s cache already compiled.

A fresh `kernelscope analyze` compiles about 80 regular expressions (kernelscope's own front end,
and click's, numpy's and the standard library's modules at import): Python's regex parser and
compiler are pure Python, and that was about 45 million instructions, 8% of a one-kernel run.
What the compiler produces for a pattern is a list of integers, which `_sre.compile` turns into the
pattern object. kernelscope/_regex_table.py holds those lists, written by tools/write_regex_table.py
from the patterns fresh `analyze`, `lint` and `rules` processes compile; `install` makes their
pattern objects and puts them where `re.compile` looks first, so those calls compile nothing.

The lists depend on the Python that wrote them (the regex compiler changes between releases), so
the table is used only by that very Python (implementation, version and the regex engine's magic
number); any other leaves `re` alone and every pattern is compiled as before. A pattern is equal to
another (`==`) only when its text, flags and compiled code are, and tests/test_startfast3_regex_cache.py
checks every entry against `re`'s own compilation.
"""

from __future__ import annotations

import re
import sys
from array import array

import _sre


def python_key() -> tuple:
    """What the table's compiled code depends on: this Python and its regex engine."""
    return (sys.implementation.name, *sys.version_info[:3], _sre.MAGIC)


def install() -> int:
    """Put the table's patterns into `re`'s cache when this Python wrote it; how many were put."""
    from kernelscope import _regex_table as table

    cache = getattr(re, "_cache", None)
    if table.PYTHON != python_key() or not isinstance(cache, dict) or array("I").itemsize != _sre.CODESIZE:
        return 0
    for pattern, flags, compiled_flags, code_bytes, groups, groupindex, indexgroup in table.PATTERNS:
        code = array("I", code_bytes)      # written little-endian
        if sys.byteorder == "big":
            code.byteswap()
        # the key and the arguments as re._compile and re._compiler.compile give them
        cache[type(pattern), pattern, flags] = _sre.compile(pattern, compiled_flags, code.tolist(), groups,
                                                            dict(groupindex), indexgroup)
    return len(table.PATTERNS)

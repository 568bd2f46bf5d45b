"""`kernelscope analyze --format json`: the kernelscope.analysis/1 document
(kernelscope/schemas/analysis-1.schema.json), compact (pipe it through
`python -m json.tool` or `jq` to read it; indented output costs more than the analysis itself).

Kernels with the same resources share one occupancy result (analyze.py), whose JSON (a sweep of 32
block sizes, about 3 KB) is most of the document: each distinct one is encoded once and spliced in
where the document names it, instead of once per kernel. The occupancy objects are shared across
files too (analyze.py keeps them per resource usage for the process, read-only), so their encodings
are kept beside them: a process that analyses many files encodes each distinct sweep once."""

from __future__ import annotations

import json
import math

from kernelscope.identity_cache import IdentityCache

# stands where a shared occupancy object goes while the rest is encoded; json.dumps writes the NUL
# characters as \u0000, so the marker is found in the output as `"\u0000<MARK><n>\u0000"`
_MARK = "kernelscope-occupancy-"
_OPENING = '"\\u0000' + _MARK
_CLOSING = '\\u0000"'


def render(document: dict) -> str:
    try:
        return _render_sharing_occupancy(document)
    except ValueError:
        # JSON has no NaN or Infinity: unknown quantities are null
        return json.dumps(_finite(document), separators=(",", ":")) + "\n"


def _render_sharing_occupancy(document: dict) -> str:
    """The document's compact JSON, byte for byte what json.dumps writes, with each distinct
    occupancy object encoded once. Raises ValueError for a NaN or an infinity, as json.dumps does."""
    encoded: list[str] = []
    index: dict = {}                 # id(occupancy dict) -> position in `encoded`
    files = []
    uses = 0
    for file in document.get("files", ()):
        kernels = []
        for kernel in file.get("kernels", ()):
            occupancy = kernel.get("occupancy")
            if isinstance(occupancy, dict):
                position = index.get(id(occupancy))
                if position is None:
                    position = index[id(occupancy)] = len(encoded)
                    encoded.append(_encoded_occupancy(occupancy))
                kernel = {**kernel, "occupancy": f"\x00{_MARK}{position}\x00"}
                uses += 1
            kernels.append(kernel)
        files.append({**file, "kernels": kernels})
    if not uses:
        return _compact(document) + "\n"
    text = _compact({**document, "files": files})
    pieces = text.split(_OPENING)
    if len(pieces) != uses + 1:
        # some string of the document itself looks like a marker: encode it the plain way
        return _compact(document) + "\n"
    out = [pieces[0]]
    for piece in pieces[1:]:
        position, _, rest = piece.partition(_CLOSING)
        out.append(encoded[int(position)])
        out.append(rest)
    out.append("\n")
    return "".join(out)


# each shared occupancy dict's JSON, kept beside it (see the module's docstring)
_ENCODED = IdentityCache(4096)


def _encoded_occupancy(occupancy: dict) -> str:
    return _ENCODED.get(occupancy, _compact)


# Two encoders, made once. Escaping every string to ASCII (json.dumps' ensure_ascii) is a fifth of
# the encoding's instructions and changes nothing in a document whose strings are all ASCII (names,
# expressions, messages almost always are): the text is encoded without it and kept when it comes
# out pure ASCII without DEL, the one ASCII character ensure_ascii escapes; otherwise it is encoded
# again as json.dumps does. No check for cycles: the document is a tree of the records' to_json
# values (a cycle would raise RecursionError instead of ValueError).
_UNESCAPED = json.JSONEncoder(ensure_ascii=False, check_circular=False, allow_nan=False, separators=(",", ":"))
_ESCAPED = json.JSONEncoder(check_circular=False, allow_nan=False, separators=(",", ":"))


def _compact(value) -> str:
    """json.dumps(value, allow_nan=False, separators=(",", ":")), byte for byte."""
    text = _UNESCAPED.encode(value)
    if text.isascii() and "\x7f" not in text:
        return text
    return _ESCAPED.encode(value)


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value

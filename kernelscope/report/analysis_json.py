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
import sys
from json.encoder import c_encode_basestring as _c_encode_string
from json.encoder import c_make_encoder as _c_make_encoder

from kernelscope.identity_cache import IdentityCache

def render(document: dict) -> str:
    try:
        return _render_sharing_occupancy(document)
    except ValueError:
        # JSON has no NaN or Infinity: unknown quantities are null
        return json.dumps(_finite(document), separators=(",", ":")) + "\n"


def report_pieces(results) -> list[str]:
    """render(document(results)), byte for byte, in pieces for the `analyze` command: each kernel's dict is
    encoded as soon as it is built and then dropped, so the whole document (8 MB of dicts for the
    realistic file's 800 kernels, about 2,000 page faults of a fresh process) never exists at once. A
    JSON text is its parts' texts put together, so each part is decided on its own as render decides
    the whole: a part with a string beyond ASCII (or DEL) is encoded again with escapes, one with a NaN
    or an infinity through _finite. The keys around the kernels are document()'s and FileResult's, in
    their order (tests/test_report25_*.py compares with render(document(results)))."""
    from kernelscope.analyze import SCHEMA, document

    if _c_make_encoder is None:
        return [render(document(results))]
    table = _ReportStrings(_ENCODED_STRINGS)       # this report's own, as in _render_sharing_occupancy
    encode = _table_encoder(table)
    spliced: dict = {}                             # id(occupancy dict) -> (the dict, its _Spliced text)
    pieces = ['{"schema":', _part(SCHEMA), ',"files":[']
    for number, result in enumerate(results):
        head = _part(result.head_json())   # '{"path":...}': the kernels go before its brace
        pieces += ["," if number else "", head[:-1], ',"kernels":[' if len(head) > 2 else '"kernels":[']
        for index, kernel in enumerate(result.kernels):
            # the comma a piece of its own: adding it to the kernel's text would copy the text
            pieces += ("," if index else "", _kernel_text(encode, table, spliced, kernel.to_json()))
        pieces.append("]}")
    diagnostics = [d.to_json() for r in results for d in r.diagnostics]
    # (the diagnostics through the report's table, which keeps the strings it escaped: they repeat their
    # file's path and many of their messages)
    pieces += ['],"diagnostics":', _part(diagnostics, lambda value: "".join(encode(value, 0))), "}\n"]
    return pieces


def _part(value, unescaped=None) -> str:
    """value's text in render's document: _compact(value, unescaped), or, for a NaN or an infinity,
    json.dumps(_finite(value), separators=(",", ":"))."""
    try:
        return _compact(value, unescaped)
    except ValueError:
        return json.dumps(_finite(value), separators=(",", ":"))


def _kernel_text(encode, table: "_EncodedStrings", spliced: dict, kernel: dict) -> str:
    """_part(kernel), with the kernel's occupancy spliced in as its text (encoded once per
    distinct occupancy: in `kernel` while it is encoded, then put back)."""
    occupancy = kernel.get("occupancy")
    if isinstance(occupancy, dict):
        try:
            known = spliced.get(id(occupancy))
            if known is None:
                # the dict is kept with its text: the kernel's own dicts are dropped once encoded, and a
                # freed dict's id could come back as another's
                known = spliced[id(occupancy)] = (occupancy, _Spliced(_encoded_occupancy(occupancy)))
                table[known[1]] = known[1]
            kernel["occupancy"] = known[1]
            try:
                encoded = "".join(encode(kernel, 0))
            finally:
                kernel["occupancy"] = occupancy    # the dict as it was, for the general path below
            if _escapes_nothing(encoded):
                return encoded
        except ValueError:
            pass
    return _part(kernel)


class _Spliced(str):
    """An occupancy object's JSON text, standing where the object goes in the copy of the document that
    is encoded. The encoder's string table of that one rendering answers it with itself, unquoted, so
    the encoder writes the text as it is: one piece instead of the sweep's thousand, and no markers to
    find in the output afterwards. Hashed by identity, so that no string of the document, which the
    table looks up by its content's hash, can find it (the table holds it under its own hash only)."""
    __slots__ = ()
    __hash__ = object.__hash__


def _render_sharing_occupancy(document: dict) -> str:
    """The document's compact JSON, byte for byte what json.dumps writes, with each distinct
    occupancy object encoded once. Raises ValueError for a NaN or an infinity, as json.dumps does."""
    spliced: dict = {}               # id(occupancy dict) -> its _Spliced text
    files = []
    for file in document.get("files", ()):
        kernels = []
        for kernel in file.get("kernels", ()):
            occupancy = kernel.get("occupancy")
            if isinstance(occupancy, dict):
                text = spliced.get(id(occupancy))
                if text is None:
                    text = spliced[id(occupancy)] = _Spliced(_encoded_occupancy(occupancy))
                kernel = {**kernel, "occupancy": text}
            kernels.append(kernel)
        files.append({**file, "kernels": kernels})
    if not spliced or _c_make_encoder is None:
        return _compact(document) + "\n"
    # A table of this rendering's own (the shared one never holds a _Spliced text). Its first key that
    # is no exact str turns the dict into one of general keys, whose lookups of the interned keys
    # cost less than the str-only dict's: measured, the lookups of the realistic file's report took
    # 65 M instructions instead of 73.
    table = _ReportStrings(_ENCODED_STRINGS)
    for text in spliced.values():
        table[text] = text
    text = _unescaped_line(table, {**document, "files": files})
    return text if _escapes_nothing(text) else _ESCAPED.encode(document) + "\n"


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


def _compact(value, unescaped=None) -> str:
    """json.dumps(value, allow_nan=False, separators=(",", ":")), byte for byte. `unescaped`: the encoding
    without ensure_ascii to try first (a report's own table's, see report_pieces), else _unescaped."""
    text = (unescaped or _unescaped)(value)
    return text if _escapes_nothing(text) else _ESCAPED.encode(value)


def _escapes_nothing(text: str) -> bool:
    """Whether json.dumps' ensure_ascii would leave text, encoded without it, as it is: pure ASCII
    without DEL."""
    return text.isascii() and "\x7f" not in text


# The C encoder escapes every string it meets, each key of each dict included: about 500
# instructions a string, and the real programs' reports hold 22,600 keys (131 distinct) among 9,500
# other strings. Given a string encoder other than its own, it calls that instead: here a dict's
# lookup, which answers the keys and common values from their JSON kept once, and sends any other
# string to the C escaping function itself (the dict's __missing__, which stores nothing, so the
# table never grows). Same text as _UNESCAPED.encode (tests/test_clifast10_json_strings.py).
class _EncodedStrings(dict):
    __missing__ = staticmethod(_c_encode_string or (lambda text: _UNESCAPED.encode(text)))


class _ReportStrings(_EncodedStrings):
    """One rendering's own copy of the table, which also keeps the strings it had to escape: a report
    repeats most of its other strings (file paths in every diagnostic, array names, expressions and
    messages of one kernel's accesses and races; 62% of the real programs' misses, 83% of the
    realistic file's), and escaping one costs about 850 instructions where a lookup costs 100. It grows
    by the report's distinct strings and is dropped with the report; the shared _ENCODED_STRINGS never
    grows. (Keyed by content: a str subclass stored here answers an equal str with the same text.)"""
    __slots__ = ()

    def __missing__(self, text):
        encoded = self[text] = _EncodedStrings.__missing__(text)
        return encoded


# Every key the records' to_json write, then values most reports repeat, the empty string among them:
# patterns, spaces, bounds, loop and branch kinds, GPU names, rule codes (a string the table answers
# saves the C escaping function's new string, about 500 instructions). One string split at import:
# loading 200 string constants from the byte code cost more. Interned: the keys the to_json methods
# write are their code's constants, which Python interns, so the table finds them by identity instead
# of comparing their characters with its own copies' (which split() makes new).
_COMMON_STRINGS = ("", *map(sys.intern, """
    accesses active_blocks_per_sm active_lanes active_warps_per_sm allocated_registers_per_block
    allocated_shared_bytes_per_block arch arithmetic_intensity array atomic_details atomics attainable_flops
    bank_ways barrier_line barriers best_block_size bf16 block block_size block_source blocks bound branches
    bytes carveout column const constant_bytes contended depth diagnostics dims divergence divergent
    divergent_barriers divergent_branches divergent_warp_fraction dynamic dynamic_shared_bytes elem_bytes
    errors exact exec_weight expr extern_c files first_line flops_by_precision flops_per_thread fp16 fp32
    fp64 global_bytes_per_thread global_races gpu grid ideal_sectors_per_request in_function in_loop in_loops
    instantiation instantiations intensity kernel kernels kind lanes launch launch_bounds launches limiter
    limits line loops mask_mismatches max_threads_per_block max_warps_per_sm message name note notes
    occupancy op other_launches params path pattern plan pointer reason redundant_barriers registers
    registers_source resources restrict returns_before_barrier ridge_point rule same_address_contention
    schema scope second_line sectors_per_request severity share_true shared_arrays shared_bytes_per_thread
    shared_memory shared_memory_config_bytes shared_memory_opt_in shared_races source space
    special_ops_per_thread spill_loads spill_stores stack_bytes static_shared_bytes stride_bytes sweep symbol
    symbolic sync template_instantiations template_params template_types theoretical_occupancy
    thread_dependent threadfences threads_launched total_flops total_global_bytes type unresolved unroll var
    warps wavefronts_per_request
    atomic broadcast coalesced constant default error estimate float global info int load local memory
    option shared store strided warning
    compute indirect unknown do for while if return switch ternary A100 B200 H100 H200 L4
    KS101 KS102 KS103 KS104 KS111 KS112 KS201 KS202 KS203 KS204 KS205 KS206 KS207 KS208 KS209 KS301 KS302
    KS303 KS401 KS402 KS403 KS901 KS902 KS903
""".split()))
_ENCODED_STRINGS = _EncodedStrings(zip(_COMMON_STRINGS, map(_EncodedStrings.__missing__, _COMMON_STRINGS)))

if _c_make_encoder is not None:
    def _table_encoder(table: _EncodedStrings):
        """The C encoder of _UNESCAPED's settings, its strings answered by `table`."""
        return _c_make_encoder(None, _UNESCAPED.default, table.__getitem__, None, ":", ",", False, False, False)

    _encode_unescaped = _table_encoder(_ENCODED_STRINGS)

    def _unescaped(value) -> str:
        """_UNESCAPED.encode(value), byte for byte (the C encoder with the strings' table)."""
        return "".join(_encode_unescaped(value, 0))

    def _unescaped_line(table: _EncodedStrings, value) -> str:
        """_unescaped(value) + "\\n", with the strings' table `table` (_ENCODED_STRINGS and _Spliced texts)."""
        chunks = _table_encoder(table)(value, 0)
        # the newline in the one join, rather than a copy of the whole text to add it (the chunks are
        # few: the encoder joins its pieces every 100,000)
        return "".join([*chunks, "\n"])
else:   # no C accelerator: json's own way (render does not splice)
    _unescaped = _UNESCAPED.encode


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value

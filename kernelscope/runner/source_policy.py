"""Decide whether a candidate's source may be compiled: device code only, escapes by opt-in.

A candidate is launched by the runner, never by itself, so any host code in it is either dead weight
or an attempt to run something outside the measured launch. Escapes from the launch being measured
(device-side launches, the device heap, clocks) are legitimate in a few kernels, so they are allowed
only when the caller opts in by name.

The rules are judged on tokens, not on the raw text, because the text can spell a name without
writing it: `(clock64)()`, `#define CLK clock64`, `CAT(clo, ck64)`, a `<<<` built by a macro, a PTX
register split over string literals ("%%glob" "altimer") or written with escapes. So the source is
spliced (backslash-newlines joined, as the compiler does first), tokenised, and preprocessed with
the project's preprocessor (frontend/macros.py) under the predefined macros of each compiler the
runner uses; every rule then looks at the identifiers and at the concatenated, unescaped string
literals of the source as written and of each expansion. Conditions the preprocessor cannot decide
would let the compiler see a branch the check did not, so they are refused, and so is an `#include`
of anything but the CUDA headers the toolkit ships for device code.
"""

from __future__ import annotations

import re

from kernelscope.errors import InputError
from kernelscope.frontend.macros import Preprocessor, tokenize
from kernelscope.limits import env_limit

OPT_INS = ("dynamic_parallelism", "device_malloc", "clock")

# The check runs in the caller's process (it decides whether a source may reach a compiler at all)
# and costs about 4-17 us of CPU per byte, linear in the size (three tokenised streams, two
# preprocessor runs). A kernel candidate is a few KB; the cap keeps one hostile submission to a
# few seconds of the caller's CPU instead of minutes, and is refused before any of that work.
MAX_SOURCE_BYTES = int(env_limit("KERNELSCOPE_MAX_SOURCE_KB", 256) * 1024)


class PolicyError(InputError):
    """The candidate contains host code or an escape that was not opted into."""


_HOST_CALLS = re.compile(
    r"cuda(Malloc\w*|Memcpy\w*|Memset\w*|Free\w*|SetDevice|DeviceReset|DeviceSetLimit|DeviceSetCacheConfig"
    r"|StreamCreate\w*|StreamDestroy|StreamQuery|StreamAddCallback|EventCreate\w*|EventRecord\w*|EventQuery"
    r"|EventSynchronize|Graph\w+|LaunchKernel\w*|LaunchCooperativeKernel\w*|LaunchHostFunc|FuncSetAttribute"
    r"|HostAlloc|HostRegister|MallocHost|MemPool\w*|ThreadSynchronize|Ipc\w+|Profiler\w+"
    r"|Stream(Synchronize|WaitEvent|BeginCapture\w*|EndCapture)|DeviceSynchronize)")
_DRIVER_CALLS = re.compile(r"cu(Launch\w*|MemAlloc\w*|MemFree\w*|Memcpy\w*|Memset\w*|Ctx\w+|Module\w+|Init"
                           r"|Stream\w+|Event\w+|Graph\w+|FuncSetAttribute|MemCreate|MemMap|MemAddress\w+)")
_DEVICE_RUNTIME = {"cudaDeviceSynchronize", "cudaStreamCreateWithFlags"}   # device-side with the opt-in
_ESCAPE_NAMES = {
    "dynamic_parallelism": re.compile(r"cudaLaunchDevice\w*|cudaGetParameterBuffer\w*|cudaStreamTailLaunch"
                                      r"|cudaStreamFireAndForget"),
    "device_malloc": re.compile(r"malloc|free|realloc|calloc|aligned_alloc|memalign|new|delete"
                                r"|__nv_aligned_device_malloc"),
    "clock": re.compile(r"clock|clock64|__\w*(?:clock|globaltimer)\w*"),
}
_TIMER_REGISTER = re.compile(r"%\s*(?:clock|globaltimer)")
_DEVICE_QUALIFIERS = re.compile(r"\b(__global__|__device__)\b")
_TRANSPARENT_BLOCK = re.compile(r'^\s*(namespace\b[^()]*|extern\s*""\s*)$')   # strings already emptied
_TYPE_BLOCK = re.compile(r"\b(struct|class|union|enum)\b")
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(\w*)(.*)$", re.MULTILINE)
_INCLUDE_DIRECTIVES = {"include", "include_next", "import", "embed"}

# Headers of the CUDA toolkit that device code may include (NVRTC's built-ins and the device-side
# libraries next to them); nothing of the candidate's own, nothing of the host system.
ALLOWED_HEADERS = frozenset({
    "cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp", "cuda_fp8.h", "cuda_fp8.hpp",
    "cuda_fp6.h", "cuda_fp6.hpp", "cuda_fp4.h", "cuda_fp4.hpp", "cuda_runtime.h", "cooperative_groups.h",
    "mma.h", "cuda_pipeline.h", "cuda_pipeline_primitives.h", "cuda_awbarrier.h", "cuda_awbarrier_primitives.h",
    "vector_types.h", "vector_functions.h", "math_constants.h", "device_launch_parameters.h", "cuda_texture_types.h",
    "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_60_atomic_functions.h",
    "sm_61_intrinsics.h", "crt/math_functions.h",
})
ALLOWED_HEADER_FOLDERS = ("cuda/", "cub/", "cooperative_groups/")
_HEADER_NAME = re.compile(r"^[A-Za-z0-9_./]+$")

# What each compiler predefines beyond the preprocessor's own defaults (which are nvcc's).
_CONFIGURATIONS = {"nvrtc": ({"__CUDACC_RTC__": "1"}, ("__NVCC__",)), "nvcc": ({}, ())}


def check_source(source: str, allow=(), backend: str | None = None) -> None:
    """Raise PolicyError with a message a model can act on when `source` breaks the rules.

    `backend` (nvrtc or nvcc) is accepted for symmetry with the compiler; both compilers'
    configurations are always checked, since a candidate may be compiled by either."""
    unknown = set(allow) - set(OPT_INS)
    if unknown:
        raise PolicyError(f"unknown opt-in(s) {', '.join(sorted(unknown))}; known: {', '.join(OPT_INS)}")
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_SOURCE_BYTES:
        raise PolicyError(f"the candidate's source is {size / 1024:.0f} KB, over the runner's "
                          f"{MAX_SOURCE_BYTES / 1024:.0f} KB limit for one candidate (KERNELSCOPE_MAX_SOURCE_KB)")
    spliced = splice_lines(source)
    _check_directives(spliced)
    streams = [tokenize(spliced)]
    for name, (defines, undefined) in _CONFIGURATIONS.items():
        streams.append(tokenize(_expanded(spliced, defines, undefined, name)))
    views = [_TokenView(tokens) for tokens in streams]
    for view in views:
        if view.calls("main"):
            raise PolicyError("host code is not allowed in a candidate: it defines main(); submit only "
                              "__global__/__device__ code, the runner launches the kernel")
    for view in views:
        for name in view.identifiers:
            if name in _DEVICE_RUNTIME and "dynamic_parallelism" in allow:
                continue
            if _HOST_CALLS.fullmatch(name) or _DRIVER_CALLS.fullmatch(name):
                raise PolicyError(f"host code is not allowed in a candidate: it calls {name}; "
                                  "the runner allocates, copies and launches")
    for view in views:
        host = host_functions(view.code_without_directives())
        if host:
            raise PolicyError(f"host code is not allowed in a candidate: function {host[0]!r} is not "
                              "__global__ or __device__; mark helpers __device__")
    for view in views:
        _check_escapes(view, allow)


class _TokenView:
    """The significant tokens of one stream, with identifiers and string runs picked out."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.significant = [t for t in tokens if t.kind not in ("space", "newline", "comment")]
        self.identifiers = {t.text for t in self.significant if t.kind == "ident"}

    def calls(self, name: str) -> bool:
        return any(t.kind == "ident" and t.text == name and nxt.text == "("
                   for t, nxt in zip(self.significant, self.significant[1:]))

    def names(self, pattern):
        """Identifiers matching `pattern`, except members (`x.free`, `p->clock`)."""
        previous = None
        for token in self.significant:
            if token.kind == "ident" and pattern.fullmatch(token.text) and \
                    (previous is None or previous.text not in (".", "->")):
                yield token.text
            previous = token

    def triple_chevrons(self) -> bool:
        return any(a.text == "<<" and b.text == "<" for a, b in zip(self.significant, self.significant[1:]))

    def string_runs(self):
        """Adjacent string literals concatenated and unescaped, as the compiler joins them."""
        run = []
        for token in self.tokens:
            if token.kind == "string" and not token.text.startswith("'"):
                run.append(_string_value(token.text))
            elif token.kind not in ("space", "newline", "comment") and run:
                yield "".join(run)
                run = []
        if run:
            yield "".join(run)

    def code_without_directives(self) -> str:
        text = "".join('""' if t.kind == "string" else (" " if t.kind == "comment" else t.text) for t in self.tokens)
        return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _check_escapes(view: _TokenView, allow) -> None:
    for name, pattern in _ESCAPE_NAMES.items():
        if name in allow:
            continue
        for found in view.names(pattern):
            raise PolicyError(f"{found!r} needs the explicit opt-in {name!r} (kernelscope run --allow {name})")
    if "dynamic_parallelism" not in allow and view.triple_chevrons():
        raise PolicyError("'<<<' needs the explicit opt-in 'dynamic_parallelism' "
                          "(kernelscope run --allow dynamic_parallelism)")
    if "clock" not in allow:
        for text in view.string_runs():
            found = _TIMER_REGISTER.search(text.replace("%%", "%"))
            if found:
                raise PolicyError(f"{found.group(0)!r} in inline assembly needs the explicit opt-in 'clock' "
                                  "(kernelscope run --allow clock)")


def _check_directives(spliced: str) -> None:
    code = strip_comments_and_strings(spliced, keep_strings=True)
    if "%:" in strip_comments_and_strings(spliced):
        raise PolicyError("the digraph '%:' (a spelling of '#') is not allowed in a candidate")
    for match in _DIRECTIVE.finditer(code):
        directive, rest = match.group(1), match.group(2).strip()
        if directive in _INCLUDE_DIRECTIVES:
            _check_include(directive, rest)


def _check_include(directive: str, rest: str) -> None:
    if directive != "include":
        raise PolicyError(f"#{directive} is not allowed in a candidate; #include a CUDA header instead")
    quoted = re.fullmatch(r'<([^<>]*)>|"([^"]*)"', rest)
    if not quoted:
        raise PolicyError(f"#include {rest} is not allowed: name a CUDA header literally, as <cuda_fp16.h>")
    name = (quoted.group(1) or quoted.group(2) or "").strip()
    safe = _HEADER_NAME.match(name) and ".." not in name and not name.startswith("/")
    if not safe or not (name in ALLOWED_HEADERS or name.startswith(ALLOWED_HEADER_FOLDERS)):
        raise PolicyError(f"#include of {name!r} is not allowed: a candidate may include only the CUDA "
                          "toolkit's device headers (cuda_fp16.h, cuda_bf16.h, cooperative_groups.h, mma.h, "
                          "cuda/..., cub/...)")


def _expanded(spliced: str, defines: dict, undefined, configuration: str) -> str:
    preprocessor = Preprocessor(defines)
    for name in undefined:
        preprocessor.macros.pop(name, None)
    result = preprocessor.run(spliced)
    for error in result.errors:
        message = error.message if hasattr(error, "message") else str(error)
        if "cannot decide" in message or "too large" in message or "too deeply" in message:
            raise PolicyError(f"line {error.line}: a preprocessor condition or macro the runner cannot check "
                              f"({message.split(';')[0]}, as {configuration} would see it); write plain "
                              "device code")
    return result.text


def splice_lines(source: str) -> str:
    """Join backslash-newline continuations, as the compiler does before anything else."""
    return re.sub(r"\\[ \t]*\r?\n", "", source)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _string_value(literal: str) -> str:
    """The characters of a C string literal (prefixes, quotes and escapes resolved)."""
    raw = re.match(r'^(?:u8|u|U|L)?R"([^(\s]*)\((.*)\)\1"$', literal, re.DOTALL)
    if raw:
        return raw.group(2)
    body = re.sub(r'^(?:u8|u|U|L)?"', "", literal)
    body = body[:-1] if body.endswith('"') else body

    def unescape(match):
        text = match.group(1)
        if text[0] in "xX":
            return chr(int(text[1:], 16) % 0x110000) if len(text) > 1 else ""
        if text[0] in "uU":
            return chr(int(text[1:], 16) % 0x110000) if len(text) > 1 else ""
        if text[0] in "01234567":
            return chr(int(text, 8))
        return _ESCAPES.get(text, text)

    return re.sub(r"\\(x[0-9a-fA-F]+|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", unescape, body, flags=re.DOTALL)


def host_functions(code: str) -> list[str]:
    """Names of function definitions without a device qualifier, at namespace scope.

    Walks braces once: a `{` after a `)` at namespace scope opens a function body; namespaces and
    extern "C" blocks are transparent, struct/class bodies are skipped (their methods are only
    callable from the code around them, which is checked itself).
    """
    found = []
    depth_stack = []     # kind of each open brace: "ns" (transparent) or "opaque"
    header_start = 0
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == "{":
            header = code[header_start:i]
            if depth_stack and depth_stack[-1] == "opaque":
                depth_stack.append("opaque")
            elif _TRANSPARENT_BLOCK.match(header):
                depth_stack.append("ns")
            else:
                depth_stack.append("opaque")
                name = _function_name(header)
                if name and not _DEVICE_QUALIFIERS.search(header) and "constexpr" not in header:
                    found.append(name)
            header_start = i + 1
        elif ch == "}":
            if depth_stack:
                depth_stack.pop()
            header_start = i + 1
        elif ch == ";" and (not depth_stack or depth_stack[-1] == "ns"):
            header_start = i + 1
        i += 1
    return found


def _function_name(header: str) -> str | None:
    header = header.strip()
    if not header.endswith(")") and not re.search(r"\)\s*(const|noexcept|override|->[^()]*)?\s*$", header):
        return None
    if _TYPE_BLOCK.search(header.split("(")[0]) or "=" in header.split("(")[0]:
        return None
    header = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", header)
    match = re.search(r"([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_~]\w*)*|operator\s*\S+)\s*\(", header)
    if not match or match.group(1) in ("if", "for", "while", "switch", "return", "sizeof"):
        return None
    return match.group(1)


def strip_comments_and_strings(source: str, keep_strings: bool = False) -> str:
    """Source with comments removed and string/char literals emptied, line structure kept."""
    out = []
    i, n = 0, len(source)
    while i < n:
        two = source[i:i + 2]
        if two == "//":
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif two == "/*":
            j = source.find("*/", i + 2)
            chunk = source[i:n if j < 0 else j + 2]
            out.append("\n" * chunk.count("\n") or " ")
            i = n if j < 0 else j + 2
        elif source[i] in "\"'":
            quote = source[i]
            j = i + 1
            while j < n and source[j] != quote and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append(source[i:j + 1] if keep_strings else quote * 2)
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def kernel_names(source: str) -> list[str]:
    """Names of the __global__ functions defined in `source`, in order."""
    code = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", strip_comments_and_strings(source))
    return re.findall(r"__global__\s+(?:[\w:<>,\s\*&]*?\s)?([A-Za-z_]\w*)\s*\(", code)

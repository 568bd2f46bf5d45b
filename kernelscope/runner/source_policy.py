"""Decide whether a candidate's source may be compiled: device code only, escapes by opt-in.

A candidate is launched by the runner, never by itself, so any host code in it is either dead weight
or an attempt to run something outside the measured launch. Escapes from the launch being measured
(device-side launches, the device heap, clocks) are legitimate in a few kernels, so they are allowed
only when the caller opts in by name.
"""

from __future__ import annotations

import re

from kernelscope.errors import InputError

OPT_INS = ("dynamic_parallelism", "device_malloc", "clock")


class PolicyError(InputError):
    """The candidate contains host code or an escape that was not opted into."""


_HOST_CALLS = re.compile(
    r"\bcuda(Malloc\w*|Memcpy\w*|Memset\w*|Free\w*|SetDevice|DeviceReset|StreamCreate\w*|EventCreate\w*"
    r"|EventRecord|EventSynchronize|Graph\w+|LaunchKernel\w*|LaunchCooperativeKernel\w*|FuncSetAttribute"
    r"|HostAlloc|MallocHost|MemPool\w*|Stream(Synchronize|WaitEvent|BeginCapture|EndCapture))\s*\(")
_DRIVER_CALLS = re.compile(r"\bcu(Launch\w*|MemAlloc\w*|Memcpy\w*|Ctx\w+|Module\w+|Init)\s*\(")
_ESCAPES = {
    "dynamic_parallelism": re.compile(r"<<<|\bcudaLaunchDevice\b|\bcudaGetParameterBuffer\w*\b"
                                      r"|\bcudaDeviceSynchronize\b|\bcudaStreamCreateWithFlags\b"),
    "device_malloc": re.compile(r"(?<![\w.])(malloc|free|realloc|calloc)\s*\(|\bnew\b|\bdelete\b"),
    "clock": re.compile(r"\bclock(64)?\s*\(|%globaltimer|%clock(64)?\b|__globaltimer"),
}
_DEVICE_QUALIFIERS = re.compile(r"\b(__global__|__device__)\b")
_TRANSPARENT_BLOCK = re.compile(r'^\s*(namespace\b[^()]*|extern\s*""\s*)$')   # strings already emptied
_TYPE_BLOCK = re.compile(r"\b(struct|class|union|enum)\b")


def check_source(source: str, allow=()) -> None:
    """Raise PolicyError with a message a model can act on when `source` breaks the rules."""
    unknown = set(allow) - set(OPT_INS)
    if unknown:
        raise PolicyError(f"unknown opt-in(s) {', '.join(sorted(unknown))}; known: {', '.join(OPT_INS)}")
    code = strip_comments_and_strings(source)
    with_strings = strip_comments_and_strings(source, keep_strings=True)  # inline PTX lives in strings
    body = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))
    if re.search(r"\bmain\s*\(", body):
        raise PolicyError("host code is not allowed in a candidate: it defines main(); submit only "
                          "__global__/__device__ code, the runner launches the kernel")
    match = _HOST_CALLS.search(body) or _DRIVER_CALLS.search(body)
    if match and not (match.group(0).startswith("cudaDeviceSynchronize") and "dynamic_parallelism" in allow):
        raise PolicyError(f"host code is not allowed in a candidate: it calls {match.group(0).rstrip('( ')}; "
                          "the runner allocates, copies and launches")
    host = host_functions(body)
    if host:
        raise PolicyError(f"host code is not allowed in a candidate: function {host[0]!r} is not "
                          "__global__ or __device__; mark helpers __device__")
    for name, pattern in _ESCAPES.items():
        if name not in allow:
            found = pattern.search(with_strings if name == "clock" else body)
            if found:
                raise PolicyError(f"{found.group(0).strip()!r} needs the explicit opt-in {name!r} "
                                  f"(kernelscope run --allow {name})")


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
            out.append("\n" * chunk.count("\n"))
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

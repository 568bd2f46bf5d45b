"""Pull CUDA source out of a model completion.

Models answer in prose with fenced code blocks, sometimes several (a helper, then the kernel; or a first
try and a corrected one), sometimes without fences, sometimes cut off mid-block by the length limit.
The rule here: keep the blocks that look like CUDA, and when two blocks define a kernel of the same name,
the later one wins (a model that revises itself means its last version).

Completions are untrusted text, and a policy under pressure emits degenerate ones (a token repeated for
the whole length limit), so every pattern here runs in time linear in the text: no pattern may scan
to the end of the text from each of many starting points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Languages a model labels CUDA with; an unlabeled fence counts too when its body looks like CUDA.
CODE_LANGUAGES = {"", "cuda", "cu", "cpp", "c++", "cxx", "c", "cuh", "h", "hpp"}

_FENCE = re.compile(r"^[ \t]*(```+|~~~+)[ \t]*([\w+.#-]*)[^\n]*\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)",
                    re.MULTILINE | re.DOTALL)
# A kernel's name follows at most a few words of return type and qualifiers (`static __forceinline__
# void`, `__launch_bounds__` removed first); bounding them keeps a run of `__global__ ` linear.
_KERNEL = re.compile(r"__global__\s+(?:[\w:<>,*&]+\s+){0,8}?(\w+)\s*\(")
_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\([^()]{0,200}\)")
_COMMENT_START = re.compile(r"//|/\*")
_CUDA_HINT = re.compile(r"__global__|__device__|__shared__|threadIdx|blockIdx|#include")


@dataclass(frozen=True)
class Extraction:
    """What was found. `code` is None when the completion has no usable CUDA (see `problem`)."""
    code: str | None
    kernels: tuple = ()
    blocks: int = 0
    truncated: bool = False
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.code is not None


@dataclass
class _Block:
    language: str
    body: str
    kernels: list = field(default_factory=list)


def completion_text(completion) -> str:
    """A completion as text: TRL passes strings, or lists of chat messages in conversational mode."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return str(completion.get("content", ""))
    if isinstance(completion, (list, tuple)):
        return "\n".join(completion_text(part) for part in completion
                         if not isinstance(part, dict) or part.get("role", "assistant") == "assistant")
    return "" if completion is None else str(completion)


def kernel_names(code: str) -> list[str]:
    return _KERNEL.findall(_LAUNCH_BOUNDS.sub(" ", _strip_comments(code)))


def extract_code(completion) -> Extraction:
    text = completion_text(completion)
    blocks = _fenced_blocks(text)
    truncated = bool(blocks) and _ends_inside_fence(text)
    if not blocks:
        return _unfenced(text)
    cuda = [b for b in blocks if b.language in CODE_LANGUAGES and _CUDA_HINT.search(b.body)]
    if not cuda:
        return Extraction(None, blocks=len(blocks), problem="no CUDA code block in the answer")
    kept = _latest_definition_wins(cuda)
    kernels = tuple(name for block in kept for name in block.kernels)
    if not kernels:
        return Extraction(None, blocks=len(blocks), truncated=truncated,
                          problem="the code has no __global__ kernel")
    code = "\n\n".join(block.body.rstrip() for block in kept) + "\n"
    return Extraction(code, kernels, len(blocks), truncated)


def _fenced_blocks(text: str) -> list[_Block]:
    blocks = []
    for match in _FENCE.finditer(text):
        body = match.group(3)
        blocks.append(_Block(match.group(2).lower(), body, kernel_names(body)))
    return blocks


def _ends_inside_fence(text: str) -> bool:
    fences = re.findall(r"^[ \t]*(?:```|~~~)", text, re.MULTILINE)
    return len(fences) % 2 == 1


def _latest_definition_wins(blocks: list[_Block]) -> list[_Block]:
    """Drop a block when a later block redefines every kernel it defines; helper blocks stay."""
    kept, later = [], set()
    for block in reversed(blocks):  # one pass from the end: `later` holds every kernel defined after
        if not (block.kernels and all(name in later for name in block.kernels)):
            kept.append(block)
        later.update(block.kernels)
    return kept[::-1]


def _unfenced(text: str) -> Extraction:
    """No fences: take from the first line that starts CUDA code to the end of the last kernel body."""
    if "__global__" not in text:
        return Extraction(None, problem="no code found in the answer")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if re.match(r"\s*(#include|#define|template|extern|__global__|__device__|struct|typedef|"
                             r"static|constexpr)", line) or "__global__" in line)
    code = "\n".join(lines[start:])
    end = code.rfind("}")
    if end < 0:
        return Extraction(None, truncated=True, problem="the kernel is cut off before its body")
    code = code[:end + 1] + "\n"
    names = tuple(kernel_names(code))
    if not names:
        return Extraction(None, problem="the code has no __global__ kernel")
    return Extraction(code, names, 0, False)


def _strip_comments(code: str) -> str:
    """Comments out, in one pass (an unclosed `/*` ends the text instead of being searched from anew)."""
    out, position = [], 0
    while True:
        match = _COMMENT_START.search(code, position)
        if match is None:
            out.append(code[position:])
            return "".join(out)
        out.append(code[position:match.start()])
        out.append(" ")
        if match.group() == "//":
            end = code.find("\n", match.end())
            position = len(code) if end < 0 else end
        else:
            end = code.find("*/", match.end())
            position = len(code) if end < 0 else end + 2

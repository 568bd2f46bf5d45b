"""Performance hints that need no analysis of their own, only the facts the others found:
local arrays indexed at run time (KS104), memory-bound kernels (KS401), pointers that aliasing
rules keep out of registers (KS402) and read-only data that misses the read-only cache (KS403)."""

from __future__ import annotations

from kernelscope.model import Diagnostic
from kernelscope.rules import severity_of


def diagnostics(kernel, intensity, path: str) -> list[Diagnostic]:
    return (_local_arrays(kernel, path) + _memory_bound(kernel, intensity, path)
            + _missing_restrict(kernel, path) + _uncached_read_only(kernel, path))


def _emit(code: str, path: str, line: int, column: int, message: str, kernel) -> Diagnostic:
    return Diagnostic(code, severity_of(code), path, line, column, message, kernel.name)


def _local_arrays(kernel, path: str) -> list:
    found, seen = [], set()
    for array, line, column, text in kernel.dynamic_local_accesses:
        if array in seen:
            continue
        seen.add(array)
        found.append(_emit("KS104", path, line, column,
                           f"local array `{array}` is indexed at run time (`{text}`): it lives in local memory, "
                           "not registers; use shared memory or constant indices", kernel))
    return found


def _memory_bound(kernel, intensity, path: str) -> list:
    if intensity is None or intensity.bound != "memory" or intensity.arithmetic_intensity is None:
        return []
    return [_emit("KS401", path, kernel.line, kernel.column,
                  f"{intensity.arithmetic_intensity:.3g} FLOP per global byte, below the ridge point "
                  f"({intensity.ridge_point:.3g}) of {intensity.gpu}: {kernel.name} is memory-bound; "
                  "speed comes from moving fewer bytes (fusion, reuse, narrower types)", kernel)]


def _missing_restrict(kernel, path: str) -> list:
    """Several pointer parameters, some written, none `__restrict__`: the compiler must assume they
    alias and cannot keep loaded values in registers or use the read-only path."""
    pointers = [p for p in kernel.params if p.is_pointer]
    written = {a.array for a in kernel.accesses if a.space == "global" and a.op != "load"}
    if len(pointers) < 2 or not written or any(p.is_restrict for p in pointers):
        return []
    return [_emit("KS402", path, kernel.line, kernel.column,
                  f"pointer parameters of {kernel.name} are not __restrict__; if they never alias, "
                  "mark them so the compiler can cache loads", kernel)]


def _uncached_read_only(kernel, path: str) -> list:
    """Pointer parameters only read, read inside loops (reused), without const __restrict__ or
    __ldg: they miss the read-only cache path."""
    found = []
    for param in kernel.params:
        if not param.is_pointer or (param.is_const and param.is_restrict):
            continue
        accesses = [a for a in kernel.accesses if a.array == param.name and a.space == "global"]
        if not accesses or any(a.op != "load" for a in accesses) or any(getattr(a, "cached", None) for a in accesses):
            continue
        reused = [a for a in accesses if a.context.loops]
        if reused:
            first = reused[0]
            found.append(_emit("KS403", path, first.line, first.column,
                               f"`{param.name}` is only read, and read again in a loop, but is not "
                               "`const ... __restrict__` (nor loaded with __ldg): it misses the read-only cache",
                               kernel))
    return found
